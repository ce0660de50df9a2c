import Foundation

/// An identifier that may go into the audit log: a kiosk, study, flow, record or destination id.
///
/// The character set is what keeps free text out of the log by construction: ASCII letters, digits and `. _ : -`,
/// 1 to 128 characters, starting with a letter or digit. A participant's typed name ("Zoë Müller-Østergaard"),
/// a sentence or a reason cannot pass (spaces, non-ASCII); uuids, FHIR ids, host names and SHA-256 hex can.
/// A single ASCII word could still be misused as an id; the agent only ever passes ids it minted or read from
/// the study, never a value from the participant.
public struct AuditIdentifier: Sendable, Hashable, Codable, CustomStringConvertible, Comparable {
    public static let maxLength = 128
    public let value: String

    /// - Throws: `AuditTrailError.invalidIdentifier` when `value` is not an identifier.
    public init(_ value: String) throws {
        guard Self.isValid(value) else {
            throw AuditTrailError(
                .invalidIdentifier,
                "an audit identifier is 1–\(Self.maxLength) characters of A–Z a–z 0–9 . _ : - (got \(value.utf8.count) bytes); pass an id, never participant text")
        }
        self.value = value
    }

    /// A uuid, written in lowercase as records and the protocol write it.
    public init(_ uuid: UUID) {
        value = uuid.uuidString.lowercased()
    }

    public static func isValid(_ value: String) -> Bool {
        let bytes = Array(value.utf8)
        guard (1...maxLength).contains(bytes.count), let first = bytes.first, isAlphanumeric(first) else { return false }
        return bytes.allSatisfy { isAlphanumeric($0) || $0 == UInt8(ascii: ".") || $0 == UInt8(ascii: "_") || $0 == UInt8(ascii: ":") || $0 == UInt8(ascii: "-") }
    }

    private static func isAlphanumeric(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte) || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte)
            || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
    }

    public init(from decoder: any Decoder) throws {
        let text = try decoder.singleValueContainer().decode(String.self)
        try self.init(text)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(value)
    }

    public var description: String { value }
    public static func < (lhs: Self, rhs: Self) -> Bool { lhs.value < rhs.value }
}
