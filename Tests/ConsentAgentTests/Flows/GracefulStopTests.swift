import AgentProtocol
import ConsentCore
import Foundation
import Logging
import NIOConcurrencyHelpers
import NIOCore
import NIOEmbedded
import Testing

@testable import ConsentAgent

/// A record maker that holds every record until the test opens the gate: a slow (or stuck) disk.
final class GatedRecordMaker: RecordMaking {
    private let base: any RecordMaking
    private let state = NIOLockedValueBox<(isOpen: Bool, waiting: [CheckedContinuation<Void, Never>])>((false, []))

    init(base: any RecordMaking) {
        self.base = base
    }

    func open() {
        let waiting = state.withLockedValue { state in
            state.isOpen = true
            defer { state.waiting.removeAll() }
            return state.waiting
        }
        for waiter in waiting { waiter.resume() }
    }

    func makeRecord(for outcome: ConsentOutcome, study: Study, options: CompletionOptions) async throws -> RecordReceipt {
        await withCheckedContinuation { continuation in
            let isOpen = state.withLockedValue { state in
                if !state.isOpen { state.waiting.append(continuation) }
                return state.isOpen
            }
            if isOpen { continuation.resume() }
        }
        return try await base.makeRecord(for: outcome, study: study, options: options)
    }
}

/// SIGTERM's order on one connection: the reply of the record being written, then `agent.stopping`, then the close;
/// and the bound on waiting for records.
@Suite struct GracefulStopTests {
    @Test func theCompletionReplyPrecedesTheGoodbyeAndTheWaitIsBounded() async throws {
        let state = try TestSupport.temporaryDirectory()
        let maker = GatedRecordMaker(base: try TestSupport.recordMaker(state: state))
        let clock = ManualClock()
        let core = AgentCore(
            studies: [try TestSupport.sampleStudy()], settings: .init(stateDirectory: state), hub: EventHub(),
            recordMaker: maker, logger: Logger(label: "test"), now: { clock.now })
        let channel = try await TestSupport.channel(core: core, maximumLineBytes: 4096)
        var nextID: Int64 = 0
        func call(_ method: String, _ params: RPCValue = [:]) async throws -> RPCValue {
            nextID += 1
            let request: RPCValue = ["jsonrpc": "2.0", "id": .integer(nextID), "method": .string(method), "params": params]
            try await channel.send(request.jsonText)
            return try await channel.nextMessage()
        }
        _ = try await channel.nextMessage()
        _ = try await call("session.negotiate", ["client": "t", "version": 1])
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
        let points: [RPCValue] = (0..<12).map { i in
            [.number(0.1 + Double(i) * 0.05), .number(i % 2 == 0 ? 0.6 : 0.4), .number(Double(i) * 8), .number(0.5)]
        }
        let signed = try await call("signature.submit", ["flow": flow, "strokes": ["strokes": [.array(points)]]])
        #expect(signed["result"]?["step"] == "done", "\(signed)")

        // flow.complete waits at the gate: the record is being written when the stop begins.
        try await channel.send(#"{"jsonrpc":"2.0","id":"complete","method":"flow.complete","params":{"flow":\#(flow.jsonText)}}"#)
        // A request pipelined behind it is answered ShuttingDown, not dropped.
        try await channel.send(#"{"jsonrpc":"2.0","id":"late","method":"pads.list"}"#)
        // Bounded, so a flow.complete that never reaches the core fails the test instead of hanging it.
        for _ in 0..<2000 where await core.completions.inFlight == 0 { try await Task.sleep(for: .milliseconds(5)) }
        try #require(await core.completions.inFlight == 1, "flow.complete is writing")
        await core.beginShutdown()
        #expect(await core.waitForCompletions(timeout: .milliseconds(50)) == 1, "a stuck write does not hold the stop")
        try await channel.testingEventLoop.executeInContext {
            channel.pipeline.fireUserInboundEventTriggered(AgentStopping(unfinishedRecords: 0))
        }
        #expect(channel.isActive, "the connection waits for the reply it is owed")

        let drained = Task { await core.waitForCompletions(timeout: .seconds(30)) }
        maker.open()
        #expect(await drained.value == 0)
        let reply = try await channel.nextMessage()
        #expect(reply["id"] == "complete")
        #expect(reply["result"]?["step"] == "completed")
        let late = try await channel.nextMessage()
        #expect(late["id"] == "late")
        #expect(late["error"]?["data"]?["type"] == "ShuttingDown")
        let goodbye = try await channel.nextMessage()
        #expect(goodbye["method"] == "agent.stopping")
        #expect(goodbye["params"]?["data"]?["unfinishedRecords"] == 0)
        #expect(goodbye["params"]?["seq"] == 1, "an event of the stream, sent without a subscription")
        try await channel.closeFuture.get()
        let directory = try #require(reply["result"]?["directory"]?.stringValue)
        #expect(FileManager.default.fileExists(atPath: directory + "/manifest.sig"))
    }

    @Test func aConnectionNotYetNegotiatedAlsoGetsTheGoodbye() async throws {
        let core = try TestSupport.core(clock: ManualClock(), state: try TestSupport.temporaryDirectory())
        let channel = try await TestSupport.channel(core: core)
        _ = try await channel.nextMessage()
        #expect(await core.waitForCompletions(timeout: .seconds(1)) == 0)
        try await channel.testingEventLoop.executeInContext {
            channel.pipeline.fireUserInboundEventTriggered(AgentStopping(unfinishedRecords: 2))
        }
        let goodbye = try await channel.nextMessage()
        #expect(goodbye["method"] == "agent.stopping")
        #expect(goodbye["params"]?["data"]?["unfinishedRecords"] == 2)
        try await channel.closeFuture.get()
    }
}
