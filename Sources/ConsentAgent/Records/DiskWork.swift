import NIOPosix

/// Blocking work the agent hands to a thread pool and awaits, so that other requests are served meanwhile and a
/// slow disk holds up only the request that needs it: verifying a record and listing the records (withdrawal,
/// re-consent, `records.get`), reading the upload queue, composing, signing and writing a record and its
/// completion journal, and stamping the participant's copy. (Audit lines are written, in order, by the `Outbox`;
/// the slow hashes of staff PINs and withdrawal passcodes, the staff file and the staff lock-out's file are
/// `HashWork`'s, so guessing never holds up a record.)
///
/// The actor must not assume anything it read before the `await` still holds after it: a handler that awaits here
/// checks the flow again, or has marked it as busy first (`FlowTable.beginCompleting`).
struct DiskWork: Sendable {
    let pool: NIOThreadPool

    /// Runs `body` on the pool; what it throws is thrown here as it was.
    func run<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
        try await pool.runIfActive(body)
    }
}
