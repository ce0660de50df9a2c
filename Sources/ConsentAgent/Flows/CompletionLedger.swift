/// Whether a completion or a withdrawal runs: the one place the agent asks. Which flows are being completed
/// (nothing else may touch them meanwhile), which records they withdraw or amend (a second withdrawal or change of
/// the same record cannot race the first), how many withdrawals and changes were kept (a reader of the records on
/// disk compares the counts before and after its read), and how many `flow.complete` requests are in hand for a
/// graceful stop (`CompletionDrain`).
///
/// The `FlowTable` holds it and changes it in its completion transitions (`beginCompleting`, `claimWithdrawal`,
/// `abandonCompleting`, `recordKept`, …); everyone else reads it. The completion journal on disk
/// (`CompletionJournal`, written by the record-maker chain) is the crash-recovery copy of the same, read only at the
/// next start: nothing asks it while the agent runs.
struct CompletionLedger {
    /// A flow whose record is being written.
    private struct Completing {
        /// The record the flow withdraws, once its withdrawal is claimed; nil for a consent or re-consent.
        var withdraws: String?
        /// The record the flow changes the answers of, once its change is claimed.
        var amends: String?
    }

    private var completing: [String: Completing] = [:]
    private var drain = CompletionDrain()
    /// How many withdrawals this agent has kept: it moves when a withdrawal goes from claimed to on disk.
    private(set) var withdrawalsKept = 0
    /// How many changes of answers this agent has kept: it moves when a change goes from claimed to on disk.
    private(set) var amendmentsKept = 0

    // MARK: What runs

    /// Whether the flow's record is being written.
    func isCompleting(_ id: String) -> Bool { completing[id] != nil }

    /// Whether a running completion withdraws `record`.
    func isWithdrawing(_ record: String) -> Bool { completing.values.contains { $0.withdraws == record } }

    /// Whether a running completion changes `record`'s answers.
    func isAmending(_ record: String) -> Bool { completing.values.contains { $0.amends == record } }

    /// Set once the agent stops: `flow.start` and `flow.complete` are refused from then on.
    var isStopping: Bool { drain.isStopping }

    /// How many `flow.complete` requests are in hand (from the moment one reaches the core until its reply is
    /// handed to the connection).
    var inFlight: Int { drain.inFlight }

    // MARK: A completion's steps

    mutating func begin(_ id: String) {
        completing[id] = Completing()
    }

    mutating func claim(_ record: String, by id: String) {
        completing[id]?.withdraws = record
    }

    mutating func claimAmendment(_ record: String, by id: String) {
        completing[id]?.amends = record
    }

    mutating func abandon(_ id: String) {
        completing[id] = nil
    }

    /// The completion kept its record; returns the record it withdrew or changed the answers of (now on disk), if
    /// it claimed one.
    mutating func kept(_ id: String) -> (withdrew: String?, amended: String?) {
        let kept = completing.removeValue(forKey: id)
        if kept?.withdraws != nil { withdrawalsKept += 1 }
        if kept?.amends != nil { amendmentsKept += 1 }
        return (kept?.withdraws, kept?.amends)
    }

    // MARK: Requests in hand, for a graceful stop

    mutating func stop() { drain.stop() }

    mutating func requestArrived() { drain.begin() }

    mutating func requestAnswered() -> [CheckedContinuation<Void, Never>] { drain.end() }

    mutating func newWaiter() -> UInt64 { drain.newWaiter() }

    mutating func park(_ waiter: UInt64, _ continuation: CheckedContinuation<Void, Never>) {
        drain.park(waiter, continuation)
    }

    mutating func release(_ waiter: UInt64) -> CheckedContinuation<Void, Never>? { drain.release(waiter) }
}
