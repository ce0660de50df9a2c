/// A member of staff called to the kiosk for a flow: by the participant ("Ask a staff member", `askStaff`), or by
/// the comprehension check when it stops. It stays open until a member of staff answers it (`answerStaff`) or the
/// flow ends; meanwhile the flow does not expire for inactivity, so a participant who waits is never wiped.
public struct StaffCall: Sendable, Hashable {
    public enum Reason: String, Sendable, Hashable {
        /// The participant asked (`staff.call`).
        case participant
        /// The comprehension check stopped after its last missed attempt (`onRepeatedMiss: stop`).
        case comprehensionStopped
    }

    /// The monotonic instant of the call.
    public var since: Duration
    public var reason: Reason

    public init(since: Duration, reason: Reason) {
        self.since = since
        self.reason = reason
    }
}

extension ConsentSession {
    /// Whether the participant's screen offers to call a member of staff here: every screen of a running flow but
    /// the staff step's own, where a member of staff already is.
    public var offersStaffCall: Bool {
        switch position {
        case .staff, .completed, .ineligible, .declined, .expired, .cancelled, .paused: false
        default: true
        }
    }

    /// Calls a member of staff (`staff.call`). A call already open stays as it is.
    ///
    /// - Returns: whether this opened a call (false when one was open).
    /// - Throws: `.flowFinished` when the flow has ended or expired before the call came; `.invalidAction` on the
    ///   staff step.
    public mutating func callStaff(now: Duration) throws -> Bool {
        try requireRunning(now: now)
        guard offersStaffCall else {
            throw ConsentCoreError(.invalidAction, "a member of staff is already at the kiosk for the staff step")
        }
        guard staffCall == nil else { return false }
        staffCall = StaffCall(since: now, reason: .participant)
        return true
    }

    /// A member of staff came (`staff.answer`): the call is closed and the inactivity clock starts again from
    /// `now`, so the participant has the whole timeout to go on.
    ///
    /// - Returns: the call that was open, nil when none was (answering twice changes nothing).
    /// - Throws: `.flowFinished` when the flow has ended.
    public mutating func answerStaff(now: Duration) throws -> StaffCall? {
        guard !step.isFinished else {
            throw ConsentCoreError(.flowFinished, "the flow has ended (\(step.rawValue)); nobody is waiting")
        }
        guard let call = staffCall else { return nil }
        staffCall = nil
        restartInactivityClock(now: now)
        return call
    }
}
