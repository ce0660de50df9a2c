import Foundation

/// What happens to the head entry after an attempt (pure: the service only carries the action out).
///
/// Strict order, as C3's DataQueue: only the head is ever attempted, and the entry file is removed only on
/// `.remove`, which only an acknowledgement yields. A permanent failure halts the queue at the head rather than
/// skip it (see docs/UPLOAD.md, "Why a refused record stops the queue").
struct DeliveryPolicy: Sendable {
    enum Action: Sendable, Hashable {
        /// Acknowledged: delete the entry file.
        case remove
        /// Save the entry; try again at `entry.nextAttemptAt`.
        case retry(QueueEntry)
        /// Save the entry, halted; the queue waits for an operator.
        case halt(QueueEntry)
    }

    var backoff: Backoff

    /// - Parameter random: 0..<1, for the jitter.
    func action(after outcome: DeliveryOutcome, for entry: QueueEntry, now: Date, random: Double) -> Action {
        var entry = entry
        switch outcome {
        case .acknowledged:
            return .remove
        case .retry(let error, let status, let retryAfter):
            entry.attempts += 1
            var delay = backoff.delay(afterAttempts: entry.attempts, random: random)
            // A server that says when to come back is believed, up to the cap.
            if let retryAfter { delay = min(max(delay, retryAfter), backoff.maximum) }
            entry.nextAttemptAt = now.addingTimeInterval(delay.seconds)
            entry.lastError = .init(code: error.code.description, message: error.message, httpStatus: status, at: now)
            entry.isHalted = false
            return .retry(entry)
        case .permanent(let error, let status):
            entry.attempts += 1
            entry.lastError = .init(code: error.code.description, message: error.message, httpStatus: status, at: now)
            entry.isHalted = true
            return .halt(entry)
        }
    }
}
