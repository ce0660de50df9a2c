import Foundation

/// What is pending, for `consentctl queue` and the agent's status: the entries in delivery order and the head's
/// state (only the head is ever attempted, so its last error is the queue's last error).
public struct QueueStatus: Sendable, Hashable, Codable {
    public var entries: [QueueEntry]
    /// Entries an operator set aside with `consentctl queue park`; never delivered, never deleted.
    public var parked: [QueueEntry]

    public init(entries: [QueueEntry], parked: [QueueEntry]) {
        self.entries = entries
        self.parked = parked
    }

    public var head: QueueEntry? { entries.first }
    public var lastError: QueueEntry.LastError? { head?.lastError }
    /// When the head is next attempted; nil when the queue is empty or halted.
    public var nextAttemptAt: Date? { head.flatMap { $0.isHalted ? nil : $0.nextAttemptAt } }
    public var isHalted: Bool { head?.isHalted ?? false }
}
