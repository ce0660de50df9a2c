import AgentProtocol
import ConsentCore
import Foundation
import Logging
import NIOCore
import NIOEmbedded
import Testing

@testable import ConsentAgent

/// The agent's ended-flow bookkeeping keeps a flow for `flow.get` after it ends, but nothing the participant gave:
/// after every kind of end, neither the reply nor what the agent holds for the flow contains the name, the
/// strokes or the passcode.
@Suite struct EndedFlowWipeTests {
    static let given = "Zebedee", family = "Quillfeather-Oyelaran"
    static let needles = [given, family, "0.314159", "0.271828", "86420931"]

    final class Driver {
        let core: AgentCore
        let clock: ManualClock
        let channel: NIOAsyncTestingChannel
        var nextID: Int64 = 0

        init() async throws {
            let state = try TestSupport.temporaryDirectory()
            var study = try TestSupport.sampleStudy()
            study.options.askToCreatePasscode = true
            let clock = ManualClock()
            self.clock = clock
            core = AgentCore(
                studies: [study], settings: .init(minimumSignaturePoints: 2, stateDirectory: state), hub: EventHub(),
                recordMaker: try TestSupport.recordMaker(state: state), logger: Logger(label: "test"),
                now: { clock.now })
            channel = try await TestSupport.channel(core: core, maximumLineBytes: 1 << 16)
            _ = try await channel.nextMessage()
            _ = try await call("session.negotiate", ["client": "t", "version": 1])
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

        /// A flow with everything given: answers, sharing, name, signature, passcode.
        func signedFlow() async throws -> RPCValue {
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
            _ = try await call("participant.setName", ["flow": flow, "given": .string(given), "family": .string(family)])
            let points: [[Double]] = [[0.314159, 0.271828, 0, 0.5], [0.6, 0.7, 40, 0.5], [0.7, 0.6, 80, 0.5]]
            let strokes: RPCValue = ["strokes": .array([.array(points.map { .array($0.map(RPCValue.number)) })])]
            let signed = try await call("signature.submit", ["flow": flow, "strokes": strokes])
            #expect(signed["result"]?["step"] == "passcode")
            let done = try await call("passcode.set", ["flow": flow, "passcode": "86420931"])
            #expect(done["result"]?["step"] == "done")
            let held = try #require(await core.flows[flow.stringValue ?? ""])
            #expect(Self.dumped(held).contains(family), "the running flow holds the name (else the check below proves nothing)")
            return flow
        }

        func expectWiped(_ flow: RPCValue, step: String, sourceLocation: SourceLocation = #_sourceLocation) async throws {
            let reply = try await call("flow.get", ["flow": flow])
            #expect(reply["result"]?["step"] == .string(step), sourceLocation: sourceLocation)
            let entry = try #require(await core.flows[flow.stringValue ?? ""], sourceLocation: sourceLocation)
            let held = Self.dumped(entry)
            for needle in needles {
                #expect(!reply.jsonText.contains(needle), "flow.get returns \(needle)", sourceLocation: sourceLocation)
                #expect(!held.contains(needle), "the ended flow still holds \(needle)", sourceLocation: sourceLocation)
            }
            #expect(!held.contains("PasscodeHash"), sourceLocation: sourceLocation)
        }

        static func dumped(_ value: some Any) -> String {
            var text = ""
            dump(value, to: &text, maxDepth: 64)
            return text
        }
    }

    @Test func cancelledFlowKeepsNothing() async throws {
        let d = try await Driver()
        let flow = try await d.signedFlow()
        #expect(try await d.call("flow.cancel", ["flow": flow])["result"]?["step"] == "cancelled")
        try await d.expectWiped(flow, step: "cancelled")
        await d.end()
    }

    @Test func declinedFlowKeepsNothing() async throws {
        let d = try await Driver()
        let flow = try await d.signedFlow()
        #expect(try await d.call("flow.decline", ["flow": flow])["result"]?["step"] == "declined")
        try await d.expectWiped(flow, step: "declined")
        await d.end()
    }

    @Test func expiredFlowKeepsNothing() async throws {
        let d = try await Driver()
        let flow = try await d.signedFlow()
        d.clock.advance(by: .seconds(3600))
        await d.core.expireIdleFlows()
        try await d.expectWiped(flow, step: "expired")
        await d.end()
    }

    @Test func completedFlowKeepsNothing() async throws {
        let d = try await Driver()
        let flow = try await d.signedFlow()
        let completed = try await d.call(
            "flow.complete", ["flow": flow, "patient": ["resourceType": "Patient", "birthDate": "1931-07-04"]])
        #expect(completed["result"]?["step"] == "completed")
        try await d.expectWiped(flow, step: "completed")
        let held = Driver.dumped(try #require(await d.core.flows[flow.stringValue ?? ""]))
        #expect(!held.contains("1931-07-04"))
        await d.end()
    }

    @Test func ineligibleFlowKeepsNoAnswers() async throws {
        let d = try await Driver()
        let flow = try #require(try await d.call("flow.start")["result"]?["flow"])
        #expect(try await d.call("eligibility.answer", ["flow": flow, "answers": [false]])["result"]?["step"] == "ineligible")
        let entry = try #require(await d.core.flows[flow.stringValue ?? ""])
        #expect(entry.session.answers.allSatisfy { $0 == nil })
        await d.end()
    }
}
