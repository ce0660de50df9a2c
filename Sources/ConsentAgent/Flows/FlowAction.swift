import ConsentCore
import Logging

/// What must follow a change of the `FlowTable`: the table decides, the actor (`AgentCore.perform`) carries it out.
/// The flows' audit lines leave only as these actions, in the order the table returns them.
///
/// Each case carries the flow as it stood when the table changed, so carrying it out never depends on what the
/// table forgot meanwhile (an ended flow may already be dropped for an older one).
enum FlowAction {
    /// A flow started: log it, audit it, and publish its first `flow.changed`.
    case started(String, FlowEntry)
    /// An action was accepted: audit it (from where the flow stood before it to where it stands now).
    case applied(ConsentAction, String, from: FlowMark, ConsentSession)
    /// Publish `flow.changed` for the flow.
    case changed(String, FlowEntry)
    /// The flow ended: log and audit it, publish its end event and `flow.changed`, cancel a pad capture for it.
    case ended(String, FlowEntry)
    /// The flow's record is durable: log it and audit it (the record written, the flow completed).
    case recordKept(String, FlowEntry, RecordReceipt)
    /// The flow's record withdraws `original`: audit the withdrawal (after `recordKept`, which names the new record).
    case withdrawalKept(String, ConsentSession, original: String)
    /// The flow's record changes `original`'s answers to the optional elements: audit the change (after `recordKept`).
    case amendmentKept(String, ConsentSession, original: String)
    /// A member of staff was called for the flow: audit it and publish `staff.called`.
    case staffCalled(String, FlowEntry)
    /// The call was answered after `waited`: audit it and publish `staff.answered`.
    case staffAnswered(String, FlowEntry, waited: Duration)
    /// Publish `flow.expiring`: the flow's inactivity deadline comes at `deadline` (the time is `instant`).
    case expiring(String, deadline: Duration, instant: Duration)
    /// The last `flow.complete` in hand ended: a graceful stop waiting for it goes on.
    case resume([CheckedContinuation<Void, Never>])
    /// A log line (ids and steps only: never PHI).
    case log(Logger.Level, Logger.Message, Logger.Metadata)
}

/// What a transition of the `FlowTable` hands back that is more than actions: its answer (the flow after it, a
/// waiter's number, or why it was refused) and what must follow either way. `FlowContext.change` carries out the
/// actions, then returns the answer.
struct FlowChange<Value> {
    var value: Value
    var actions: [FlowAction]

    init(_ value: Value, _ actions: [FlowAction] = []) {
        self.value = value
        self.actions = actions
    }
}
