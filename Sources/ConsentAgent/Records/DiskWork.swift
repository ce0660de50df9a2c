import NIOPosix

/// Blocking disk work the actor hands to a thread pool and awaits (verifying a record, reading the upload queue),
/// so that other requests are served meanwhile and a slow disk holds up only the request that reads it.
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
