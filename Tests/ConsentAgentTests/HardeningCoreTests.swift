import AgentProtocol
import ConsentCore
import Foundation
import Logging
import NIOConcurrencyHelpers
import Testing

@testable import ConsentAgent

/// On the core: the completion journal outlives the reply, and the bounds on flows.
@Suite struct HardeningCoreTests {
    /// Drives a core through recording handles, one per connection id.
    final class Driver: Sendable {
        let core: AgentCore
        let clock: ManualClock
        let state: URL
        private let nextID = NIOLockedValueBox<Int64>(0)

        init(
            settings: (URL) -> AgentCore.Settings = { .init(stateDirectory: $0) }, journaled: Bool = false,
            keptBeforeRestart: [String: String] = [:], state: URL? = nil
        ) throws {
            let state = try state ?? TestSupport.temporaryDirectory()
            let clock = ManualClock()
            var maker: any RecordMaking = try TestSupport.recordMaker(state: state)
            if journaled { maker = JournaledRecordMaker(base: maker, stateDirectory: state) }
            self.state = state
            self.clock = clock
            core = AgentCore(
                studies: [try TestSupport.sampleStudy()], settings: settings(state), hub: EventHub(), recordMaker: maker,
                logger: Logger(label: "test"), now: { clock.now }, keptBeforeRestart: keptBeforeRestart)
        }

        /// One request from `connection`; `onReply` runs at the instant the core hands the reply over.
        func call(
            _ method: String, _ params: [String: RPCValue] = [:], connection: UInt64 = 1,
            capabilities: Set<Capability> = Set(Capability.allCases), onReply: @escaping @Sendable () -> Void = {}
        ) async throws -> Result<RPCValue, RPCErrorObject> {
            let reply = NIOLockedValueBox<DispatchOutcome?>(nil)
            let handle = ConnectionHandle(id: connection) { delivery in
                guard case .reply(_, let outcome) = delivery else { return }
                onReply()
                reply.withLockedValue { $0 = outcome }
            }
            handle.negotiated(client: "test", capabilities: capabilities)
            let id = nextID.withLockedValue { $0 += 1; return $0 }
            let parsed = try #require(Method(rawValue: method))
            await core.handle(RPCRequest(id: .integer(id), method: method, params: params), method: parsed, from: handle)
            switch reply.withLockedValue({ $0 }) {
            case .result(let value)?: return .success(value)
            case .subscribed(let snapshot)?: return .success(snapshot)
            case .synced?: return .success([:])
            case .error(let error)?: return .failure(error)
            case nil: throw CocoaError(.featureUnsupported)
            }
        }

        func start(connection: UInt64 = 1) async throws -> String {
            let started = try await call("flow.start", connection: connection).get()
            return try #require(started["flow"]?.stringValue)
        }

        /// A flow of the sample study on the review's name page, started by `connection`.
        func flowAtTheName(connection: UInt64 = 1) async throws -> String {
            let flow = try await start(connection: connection)
            let f = RPCValue.string(flow)
            func call(_ method: String, _ params: [String: RPCValue]) async throws -> RPCValue {
                try await self.call(method, params.merging(["flow": f]) { a, _ in a }, connection: connection).get()
            }
            _ = try await call("eligibility.answer", ["answers": [true, true, false, true]])
            var step = try await call("flow.next", ["step": "eligibility"])
            // The sample study begins with its key information.
            step = try await call("flow.next", ["step": "keyInformation"])
            while step["step"] == "visual" { step = try await call("flow.next", ["step": "visual"]) }
            _ = try await call("sharing.choose", ["shareWidely": true])
            _ = try await call("optional.answer", ["answers": ["future-research": true, "contact-other-studies": false]])
            _ = try await call("review.agree", [:])
            var page: RPCValue = [:]
            for answer in TestSupport.sampleComprehensionAnswers { page = try await call("comprehension.answer", answer) }
            #expect(page["view"]?["review"]?["page"] == "name")
            return flow
        }

