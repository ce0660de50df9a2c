import ConsentCore

/// One flow as the agent holds it: the session (ConsentCore's state machine) and what the agent keeps beside it.
/// Whether the flow is being completed is not here: `FlowTable` alone says that (`FlowTable.isCompleting`).
struct FlowEntry {
    var session: ConsentSession
    var recordID: String?
    /// Where the flow stood after its last accepted action (the audit trail's "ended at").
    var mark: FlowMark
    /// The connection that started the flow: the only one that sees the eligibility answers (`FlowVisibility`).
    var driver: UInt64?
    /// The participant's copy, once the record is written and a printer is set (PHI: dropped with the flow).
    var copy: ParticipantCopy?
    /// The inactivity deadline `flow.expiring` was sent for (`FlowTable.warnExpiring`), so it is sent once per
    /// deadline.
    var warnedDeadline: Duration?
    /// A paused flow's code and its day (`flow.pause`): its view shows them until the flow is forgotten.
    var pause: PauseTicket?

    init(session: ConsentSession, driver: UInt64? = nil) {
        self.session = session
        self.mark = FlowMark(session)
        self.driver = driver
    }
}
