import AgentProtocol
import ConsentCore

/// `flow.extend {flow}`.
struct FlowExtendParams {
    var flow: String

    init(_ params: [String: RPCValue]) throws {
        flow = try ParamsReader(params, allowed: ["flow"]).string("flow")
    }
}

extension AgentCore {
    /// `flow.extend`: "I need more time" (after `flow.expiring`, or whenever the participant wants it): the
    /// inactivity clock starts again, nothing else changes, so no `flow.changed` follows. A flow that expired
    /// before the request came is `FlowExpired`, as for any action.
    func extendFlow(_ params: FlowExtendParams) throws -> RPCValue {
        var entry = try runningEntry(params.flow)
        do {
            try entry.session.extend(now: now())
        } catch {
            if entry.session.step == .expired {
                flows[params.flow] = entry
                flowEnded(params.flow, entry)
            }
            throw error
        }
        entry.warnedDeadline = nil
        flows[params.flow] = entry
        logger.debug("flow extended", metadata: ["flow": "\(params.flow)"])
        return flowValue(params.flow, entry)
    }

    /// Warns the UIs of every running flow whose inactivity deadline is within the warning time (`flow.expiring`,
    /// once per deadline: an action or `flow.extend` moves the deadline, and the next approach warns again).
    func warnExpiringFlows(at instant: Duration) {
        guard let warning = settings.inactivityWarning, warning > .zero else { return }
        for (id, entry) in flows where !entry.session.step.isFinished && !entry.isCompleting {
            let deadline = entry.session.deadline
            guard deadline - instant <= warning, deadline > instant, entry.warnedDeadline != deadline else { continue }
            flows[id]?.warnedDeadline = deadline
            let left = Self.secondsLeft(until: deadline, from: instant)
            hub.publish(AgentEvent(
                .flowExpiring, data: ["flow": .string(id), "secondsLeft": .integer(Int64(left))], clock: eventClock))
        }
    }
}
