import AgentProtocol
import AuditTrail
import ConsentCore
import Foundation
import NIOConcurrencyHelpers
import Logging
import Testing

@testable import ConsentAgent

/// A recording `ConnectionHandle` (what FuzzProtocol drives the core through): the core's events and its reply
/// reach the recorder in order, before `handle` returns.
@Suite struct RecordingHandleTests {
    final class Recorder: Sendable {
        let deliveries = NIOLockedValueBox<[ConnectionHandle.Delivery]>([])
        func take() -> [ConnectionHandle.Delivery] { deliveries.withLockedValue { all in defer { all.removeAll() }; return all } }
    }

    @Test func eventsThenTheReplyArriveBeforeHandleReturns() async throws {
        let core = try TestSupport.core(clock: ManualClock(), state: try TestSupport.temporaryDirectory())
        let recorder = Recorder()
        let handle = ConnectionHandle(id: 7, recorder: { delivery in recorder.deliveries.withLockedValue { $0.append(delivery) } })

        await core.handle(
            RPCRequest(id: .integer(1), method: "events.subscribe", params: ["topics": ["flow"]]),
            method: .eventsSubscribe, from: handle)
        guard case .reply(.integer(1), .subscribed)? = recorder.take().first else {
            Issue.record("no subscribe reply")
            return
        }

        await core.handle(RPCRequest(id: .integer(2), method: "flow.start"), method: .flowStart, from: handle)
        let started = recorder.take()
        #expect(started.count == 2)
        guard case .event(let event)? = started.first, case .reply(.integer(2), .result(let result))? = started.last else {
            Issue.record("expected flow.changed, then the reply: \(started)")
            return
        }
        #expect(event.name == .flowChanged)
        #expect(result["step"] == "eligibility")
    }

    /// The outbox's order: a flow's end is in the audit log (fsync'd: it ends a flow) before its event leaves, and
    /// the reply leaves after the event, though the actor never waited for the log's disk.
    @Test func anEventLeavesAfterItsAuditLineAndBeforeItsReply() async throws {
        let state = try TestSupport.temporaryDirectory()
        let log = try AuditLog(stateDirectory: state, kiosk: try AuditIdentifier("test-kiosk"))
        defer { try? log.close() }
        let core = AgentCore(
            studies: [try TestSupport.sampleStudy()], settings: .init(stateDirectory: state), hub: EventHub(),
            recordMaker: nil, auditLog: log, logger: Logger(label: "test"), now: { ManualClock().now })
        let file = AuditLog.directory(stateDirectory: state).appendingPathComponent("audit.log")
        let recorder = Recorder()
        let auditedWhenAnnounced = NIOLockedValueBox<Bool?>(nil)
        let handle = ConnectionHandle(id: 7, recorder: { delivery in
            if case .event(let event) = delivery, event.name == .flowDeclined {
                let text = (try? String(contentsOf: file, encoding: .utf8)) ?? ""
                auditedWhenAnnounced.withLockedValue { $0 = text.contains("\"flow.declined\"") }
            }
            recorder.deliveries.withLockedValue { $0.append(delivery) }
        })
        await core.handle(
            RPCRequest(id: .integer(1), method: "events.subscribe", params: ["topics": ["flow"]]),
            method: .eventsSubscribe, from: handle)
        await core.handle(RPCRequest(id: .integer(2), method: "flow.start"), method: .flowStart, from: handle)
        guard case .reply(_, .result(let started))? = recorder.take().last, case .string(let flow)? = started["flow"] else {
            Issue.record("flow.start did not answer")
            return
        }
        await core.handle(
            RPCRequest(id: .integer(3), method: "flow.decline", params: ["flow": .string(flow)]), method: .flowDecline,
            from: handle)
        let names = recorder.take().map { delivery -> String in
            switch delivery {
            case .event(let event): return event.name.rawValue
            case .reply(let id, _): return "reply \(id)"
            }
        }
        #expect(names == ["flow.declined", "flow.changed", "reply 3"])
        #expect(auditedWhenAnnounced.withLockedValue { $0 } == true)
    }

    /// A connection that closed while its `events.subscribe` was still in the outbox is not added to the hub: it
    /// would otherwise stay there, with its handler, for the life of the agent.
    @Test func aClosedConnectionIsNotSubscribed() {
        let hub = EventHub()
        let open = ConnectionHandle(id: 1, recorder: { _ in })
        let closed = ConnectionHandle(id: 2, recorder: { _ in })
        closed.markClosed()
        hub.subscribe(open, topics: [.flow])
        hub.subscribe(closed, topics: [.flow])
        #expect(hub.subscriberCount == 1)
    }
}
