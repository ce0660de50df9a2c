/// An error of the upload queue: a queue directory or entry that cannot be used, a record that cannot be sent, a
/// server that refused or did not answer, a configuration that cannot work.
///
/// Shaped like `ConsentSigningError`: an opaque `Code` that can grow without breaking callers, a one-sentence
/// message that states the fault and the remedy, and the file it concerns. Equality uses the code only.
/// Messages never contain PHI: a server's response body is never copied into them (an OperationOutcome may echo
/// the resource it rejects), only the HTTP status and OperationOutcome issue codes.
public struct UploadQueueError: Error, Sendable, Hashable, CustomStringConvertible {
    public struct Code: Sendable, Hashable, CustomStringConvertible {
        private enum Base: String, Sendable, Hashable {
            case invalidConfiguration, publicKeyUnreadable, invalidPublicKey
            case queueUnavailable, queueBusy, entryCorrupt, invalidRecordID
            case recordMissing, payloadInvalid, encryptionFailed
            case rejected, serverError, unexpectedResponse, timedOut, connectionFailed
        }
        private let base: Base
        private init(_ base: Base) { self.base = base }

        /// The upload configuration cannot work (a URL that is not http(s), a zero timeout, …).
        public static let invalidConfiguration = Code(.invalidConfiguration)
        /// The receiver's public key or certificate file cannot be read.
        public static let publicKeyUnreadable = Code(.publicKeyUnreadable)
        /// The file holds no RSA public key (PEM public key, PEM or DER certificate).
        public static let invalidPublicKey = Code(.invalidPublicKey)
        /// The queue directory or one of its files cannot be created, read or written.
        public static let queueUnavailable = Code(.queueUnavailable)
        /// Another process (normally consentd) is delivering this queue.
        public static let queueBusy = Code(.queueBusy)
        /// A queue entry file is not the entry format; it is left in place.
        public static let entryCorrupt = Code(.entryCorrupt)
        /// A record id that cannot name a queue file (empty, or with characters other than `A-Z a-z 0-9 . _ -`).
        public static let invalidRecordID = Code(.invalidRecordID)
        /// The record directory or its `bundle.json` is gone or unreadable; the entry stays queued.
        public static let recordMissing = Code(.recordMissing)
        /// The record's `bundle.json` is not a FHIR transaction Bundle.
        public static let payloadInvalid = Code(.payloadInvalid)
        /// Sealing the C3-PRO envelope failed.
        public static let encryptionFailed = Code(.encryptionFailed)
        /// The server refused the entry with a 4xx other than 408/429, or redirected it: retrying will not help.
        public static let rejected = Code(.rejected)
        /// The server answered 5xx, 408 or 429: it is retried with backoff.
        public static let serverError = Code(.serverError)
        /// The server answered 2xx but not with what acknowledges a transaction (a `transaction-response` Bundle
        /// with a 2xx status per entry): a proxy or portal page, most likely; retried.
        public static let unexpectedResponse = Code(.unexpectedResponse)
        /// The server did not answer within the request timeout; retried.
        public static let timedOut = Code(.timedOut)
        /// No connection to the server (refused, reset, DNS, TLS); retried.
        public static let connectionFailed = Code(.connectionFailed)

        public var description: String { base.rawValue }

        /// Reads a code back from its `description` (entry files store the code as a string).
        public init?(_ description: String) {
            guard let base = Base(rawValue: description) else { return nil }
            self.base = base
        }
    }

    public let code: Code
    public let message: String
    /// The file the error concerns, when there is one.
    public let file: String?
    /// What failed underneath (an errno, a URLError), for logs.
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
