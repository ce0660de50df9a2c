import Foundation

/// What the delivery loop did, for the agent's log (the queue itself does not log). No PHI: record ids,
/// codes and PHI-free messages only.
public enum UploadEvent: Sendable, Hashable {
    /// The server acknowledged the record; its entry was removed.
    case delivered(recordID: String, failedAttempts: Int)
    /// The attempt failed and will be retried at `nextAttemptAt`.
    case retryScheduled(recordID: String, error: QueueEntry.LastError, nextAttemptAt: Date)
    /// A permanent failure: the queue stops at this record until an operator acts.
    case halted(recordID: String, error: QueueEntry.LastError)
    /// The queue itself cannot be used (unreadable entry, disk, lock); the loop tries again later.
    case queueError(UploadQueueError)
}

/// What `UploadService.flush()` did.
public struct FlushReport: Sendable, Hashable {
    /// The records acknowledged, in order.
    public var delivered: [String]
    /// The entry the flush stopped at, with its new error; nil when the queue is empty.
    public var stoppedAt: QueueEntry?
}
