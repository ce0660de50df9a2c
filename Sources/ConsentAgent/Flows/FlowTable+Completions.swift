import AgentProtocol
import ConsentCore

/// The one in-memory record of what `flow.complete` is doing: which flows are being completed (nothing else may
/// touch them meanwhile), which records they withdraw (a second withdrawal of the same record cannot race the
/// first), and how many requests are in hand for a graceful stop (`CompletionDrain`). The completion journal on
/// disk (`CompletionJournal`) is the crash-recovery copy of the same, read only at the next start.
extension FlowTable {
    /// A flow whose record is being written.
    struct Completing {
        /// The record the flow withdraws, once its withdrawal is claimed (`claimWithdrawal`); nil for a consent.
        var withdraws: String?
    }

    /// Whether the flow's record is being written.
    func isCompleting(_ id: String) -> Bool { completing[id] != nil }

    /// Whether a running completion withdraws `record`.
    func isWithdrawing(_ record: String) -> Bool { completing.values.contains { $0.withdraws == record } }

    /// Set once the agent stops: `flow.start` and `flow.complete` are refused from then on.
    var isStopping: Bool { drain.isStopping }

    /// How many `flow.complete` requests are in hand (from the moment one reaches the core until its reply is
    /// handed to the connection).
    var completionsInHand: Int { drain.inFlight }

    // MARK: A completion's steps

    /// The flow's record is about to be written: from now on nothing else may act on it (`FlowBusy`), and it does
    /// not expire.
    mutating func beginCompleting(_ id: String) throws {
        _ = try ready(id)
        completing[id] = Completing()
    }

    /// The completing flow withdraws `record`: until it ends, the record counts as withdrawn (`isWithdrawing`).
    mutating func claimWithdrawal(of record: String, by id: String) {
        completing[id]?.withdraws = record
    }

    /// The completion kept no record (refused or failed): the flow is as it was, to retry.
    mutating func abandonCompleting(_ id: String) {
        completing[id] = nil
    }

    /// The completion kept its record: the flow, now completed, ends (and a withdrawal it claimed is on disk).
    mutating func finishCompleting(_ id: String, _ entry: FlowEntry) -> [FlowAction] {
        if completing[id]?.withdraws != nil { withdrawalsKept += 1 }
        completing[id] = nil
        return end(id, entry)
    }

    // MARK: Requests in hand, for a graceful stop

    /// Refuses new flows and completions from now on.
    mutating func stop() { drain.stop() }

    /// A `flow.complete` request reached the core.
    mutating func completionRequestArrived() { drain.begin() }

    /// A `flow.complete` request was answered (written, refused or failed).
    mutating func completionRequestAnswered() -> [FlowAction] {
        let waiters = drain.end()
        return waiters.isEmpty ? [] : [.resume(waiters)]
    }

    /// A number for a stop about to wait for the requests in hand, so its timeout can take out that one alone.
    mutating func newDrainWaiter() -> UInt64 { drain.newWaiter() }

    mutating func parkDrainWaiter(_ waiter: UInt64, _ continuation: CheckedContinuation<Void, Never>) {
        drain.park(waiter, continuation)
    }

    /// The waiter's timeout passed: it is resumed at once (nil when it was resumed already).
    mutating func releaseDrainWaiter(_ waiter: UInt64) -> [FlowAction] {
        drain.release(waiter).map { [.resume([$0])] } ?? []
    }
}
