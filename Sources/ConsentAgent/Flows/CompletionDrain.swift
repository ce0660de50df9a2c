/// What a graceful stop needs to know of `flow.complete`: how many completions are running, whether new ones are
/// still taken, and who waits for the running ones to end.
///
/// A value the `CompletionLedger` holds, in the manner of swift-nio's state machines: it hands back the waiters to
/// resume rather than resuming them, so everything that runs on a change is visible at the call site (the table's
/// transitions return them as `FlowAction.resume`).
struct CompletionDrain {
    /// Completions counted from the moment the request reaches the core until its reply is handed to the connection.
    private(set) var inFlight = 0
    /// Set once the agent stops: `flow.start` and `flow.complete` are refused from then on.
    private(set) var isStopping = false
    private var waiters: [UInt64: CheckedContinuation<Void, Never>] = [:]
    private var lastWaiter: UInt64 = 0

    mutating func stop() { isStopping = true }

    mutating func begin() { inFlight += 1 }

    /// One completion ended (written, refused or failed).
    ///
    /// - Returns: the waiters to resume: all of them when it was the last one running, else none.
    mutating func end() -> [CheckedContinuation<Void, Never>] {
        precondition(inFlight > 0, "a completion ended that never began")
        inFlight -= 1
        guard inFlight == 0 else { return [] }
        defer { waiters.removeAll() }
        return Array(waiters.values)
    }

    /// A number for a waiter about to park, so its timeout can take out that waiter alone.
    mutating func newWaiter() -> UInt64 {
        lastWaiter += 1
        return lastWaiter
    }

    mutating func park(_ waiter: UInt64, _ continuation: CheckedContinuation<Void, Never>) {
        waiters[waiter] = continuation
    }

    /// Takes out one waiter (its timeout passed); nil when it was already resumed.
    mutating func release(_ waiter: UInt64) -> CheckedContinuation<Void, Never>? {
        waiters.removeValue(forKey: waiter)
    }
}
