import Foundation

/// One queued record, as stored in `<state>/queue/<sequence>-<recordID>.json`.
///
/// It holds no PHI: the payload stays in the record directory and is read at send time, so the queue never
/// holds a second copy of the consent; except for a record stored encrypted at rest, whose Bundle waits sealed under
/// the agent's upload key in `queue/payloads/` (`UploadPayloadStore`, `sealedPayload`). `lastError` keeps only a code, a PHI-free message and the HTTP status.
public struct QueueEntry: Sendable, Hashable, Codable {
    public static let format = "consent-kiosk-upload/1"

    public var format: String
    /// The position in the queue: entries are delivered in increasing order, one at a time.
    public var sequence: Int
    public var recordID: String
    /// The record directory, absolute; `bundle.json` in it is the payload.
    public var recordDirectory: String
    public var target: UploadTarget
    public var enqueuedAt: Date
    /// Failed attempts so far (acknowledged entries are removed, so this never counts a success).
    public var attempts: Int
    /// When the next attempt is due; persisted so backoff survives a restart.
    public var nextAttemptAt: Date
    public var lastError: LastError?
    /// True after a permanent failure: the queue stops here (strict order) until an operator re-arms or parks the
    /// entry (`consentctl queue retry` / `park`).
    public var isHalted: Bool
    /// True when the payload is the sealed copy in `queue/payloads/` (the record is encrypted at rest); absent
    /// (nil) in entries of plaintext records and in entries written before sealed payloads existed.
    public var sealedPayload: Bool?

    /// The last failure of this entry.
    public struct LastError: Sendable, Hashable, Codable {
        /// `UploadQueueError.Code.description`.
        public var code: String
        public var message: String
        public var httpStatus: Int?
        public var at: Date

        public init(code: String, message: String, httpStatus: Int? = nil, at: Date) {
            self.code = code
            self.message = message
            self.httpStatus = httpStatus
            self.at = at
        }
    }

    public init(sequence: Int, recordID: String, recordDirectory: String, target: UploadTarget, enqueuedAt: Date) {
        self.format = Self.format
        self.sequence = sequence
        self.recordID = recordID
        self.recordDirectory = recordDirectory
        self.target = target
        self.enqueuedAt = enqueuedAt
        self.attempts = 0
        self.nextAttemptAt = enqueuedAt
        self.lastError = nil
        self.isHalted = false
    }

    /// `00000042-<recordID>.json`: zero-padded so `ls` lists the queue in order; parsed numerically.
    public var fileName: String {
        let number = String(sequence)
        return String(repeating: "0", count: max(0, 8 - number.count)) + number + "-" + recordID + ".json"
    }

    /// Whether `recordID` can name a queue file: 1…128 of `A-Z a-z 0-9 . _ -`, not starting with a dot.
    public static func isValidRecordID(_ recordID: String) -> Bool {
        guard (1...128).contains(recordID.utf8.count), recordID.first != "." else { return false }
        return recordID.utf8.allSatisfy { byte in
            (0x30...0x39).contains(byte) || (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte)
                || byte == 0x2D || byte == 0x2E || byte == 0x5F
        }
    }

    /// The sequence number in an entry file name, or nil for anything else in the directory.
    static func sequence(inFileName name: String) -> Int? {
        guard name.hasSuffix(".json"), !name.hasPrefix("."), let dash = name.firstIndex(of: "-") else { return nil }
        return Int(name[name.startIndex..<dash])
    }
}
