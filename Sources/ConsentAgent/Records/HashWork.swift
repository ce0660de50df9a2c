import NIOPosix

/// The deliberately slow hashes that check a secret (a staff PIN, a withdrawal passcode: PBKDF2 of 210,000 rounds
/// and more, a good part of a second each), on a pool of their own with one thread.
///
/// Never on the disk pool (`DiskWork`), which composes and writes the records: there a burst of guesses (every try
/// a full PBKDF2) stood in line before other flows' `flow.complete` and made it wait seconds. Here they wait only
/// for each other, one at a time, so guessing never takes more than one core from the rest of the kiosk; how many
/// can wait is bounded by the counts before each hash (`AttemptLimiter`).
struct HashWork: Sendable {
    let pool: NIOThreadPool

    /// The agent's pool: one thread, started on first use and kept for the process's life (as
    /// `NIOThreadPool.singleton` is).
    static let shared: NIOThreadPool = {
        let pool = NIOThreadPool(numberOfThreads: 1)
        pool.start()
        return pool
    }()

    /// Runs `body` on the pool; what it throws is thrown here as it was.
    func run<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
        try await pool.runIfActive(body)
    }
}
