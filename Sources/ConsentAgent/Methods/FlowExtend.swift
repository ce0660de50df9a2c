import AgentProtocol
import ConsentCore

extension FlowContext {
    /// `flow.extend`: "I need more time" (after `flow.expiring`, or whenever the participant wants it): the
    /// inactivity clock starts again, nothing else changes, so no `flow.changed` follows. A flow that expired
    /// before the request came is `FlowExpired`, as for any action.
    func extendFlow(_ params: FlowParams) throws -> RPCValue {
        let id = params.flow, instant = now()
        let entry = try change { $0.extend(id, now: instant) }.get()
        return flowValue(id, entry)
    }
}
