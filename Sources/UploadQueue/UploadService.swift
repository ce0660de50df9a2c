import Foundation
import NIOConcurrencyHelpers

/// Delivers completed records, in order, to the configured FHIR endpoint: C3-PRO's `DataQueue` behaviour
/// with retry, backoff and restart survival.
///
/// The agent calls `enqueue(recordID:recordDirectory:)` once a record is durable, and runs `run()` for its
/// lifetime. State lives in `QueueStore` on disk, so a new service over the same state directory resumes where
/// the last one stopped, backoff included. Only one process delivers a queue at a time (`flock` on
/// `<state>/queue/.lock`).
///
/// Time is injected: `clock` is what the loop sleeps on, `now` gives the wall time persisted in entries (which
/// must survive a restart, so it cannot be a clock instant), and `random` drives the jitter.
public final class UploadService: Sendable {
    public let store: QueueStore
    /// The sealed Bundles of records encrypted at rest, waiting for delivery.
    public let payloads: UploadPayloadStore
    private let configuration: UploadConfiguration
    private let transport: any HTTPTransport
    private let clock: any Clock<Duration>
    private let now: @Sendable () -> Date
    private let random: @Sendable () -> Double
    private let onEvent: @Sendable (UploadEvent) -> Void
    private let request: DeliveryRequest
    private let policy: DeliveryPolicy
    private let wake = WakeSignal()
    /// Serialises this process's changes to the queue directory (enqueue against the loop's saves and removals).
    private let writeLock = NIOLockedValueBox(())

    /// Prepares `<stateDirectory>/queue` and loads the receiver's public key (encrypted mode), so a bad
    /// configuration fails when the agent starts, not at the first upload.
    ///
    /// - Parameters:
    ///   - transport: the HTTP client; `AsyncHTTPClientTransport` when nil.
    ///   - onEvent: called for each delivery, failure and halt (for the agent's log).
    /// - Throws: `.invalidConfiguration`, `.publicKeyUnreadable`, `.invalidPublicKey`, `.queueUnavailable`.
    public init(
        stateDirectory: URL, configuration: UploadConfiguration, transport: (any HTTPTransport)? = nil,
        clock: any Clock<Duration> = ContinuousClock(), now: @escaping @Sendable () -> Date = { Date() },
        random: @escaping @Sendable () -> Double = { Double.random(in: 0..<1) },
        onEvent: @escaping @Sendable (UploadEvent) -> Void = { _ in }
    ) throws {
        try configuration.validate()
        var publicKeyDER: Data?
        if case .encrypted(let encrypted) = configuration.destination {
            publicKeyDER = try RSAPublicKeyFile.load(path: encrypted.publicKeyFile)
        }
        self.store = QueueStore(stateDirectory: stateDirectory)
        self.payloads = UploadPayloadStore(stateDirectory: stateDirectory)
        self.configuration = configuration
        self.transport = transport ?? AsyncHTTPClientTransport()
        self.clock = clock
        self.now = now
        self.random = random
        self.onEvent = onEvent
        self.request = DeliveryRequest(
            destination: configuration.destination, publicKeyDER: publicKeyDER, timeout: configuration.requestTimeout,
            payloads: payloads)
        self.policy = DeliveryPolicy(backoff: configuration.backoff)
        try store.prepare()
    }

    /// Queues a record for upload, durably (the entry file and its directory are fsync'd before this returns),
    /// and wakes the delivery loop. Enqueuing a record that is queued already returns its entry. A record with a
    /// sealed payload (`payloads.store`, for records encrypted at rest) is delivered from it.
    ///
    /// - Parameters:
    ///   - recordID: the record's id (its directory name); it names the entry file.
    ///   - recordDirectory: the record directory holding `bundle.json`, read at send time.
    /// - Throws: `.invalidRecordID`, `.queueUnavailable`, `.entryCorrupt`.
    @discardableResult
    public func enqueue(recordID: String, recordDirectory: URL) throws -> QueueEntry {
        let entry = try writeLock.withLockedValue { _ in
            try store.append(
                recordID: recordID, recordDirectory: recordDirectory, target: configuration.target, now: now(),
                sealedPayload: payloads.hasPayload(of: recordID))
        }
        wake.signal()
        return entry
    }

    /// Deletes sealed payloads that no pending or parked entry needs: a crash between sealing a record's payload
    /// and writing the record leaves one. Call after queuing the records of interrupted completions.
    public func removeOrphanedPayloads() throws {
        let status = try store.status()
        let kept = Set((status.entries + status.parked).map(\.recordID))
        writeLock.withLockedValue { _ in payloads.removeOrphans(keeping: kept) }
    }

    /// The pending and parked entries, read from disk.
    public func status() throws -> QueueStatus {
        try store.status()
    }

    /// Re-arms the head (clears a halt, makes it due now) and wakes the loop: the agent's "retry now".
    public func retryNow() throws {
        _ = try writeLock.withLockedValue { _ in try store.rearm(now: now()) }
        wake.signal()
    }

