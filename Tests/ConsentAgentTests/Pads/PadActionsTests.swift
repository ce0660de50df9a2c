import AgentProtocol
import ConsentCore
import Foundation
import Logging
import NIOConcurrencyHelpers
import NIOCore
import NIOEmbedded
import Testing

@testable import ConsentAgent

/// A pad provider whose one pad the test plugs in and out, telling the core as `LinuxPadProvider` does.
final class SwitchablePadProvider: PadProviding {
    private let connected = NIOLockedValueBox(false)
    private let handler = NIOLockedValueBox<(@Sendable () -> Void)?>(nil)

    func plug(_ isConnected: Bool) {
        connected.withLockedValue { $0 = isConnected }
        handler.withLockedValue { $0 }?()
    }

    func pads() async -> [PadInfo] { hasUsablePad() ? [FakePadProvider.pad] : [] }
    func hasUsablePad() -> Bool { connected.withLockedValue { $0 } }
    func onPadsChanged(_ handler: @escaping @Sendable () -> Void) { self.handler.withLockedValue { $0 = handler } }
    func publishEvents(to hub: EventHub) {}
    func beginCapture(flow: String, pad: String?, role: SigningRole?) async throws -> PadInfo {
        guard hasUsablePad() else { throw AgentError(.noPad, "no pad") }
        return FakePadProvider.pad
    }
    func clearCapture(flow: String) async throws {}
    func finishCapture(flow: String) async throws -> SignatureStrokes { throw AgentError(.noCapture, "not capturing") }
    func cancelCapture(flow: String) async {}
    func capture(of flow: String) -> PadInfo? { nil }
}

/// A view lists `beginSignature` only while a pad can take the signature: "offer only the actions the view lists"
/// never shows a button that can only answer `NoPad`, and a pad plugged in later is offered at once.
@Suite struct PadActionsTests {
    /// A UI's connection to a core with `pads`, its flow at the signature page.
    struct Kiosk {
        let channel: NIOAsyncTestingChannel
        var flow: RPCValue = .null
        var events: [RPCValue] = []
        var nextID: Int64 = 0

        init(pads: any PadProviding) async throws {
            let state = try TestSupport.temporaryDirectory()
            let core = AgentCore(
                studies: [try TestSupport.sampleStudy()], settings: .init(stateDirectory: state), hub: EventHub(),
                recordMaker: nil, pads: pads, logger: Logger(label: "test"))
            channel = try await TestSupport.channel(core: core)
            _ = try await channel.nextMessage()
            _ = try await call("session.negotiate", ["client": "t", "version": 1])
            _ = try await call("events.subscribe", ["topics": ["flow"]])
            flow = try #require(try await call("flow.start")["result"]?["flow"])
            _ = try await call("eligibility.answer", ["flow": flow, "answers": [true, true, false, true]])
            var step = try await call("flow.next", ["flow": flow, "step": "eligibility"])
            // The sample study begins with its key information.
            step = try await call("flow.next", ["flow": flow, "step": "keyInformation"])
            while step["result"]?["step"] == "visual" {
                step = try await call("flow.next", ["flow": flow, "step": "visual"])
            }
            _ = try await call("sharing.choose", ["flow": flow, "shareWidely": false])
            _ = try await call("optional.answer", ["flow": flow, "answers": ["future-research": true, "contact-other-studies": false]])
            _ = try await call("review.agree", ["flow": flow])
            for answer in TestSupport.sampleComprehensionAnswers {
                _ = try await call("comprehension.answer", .object(answer.merging(["flow": flow]) { a, _ in a }))
            }
            let named = try await call("participant.setName", ["flow": flow, "given": "Grace", "family": "Hopper"])
            #expect(named["result"]?["view"]?["review"]?["page"] == "signature")
        }

        mutating func call(_ method: String, _ params: RPCValue = [:]) async throws -> RPCValue {
            nextID += 1
            let request: RPCValue = ["jsonrpc": "2.0", "id": .integer(nextID), "method": .string(method), "params": params]
            try await channel.send(request.jsonText)
            while true {
                let message = try await channel.nextMessage()
                if message["method"] != nil { events.append(message); continue }
                return message
            }
        }

        /// The actions of the flow's current view, as `flow.get` answers.
        mutating func actions() async throws -> [String] {
            let view = try await call("flow.get", ["flow": flow])["result"]?["view"]
            return view?["actions"]?.arrayValue?.compactMap(\.stringValue) ?? []
        }

        mutating func labels() async throws -> [String] {
            let view = try await call("flow.get", ["flow": flow])["result"]?["view"]
            return view?["labels"]?.objectValue.map { Array($0.keys) } ?? []
        }

        /// The actions of the last `flow.changed` received, after waiting up to a second for one newer than
        /// `seen` events.
        mutating func changedActions(after seen: Int) async throws -> [String]? {
            for _ in 0..<100 {
                let changed = events.dropFirst(seen).last { $0["method"] == "flow.changed" }
                if let changed {
                    return changed["params"]?["data"]?["view"]?["actions"]?.arrayValue?.compactMap(\.stringValue)
                }
                try await Task.sleep(for: .milliseconds(10))
                _ = try await call("session.sync")
            }
            return nil
        }
    }

    @Test func withoutAPadTheSignaturePageOffersNoPadCapture() async throws {
        var kiosk = try await Kiosk(pads: NoPadProvider())
        let actions = try await kiosk.actions()
        #expect(actions.contains("submitSignature") && actions.contains("clearSignature"))
        #expect(!actions.contains("beginSignature"), "\(actions)")
        #expect(!(try await kiosk.labels()).contains("beginSignature"))
        // Refused as before if a UI sends it anyway.
        let begun = try await kiosk.call("signature.begin", ["flow": kiosk.flow])
        #expect(begun["error"]?["data"]?["type"] == "NoPad")
        await kiosk.channel.end()
    }

    @Test func withAPadTheSignaturePageOffersIt() async throws {
        var kiosk = try await Kiosk(pads: FakePadProvider())
        #expect(try await kiosk.actions().contains("beginSignature"))
        #expect(try await kiosk.labels().contains("beginSignature"))
        await kiosk.channel.end()
    }

    @Test func aPadPluggedInOrOutChangesTheViewAndSaysSo() async throws {
        let pads = SwitchablePadProvider()
        var kiosk = try await Kiosk(pads: pads)
        #expect(!(try await kiosk.actions()).contains("beginSignature"))

        var seen = kiosk.events.count
        pads.plug(true)
        #expect(try await kiosk.changedActions(after: seen)?.contains("beginSignature") == true)
        #expect(try await kiosk.actions().contains("beginSignature"))

        seen = kiosk.events.count
        pads.plug(false)
        #expect(try await kiosk.changedActions(after: seen)?.contains("beginSignature") == false)
        #expect(!(try await kiosk.actions()).contains("beginSignature"))
        await kiosk.channel.end()
    }
}
