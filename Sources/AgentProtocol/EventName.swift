/// The server notifications. Raw values are the wire names of Protocol/README.md.
public enum EventName: String, Sendable, Hashable, CaseIterable {
    /// The greeting, sent once on connect; it has no `seq` (it is not an event of the stream).
    case hello = "hello"
    case flowChanged = "flow.changed"
    case flowCompleted = "flow.completed"
    case flowDeclined = "flow.declined"
    case flowExpired = "flow.expired"
    /// A running flow expires soon unless the participant acts or asks for more time (`flow.extend`).
    case flowExpiring = "flow.expiring"
    /// A member of staff was called for a flow (`staff.call`, or the comprehension check stopping).
    case staffCalled = "staff.called"
    /// The call was answered (`staff.answer`).
    case staffAnswered = "staff.answered"
    case inkPoints = "ink.points"
    case inkStrokeEnded = "ink.strokeEnded"
    case padAdded = "pad.added"
    case padRemoved = "pad.removed"
    case eventsOverflow = "events.overflow"
    /// The agent is stopping: the last message of every connection, sent after the replies of records being
    /// written, just before the agent closes it.
    case agentStopping = "agent.stopping"

    /// The subscription topic that carries the event; nil for `hello`, `events.overflow` and `agent.stopping`,
    /// which every client receives (`agent.stopping` even before negotiation).
    public var topic: Topic? {
        switch self {
        case .hello, .eventsOverflow, .agentStopping: return nil
        case .flowChanged, .flowCompleted, .flowDeclined, .flowExpired, .flowExpiring, .staffCalled, .staffAnswered:
            return .flow
        case .inkPoints, .inkStrokeEnded: return .ink
        case .padAdded, .padRemoved: return .pad
        }
    }
}
