import AgentProtocol
import ConsentCore

/// `flow.extend {flow}`.
struct FlowExtendParams {
    var flow: String

    init(_ params: [String: RPCValue]) throws {
        flow = try ParamsReader(params, allowed: ["flow"]).string("flow")
    }
}

extension FlowContext {
    /// `flow.extend`: "I need more time" (after `flow.expiring`, or whenever the participant wants it): the
    /// inactivity clock starts again, nothing else changes, so no `flow.changed` follows. A flow that expired
    /// before the request came is `FlowExpired`, as for any action.
    func extendFlow(_ params: FlowExtendParams) throws -> RPCValue {
        var entry = try runningEntry(params.flow)
        do {
            try entry.session.extend(now: now())
        } catch {
            if entry.session.step == .expired { perform(table.end(params.flow, entry)) }
            throw error
        }
        entry.warnedDeadline = nil
        table.store(params.flow, entry)
        logger.debug("flow extended", metadata: ["flow": "\(params.flow)"])
        return flowValue(params.flow, entry)
    }
}
