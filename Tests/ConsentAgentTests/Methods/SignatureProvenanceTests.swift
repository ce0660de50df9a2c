import AgentProtocol
import ConsentCore
import Foundation
import Logging
import NIOCore
import NIOEmbedded
import Testing

@testable import ConsentAgent

/// The agent alone states how a signature was captured. A UI may not send `device` (the
/// reported defect: a finger-drawn signature recorded as "Wacom STU-540 Pen") or any member the stroke format does
/// not define; UI strokes meet the pad's requirements (ink, time never decreasing); the record names the UI client.
@Suite struct SignatureProvenanceTests {
    final class Driver {
        let core: AgentCore
        let channel: NIOAsyncTestingChannel
        let state: URL
        var nextID: Int64 = 0

        init() async throws {
            state = try TestSupport.temporaryDirectory()
            let clock = ManualClock()
            core = AgentCore(
                studies: [try TestSupport.sampleStudy()], settings: .init(stateDirectory: state), hub: EventHub(),
                recordMaker: try TestSupport.recordMaker(state: state), logger: Logger(label: "test"),
                now: { clock.now })
            channel = try await TestSupport.channel(core: core, maximumLineBytes: 1 << 16)
            _ = try await channel.nextMessage()
            _ = try await call("session.negotiate", ["client": "kiosk-ui-test 2.1", "version": 1])
        }

        /// Closes the driver's connection (`NIOAsyncTestingChannel.end()` says why every test does).
        func end() async {
            await channel.end()
        }

        func call(_ method: String, _ params: RPCValue = [:]) async throws -> RPCValue {
            nextID += 1
            let request: RPCValue = ["jsonrpc": "2.0", "id": .integer(nextID), "method": .string(method), "params": params]
            try await channel.send(request.jsonText)
            while true {
                let message = try await channel.nextMessage()
                if message["method"] != nil { continue }
                return message
            }
        }

        /// A flow at the participant's signature page.
        func flowAtSignature() async throws -> RPCValue {
            let flow = try #require(try await call("flow.start")["result"]?["flow"])
            _ = try await call("eligibility.answer", ["flow": flow, "answers": [true, true, false, true]])
            var step = try await call("flow.next", ["flow": flow, "step": "eligibility"])
            // The sample study begins with its key information.
            step = try await call("flow.next", ["flow": flow, "step": "keyInformation"])
            while step["result"]?["step"] == "visual" {
                step = try await call("flow.next", ["flow": flow, "step": "visual"])
            }
            _ = try await call("sharing.choose", ["flow": flow, "shareWidely": true])
            _ = try await call("optional.answer", ["flow": flow, "answers": ["future-research": true, "contact-other-studies": false]])
            _ = try await call("review.agree", ["flow": flow])
            for answer in TestSupport.sampleComprehensionAnswers {
                _ = try await call("comprehension.answer", .object(answer.merging(["flow": flow]) { a, _ in a }))
            }
            _ = try await call("participant.setName", ["flow": flow, "given": "Ada", "family": "Lovelace"])
            return flow
        }
    }

    /// A 12-point zigzag across half the area: enough points and ink.
    static func points(times: [Double]? = nil) -> RPCValue {
        let t = times ?? (0..<12).map { Double($0) * 8 }
        return .array((0..<12).map { i in
            .array([.number(0.1 + Double(i) * 0.05), .number(i % 2 == 0 ? 0.6 : 0.4), .number(t[i]), .number(0.5)])
        })
    }

    @Test func aUISuppliedDeviceIsRefusedNamingTheMemberNotItsValue() async throws {
        let d = try await Driver()
        let flow = try await d.flowAtSignature()
        let strokes: RPCValue = ["strokes": .array([Self.points()]), "device": ["name": "Wacom STU-540 Pen"]]
        let reply = try await d.call("signature.submit", ["flow": flow, "strokes": strokes])
        #expect(reply["error"]?["data"]?["type"] == "InvalidParams")
        #expect(reply["error"]?["data"]?["field"] == "strokes.device")
        #expect(!reply.jsonText.contains("Wacom"), "the refusal echoes the value")
        // Nothing was taken: the flow is still at the signature page.
        #expect(try await d.call("flow.get", ["flow": flow])["result"]?["view"]?["review"]?["hasSignature"] == false)
        await d.end()
    }

    @Test func anUnknownMemberInsideStrokesIsRefused() async throws {
        let d = try await Driver()
        let flow = try await d.flowAtSignature()
        let strokes: RPCValue = ["strokes": .array([Self.points()]), "tiltX": "secret-value-42"]
        let reply = try await d.call("signature.submit", ["flow": flow, "strokes": strokes])
        #expect(reply["error"]?["data"]?["type"] == "InvalidParams")
        #expect(reply["error"]?["data"]?["field"] == "strokes.tiltX")
        #expect(!reply.jsonText.contains("secret-value-42"))
        await d.end()
    }

    @Test func uiStrokesWhoseTimeRunsBackwardsAreRefused() async throws {
        let d = try await Driver()
        let flow = try await d.flowAtSignature()
        var times = (0..<12).map { Double($0) * 8 }
        times[7] = 3
        let reply = try await d.call("signature.submit", ["flow": flow, "strokes": ["strokes": .array([Self.points(times: times)])]])
        #expect(reply["error"]?["data"]?["type"] == "InvalidParams")
        #expect(reply["error"]?["data"]?["field"] == "strokes")
        // Across strokes too: the second stroke may not start before the first ended.
        let second = RPCValue.array([[0.5, 0.5, 10, 0.5], [0.6, 0.5, 20, 0.5]].map { RPCValue.array($0.map(RPCValue.number)) })
        let later: RPCValue = ["strokes": .array([Self.points(), second])]
        let across = try await d.call("signature.submit", ["flow": flow, "strokes": later])
        #expect(across["error"]?["data"]?["type"] == "InvalidParams")
        await d.end()
    }

    @Test func uiStrokesWithTooLittleInkAreTooShortLikePadStrokes() async throws {
        let d = try await Driver()
        let flow = try await d.flowAtSignature()
        // 12 points in a 1 % scribble: enough points, no ink.
        var scribble: [RPCValue] = []
        for i in 0..<12 {
            let x = RPCValue.number(0.5 + Double(i % 2) * 0.001), t = RPCValue.number(Double(i) * 8)
            scribble.append(.array([x, .number(0.5), t, .number(0.5)]))
        }
        let tiny = RPCValue.array(scribble)
        let reply = try await d.call("signature.submit", ["flow": flow, "strokes": ["strokes": .array([tiny])]])
        #expect(reply["error"]?["data"]?["type"] == "SignatureTooShort")
        await d.end()
    }

    @Test func theRecordSaysTheUIDrewItAndNamesTheNegotiatedClient() async throws {
        let d = try await Driver()
        let flow = try await d.flowAtSignature()
        let signed = try await d.call("signature.submit", ["flow": flow, "strokes": ["strokes": .array([Self.points()]), "widthMM": 120, "heightMM": 40]])
        #expect(signed["error"] == nil, "\(signed.jsonText)")
        let done = try await d.call("flow.complete", ["flow": flow])
        let directory = try #require(done["result"]?["directory"]?.stringValue)
        let saved = try JSONValue.parse(try Data(contentsOf: URL(fileURLWithPath: directory).appendingPathComponent("signature.json")))
        #expect(saved["device"]?["source"] == "ui")
        #expect(saved["device"]?["client"] == "kiosk-ui-test 2.1")
        #expect(saved["device"]?["name"] == nil)
        await d.end()
    }
}
