import AgentProtocol
import ConsentCore
import Foundation
import Logging
import NIOCore
import NIOEmbedded
import Testing

@testable import ConsentAgent

/// The pad seam end to end, with a fake provider: ink reaches subscribers as `ink.points`, and a submit without
/// strokes takes the pad's strokes into the record.
@Suite struct PadSeamTests {
    @Test func padInkIsStreamedAndEndsInTheRecord() async throws {
        let state = try TestSupport.temporaryDirectory()
        let pads = FakePadProvider()
        let clock = ManualClock()
        let core = AgentCore(
            studies: [try TestSupport.sampleStudy()], settings: .init(stateDirectory: state), hub: EventHub(),
            recordMaker: try TestSupport.recordMaker(state: state), pads: pads, logger: Logger(label: "test"),
            now: { clock.now })
        let channel = try await TestSupport.channel(core: core)
        var events: [RPCValue] = []
        var nextID: Int64 = 0
        func call(_ method: String, _ params: RPCValue = [:]) async throws -> RPCValue {
            nextID += 1
            let request: RPCValue = ["jsonrpc": "2.0", "id": .integer(nextID), "method": .string(method), "params": params]
            try await channel.send(request.jsonText)
            while true {
                let message = try await channel.nextMessage()
                if message["method"] != nil { events.append(message); continue }
                #expect(message["id"] == .integer(nextID))
                return message
            }
        }
        _ = try await channel.nextMessage()
        _ = try await call("session.negotiate", ["client": "t", "version": 1])
        let subscribed = try await call("events.subscribe", ["topics": ["ink", "pad"]])
        #expect(subscribed["result"]?["snapshot"]?["pads"]?.arrayValue?.first?["id"] == "fake:0")
        let flow = try #require(try await call("flow.start")["result"]?["flow"])
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
        _ = try await call("participant.setName", ["flow": flow, "given": "Grace", "family": "Hopper"])

        let begun = try await call("signature.begin", ["flow": flow])
        #expect(begun["result"]?["pad"]?["id"] == "fake:0")
        let submitted = try await call("signature.submit", ["flow": flow])
        #expect(submitted["result"]?["step"] == "done")
        // Ink travels pad → hub without the core, so it may trail the replies a little.
        func inkPoints() -> Int {
            events.filter { $0["method"] == "ink.points" }.compactMap { $0["params"]?["data"]?["points"]?.arrayValue?.count }.reduce(0, +)
        }
        for _ in 0..<100 where inkPoints() < 12 || !events.contains(where: { $0["method"] == "ink.strokeEnded" }) {
            try await Task.sleep(for: .milliseconds(10))
            _ = try await call("session.sync")
        }
        let ink = events.filter { $0["method"] == "ink.points" }
        #expect(ink.compactMap { $0["params"]?["data"]?["points"]?.arrayValue?.count }.reduce(0, +) == 12)
        #expect(ink.first?["params"]?["data"]?["flow"] == flow)
        #expect(events.contains { $0["method"] == "ink.strokeEnded" })

        let completed = try await call("flow.complete", ["flow": flow])
        let directory = try #require(completed["result"]?["directory"]?.stringValue)
        let saved = try JSONDecoder().decode(
            SignatureStrokes.self, from: Data(contentsOf: URL(fileURLWithPath: directory + "/signature.json")))
        #expect(saved.strokes == [FakePadProvider.points])
        #expect(saved.device?["name"] == "Fake Pad")
        _ = try await channel.finish(acceptAlreadyClosed: true)
    }
}
