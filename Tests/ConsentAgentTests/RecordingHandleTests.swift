import AgentProtocol
import ConsentCore
import Foundation
import NIOConcurrencyHelpers
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
}
