/// An error of the audit trail: a log that cannot be opened, written, flushed or read.
///
/// Shaped like `ConsentCoreError`: an opaque `Code` that can grow without breaking callers, a one-sentence message
/// that states the fault and the remedy, and the file it concerns. Equality uses the code only. Messages never
/// contain PHI; the log holds none, and errors only ever name files, counts and identifiers.
public struct AuditTrailError: Error, Sendable, Hashable, CustomStringConvertible {
    public struct Code: Sendable, Hashable, CustomStringConvertible {
        private enum Base: String, Sendable, Hashable {
            case invalidIdentifier, invalidDigest, reservedEvent
            case openFailed, locked, writeFailed, syncFailed, readFailed, corruptLog, lineTooLong, closed
        }
        private let base: Base
        private init(_ base: Base) { self.base = base }

        /// A value given as an identifier is not one (empty, too long, or characters outside `A–Z a–z 0–9 . _ : -`).
        public static let invalidIdentifier = Code(.invalidIdentifier)
        /// A value given as a SHA-256 digest is not 64 lowercase hex digits.
        public static let invalidDigest = Code(.invalidDigest)
        /// A caller tried to append an event only the log itself writes (opened, recovered, rotated).
        public static let reservedEvent = Code(.reservedEvent)
        /// The audit directory or file cannot be created or opened.
        public static let openFailed = Code(.openFailed)
        /// Another process holds the log's lock; two writers would fork the chain.
        public static let locked = Code(.locked)
        /// A line could not be written completely.
        public static let writeFailed = Code(.writeFailed)
        /// fsync failed: what was written may not survive a power cut.
        public static let syncFailed = Code(.syncFailed)
        /// A log file cannot be read.
        public static let readFailed = Code(.readFailed)
        /// The log's last complete line cannot be parsed, so the chain cannot be continued safely.
        public static let corruptLog = Code(.corruptLog)
        /// An encoded line is longer than a line may be (a programming error in the event set).
        public static let lineTooLong = Code(.lineTooLong)
        /// The log was closed; nothing more can be appended.
        public static let closed = Code(.closed)

        public var description: String { base.rawValue }
    }

    public let code: Code
    public let message: String
    /// The file the error concerns, when there is one.
    public let file: String?
    /// What failed underneath (an errno), for logs.
    public let cause: (any Error)?

    public init(_ code: Code, _ message: String, file: String? = nil, cause: (any Error)? = nil) {
        self.code = code
        self.message = message
        self.file = file
        self.cause = cause
    }

    public var description: String {
        if let file { return "\(file): \(message)" }
        return message
    }

    public static func == (lhs: Self, rhs: Self) -> Bool { lhs.code == rhs.code }
    public func hash(into hasher: inout Hasher) { hasher.combine(code) }
}