        /// A flow of the sample study at `done`, with UI strokes.
        func doneFlow() async throws -> String {
            let flow = try await flowAtTheName()
            let f = RPCValue.string(flow)
            _ = try await call("participant.setName", ["flow": f, "given": "Ada", "family": "Lovelace"]).get()
            let points: [RPCValue] = (0..<12).map { i in
                .array([.number(0.1 + Double(i) * 0.05), .number(i % 2 == 0 ? 0.6 : 0.4), .number(Double(i) * 8), .number(0.5)])
            }
            let signed = try await call("signature.submit", ["flow": f, "strokes": ["strokes": .array([.array(points)])]]).get()
            #expect(signed["step"] == "done")
            return flow
        }

        func step(_ flow: String) async -> ConsentStep? { await core.flows[flow]?.session.step }
    }

    /// D3: a kill -9 at the instant the reply leaves finds the journal entry, so the restart reports the kept
    /// record (`flow.interrupted`, `record_kept`) and `flow.get` names it; once handed over, the entry is gone.
    @Test func theCompletionJournalOutlivesTheReply() async throws {
        let driver = try Driver(journaled: true)
        defer { try? FileManager.default.removeItem(at: driver.state) }
        let flow = try await driver.doneFlow()
        let killed = try TestSupport.temporaryDirectory().appendingPathComponent("state")
        let state = driver.state
        // "kill -9" exactly when the reply is handed to the connection: the state directory as it is then.
        let completed = try await driver.call("flow.complete", ["flow": .string(flow)]) {
            try? FileManager.default.copyItem(at: state, to: killed)
        }.get()
        let record = try #require(completed["record"]?.stringValue)
        let journal = state.appendingPathComponent("completing")
        #expect(((try? FileManager.default.contentsOfDirectory(atPath: journal.path)) ?? []).isEmpty, "ended after the reply")

        let report = CompletionRecovery.run(stateDirectory: killed)
        #expect(report.recordKept == [flow: record], "a stop at the reply reports the kept record")
        #expect(report.notCompleted.isEmpty)

        let restarted = try Driver(journaled: true, keptBeforeRestart: report.recordKept, state: killed)
        defer { try? FileManager.default.removeItem(at: killed.deletingLastPathComponent()) }
        guard case .failure(let error) = try await restarted.call("flow.get", ["flow": .string(flow)]) else {
            Issue.record("flow.get of a completed flow answered a result after the restart")
            return
        }
        #expect(error.type == .flowFinished)
        #expect(error.details["record"] == .string(record))
        let unknown = try await restarted.call("flow.get", ["flow": "f-00"])
        guard case .failure(let other) = unknown else { Issue.record("unknown flow found"); return }
        #expect(other.type == .unknownFlow)
    }

    /// D6: at most `maximumFlows` run; one more is `Overloaded` and changes nothing; the snapshot stays bounded.
    @Test func flowStartBeyondTheCapIsOverloaded() async throws {
        let driver = try Driver(settings: { .init(stateDirectory: $0, maximumFlows: 3) })
        defer { try? FileManager.default.removeItem(at: driver.state) }
        var flows: [String] = []
        for _ in 0..<3 { flows.append(try await driver.start()) }
        guard case .failure(let error) = try await driver.call("flow.start") else {
            Issue.record("a fourth flow started")
            return
        }
        #expect(error.type == .overloaded)
        #expect(await driver.core.flows.count == 3)
        let snapshot = try await driver.call("events.subscribe", ["topics": ["flow"]]).get()
        #expect(snapshot["flows"]?.arrayValue?.count == 3)
        // An ended flow frees its place.
        _ = try await driver.call("flow.cancel", ["flow": .string(flows[0])]).get()
        _ = try await driver.start()
    }