    /// The delivery loop: runs until the task is cancelled. Delivers the head when it is due, sleeps on the
    /// injected clock until the next attempt, wakes early on `enqueue`, and waits for an operator while halted.
    /// Failures are reported through `onEvent` and in the entries, never thrown.
    public func run() async {
        guard let lock = await acquireLock() else { return }
        defer { QueueFileSystem.unlock(lock) }
        let recheck = configuration.haltedRecheckInterval
        while !Task.isCancelled {
            let head: QueueEntry?
            do {
                head = try store.entries().first
            } catch {
                report(error)
                await wake.wait(for: recheck, on: clock)
                continue
            }
            guard let head else {
                await wake.wait()
                continue
            }
            if head.isHalted {
                // Re-read now and then: `consentctl queue retry` or `park` changes the disk, not this process.
                await wake.wait(for: recheck, on: clock)
                continue
            }
            let due = head.nextAttemptAt.timeIntervalSince(now())
            if due > 0 {
                await wake.wait(for: .milliseconds(Int64((due * 1000).rounded(.up))), on: clock)
                continue
            }
            guard let action = await attempt(head) else { return }
            do {
                try apply(action, to: head)
            } catch {
                report(error)
                await wake.wait(for: recheck, on: clock)
            }
        }
    }

    /// Delivers now, in order, until the queue is empty or an attempt fails, ignoring backoff and halts: the
    /// operator's `consentctl queue flush`. Each failure is recorded in its entry as in `run()`.
    ///
    /// - Throws: `.queueBusy` when another process (consentd) is delivering this queue; queue I/O errors.
    public func flush() async throws -> FlushReport {
        guard let lock = try QueueFileSystem.tryLock(store.lockFile) else {
            throw UploadQueueError(
                .queueBusy, "another process (consentd) is delivering this queue; stop it, or use consentctl queue retry",
                file: store.lockFile.path)
        }
        defer { QueueFileSystem.unlock(lock) }
        var delivered: [String] = []
        while let head = try store.entries().first {
            guard let action = await attempt(head) else { throw CancellationError() }
            try apply(action, to: head)
            switch action {
            case .remove: delivered.append(head.recordID)
            case .retry(let entry), .halt(let entry): return FlushReport(delivered: delivered, stoppedAt: entry)
            }
        }
        return FlushReport(delivered: delivered, stoppedAt: nil)
    }

    /// One attempt at `entry`; nil when the task was cancelled meanwhile (then nothing is recorded: the entry is
    /// simply sent again later, as an interrupted attempt may or may not have reached the server).
    private func attempt(_ entry: QueueEntry) async -> DeliveryPolicy.Action? {
        let outcome: DeliveryOutcome
        do {
            let response = try await transport.send(try request.make(for: entry))
            outcome = DeliveryOutcome.classify(response, target: entry.target)
        } catch {
            outcome = DeliveryOutcome.classify(error)
        }
        if Task.isCancelled { return nil }
        return policy.action(after: outcome, for: entry, now: now(), random: random())
    }

    private func apply(_ action: DeliveryPolicy.Action, to head: QueueEntry) throws {
        try writeLock.withLockedValue { _ in
            switch action {
            case .remove:
                try store.remove(head)
                // After the entry: a crash in between leaves an orphan payload, removed at the next start.
                try payloads.remove(recordID: head.recordID)
            case .retry(let entry), .halt(let entry):
                // Parked by an operator during the attempt: leave it parked, do not recreate it here.
                guard try store.entries().contains(where: { $0.sequence == entry.sequence }) else { return }
                try store.save(entry)
            }
        }
        switch action {
        case .remove:
            onEvent(.delivered(recordID: head.recordID, failedAttempts: head.attempts))
        case .retry(let entry):
            if let error = entry.lastError {
                onEvent(.retryScheduled(recordID: entry.recordID, error: error, nextAttemptAt: entry.nextAttemptAt))
            }
        case .halt(let entry):
            if let error = entry.lastError { onEvent(.halted(recordID: entry.recordID, error: error)) }
        }
    }

    /// Takes the queue's lock, waiting (on the clock) while another process holds it; nil when cancelled.
    private func acquireLock() async -> Int32? {
        while !Task.isCancelled {
            do {
                if let fd = try QueueFileSystem.tryLock(store.lockFile) { return fd }
                report(UploadQueueError(.queueBusy, "another process is delivering this queue; waiting for it to finish", file: store.lockFile.path))
            } catch {
                report(error)
            }
            await wake.wait(for: configuration.haltedRecheckInterval, on: clock)
        }
        return nil
    }

    private func report(_ error: any Error) {
        onEvent(.queueError(
            error as? UploadQueueError ?? UploadQueueError(.queueUnavailable, "the queue failed; check the state directory", cause: error)))
    }
}
