import Foundation
import JSON

/// One line of the audit log, as written and as read back.
///
/// ```
/// {"event":"flow.started","flow":"<uuid>","kiosk":"kiosk-1","mono_ns":81234567890,"outcome":"started",
///  "prev":"<sha-256 hex of the previous line>","seq":12,"study":"heartbeat","study_version":"<hex>",
///  "time":"2026-09-14T10:15:30.123Z"}\n                                        (one line, keys sorted)
/// ```
/// - `seq` counts from 1 over the whole chain, across rotated files.
/// - `prev` is the SHA-256 of the previous line's bytes without its `\n`; the first line's is 64 zeros.
/// - `time` is UTC wall time in milliseconds; `mono_ns` is CLOCK_MONOTONIC, comparable within one boot
///   (`log.opened` names the boot id), so a wall clock step cannot reorder events unnoticed.
/// - The other keys depend on `event` and are omitted when they do not apply.
///
/// Reading keeps plain types rather than the validated ones, so a tampered line still parses and the verifier
/// can say what is wrong with it.
public struct AuditLine: Sendable, Hashable, Codable {
    public var seq: UInt64
    public var time: String
    public var monoNS: UInt64
    public var kiosk: String
    public var prev: String
    public var event: String
    public var outcome: String

    public var flow: String?
    public var study: String?
    public var studyVersion: String?
    public var step: String?
    public var index: Int?
    public var record: String?
    public var manifest: String?
    public var signer: String?
    public var strokes: Int?
    public var points: Int?
    public var shareWidely: Bool?
    public var eligible: Bool?
    public var answered: Int?
    public var questions: Int?
    public var configuration: String?
    public var previousConfiguration: String?
    public var studies: Int?
    public var peerUID: UInt32?
    public var peerPID: Int32?
    public var reason: String?
    public var destination: String?
    public var httpStatus: Int?
    public var boot: String?
    public var truncatedBytes: Int?
    public var truncatedSHA256: String?
    public var previousFile: String?
    /// `staff.unlocked`, `staff.attested`: the staff id (never the PIN) and the identity verification method.
    public var staff: String?
    public var method: String?
    public var daysLeft: Int?
    /// `flow.paused`, `flow.resumed`, `flow.pause_expired`: the sealed paused flow's id (never its resume code).
    public var pause: String?

    enum CodingKeys: String, CodingKey {
        case seq, time, kiosk, prev, event, outcome, flow, study, step, index, record, manifest, signer, strokes, points
        case eligible, answered, questions, configuration, studies, reason, destination, boot, staff, method, pause
        case monoNS = "mono_ns"
        case studyVersion = "study_version"
        case shareWidely = "share_widely"
        case previousConfiguration = "previous_configuration"
        case peerUID = "peer_uid"
        case peerPID = "peer_pid"
        case httpStatus = "http_status"
        case truncatedBytes = "truncated_bytes"
        case truncatedSHA256 = "truncated_sha256"
        case previousFile = "previous_file"
        case daysLeft = "days_left"
    }

    init(seq: UInt64, time: String, monoNS: UInt64, kiosk: String, prev: String, event: String, outcome: String) {
        self.seq = seq
        self.time = time
        self.monoNS = monoNS
        self.kiosk = kiosk
        self.prev = prev
        self.event = event
        self.outcome = outcome
    }

    /// The line's bytes, without the `\n`: compact JSON with sorted keys.
    func encoded() throws -> Data {
        // JSONEncoder's bytes with .sortedKeys and .withoutEscapingSlashes, which wrote every line before
        // (AuditLineDecodingTests).
        Data(try JSONValueEncoder().encodedBytes(self))
    }

    /// Parses one line (without its `\n`); nil when it is not an audit line.
    public static func parse<D: DataProtocol>(_ bytes: D) -> AuditLine? {
        try? JSONValueDecoder().decode(AuditLine.self, from: bytes)
    }
}