    /// D6: the flows of a closed connection expire after the grace, unless another connection acted on them.
    @Test func flowsOfAClosedConnectionExpireAfterTheGrace() async throws {
        let driver = try Driver(settings: {
            .init(stateDirectory: $0, closedConnectionGrace: .seconds(30), closedConnectionGraceBeforeTheName: .seconds(30))
        })
        defer { try? FileManager.default.removeItem(at: driver.state) }
        let alone = try await driver.start(connection: 5)
        let shared = try await driver.start(connection: 5)
        _ = try await driver.call("flow.get", ["flow": .string(shared)], connection: 6).get()
        await driver.core.connectionClosed(5)
        driver.clock.advance(by: .seconds(29))
        await driver.core.expireIdleFlows()
        #expect(await driver.step(alone) == .eligibility, "within the grace")
        driver.clock.advance(by: .seconds(1))
        await driver.core.expireIdleFlows()
        #expect(await driver.step(alone) == .expired)
        #expect(await driver.step(shared) == .eligibility, "another connection still has it")
        await driver.core.connectionClosed(6)
        driver.clock.advance(by: .seconds(30))
        await driver.core.expireIdleFlows()
        #expect(await driver.step(shared) == .expired)
    }

    /// D6: a UI that reconnects within the grace and acts on its flow keeps it.
    @Test func aReconnectingUIKeepsItsFlow() async throws {
        let driver = try Driver(settings: {
            .init(stateDirectory: $0, closedConnectionGrace: .seconds(30), closedConnectionGraceBeforeTheName: .seconds(30))
        })
        defer { try? FileManager.default.removeItem(at: driver.state) }
        let flow = try await driver.start(connection: 1)
        await driver.core.connectionClosed(1)
        driver.clock.advance(by: .seconds(20))
        _ = try await driver.call("flow.get", ["flow": .string(flow)], connection: 2).get()
        driver.clock.advance(by: .seconds(40))
        await driver.core.expireIdleFlows()
        #expect(await driver.step(flow) == .eligibility)
    }

    /// 200 connections that each started a flow and went held every `maxFlows` slot for the whole grace (62 s). A
    /// flow whose connections closed before it reached the name now goes after the shorter grace (10 s by
    /// default); one past the name keeps the whole grace, for a UI that reconnects to it.
    @Test func flowsBeforeTheNameOfAClosedConnectionGoSooner() async throws {
        let driver = try Driver(settings: { .init(stateDirectory: $0, maximumFlows: 3) })
        defer { try? FileManager.default.removeItem(at: driver.state) }
        let named = try await driver.flowAtTheName(connection: 1)
        let early = try await driver.start(connection: 1)
        let later = try await driver.start(connection: 2)
        _ = try await driver.call("eligibility.answer", ["flow": .string(later), "answers": [true, true, false, true]], connection: 2).get()
        #expect(try await driver.call("flow.next", ["flow": .string(later), "step": "eligibility"], connection: 2).get()["step"] == "keyInformation")
        guard case .failure(let full) = try await driver.call("flow.start", connection: 3) else {
            Issue.record("a fourth flow started beyond maxFlows 3")
            return
        }
        #expect(full.type == .overloaded, "every slot is taken")
        await driver.core.connectionClosed(1)
        await driver.core.connectionClosed(2)
        driver.clock.advance(by: .seconds(9))
        await driver.core.expireIdleFlows()
        #expect(await driver.step(early) == .eligibility, "within the shorter grace")
        driver.clock.advance(by: .seconds(1))
        await driver.core.expireIdleFlows()
        #expect(await driver.step(early) == .expired)
        #expect(await driver.step(later) == .expired)
        #expect(await driver.step(named) == .reviewStep, "past the name: the whole grace")
        #expect((try? await driver.call("flow.start", connection: 3).get()) != nil, "a slot is free again")
        driver.clock.advance(by: .seconds(50))
        await driver.core.expireIdleFlows()
        #expect(await driver.step(named) == .expired)
    }

    /// The shorter grace never makes a flow before the name outlive one past it.
    @Test func theGraceBeforeTheNameIsAtMostTheGrace() async throws {
        let driver = try Driver(settings: {
            .init(stateDirectory: $0, closedConnectionGrace: .seconds(5), closedConnectionGraceBeforeTheName: .seconds(30))
        })
        defer { try? FileManager.default.removeItem(at: driver.state) }
        let flow = try await driver.start(connection: 1)
        await driver.core.connectionClosed(1)
        driver.clock.advance(by: .seconds(5))
        await driver.core.expireIdleFlows()
        #expect(await driver.step(flow) == .expired)
    }
}
