import Crypto
import Foundation
import HexText

/// A SHA-256 digest in lowercase hex: a study version, a manifest hash, a configuration hash, a line hash.
public struct AuditDigest: Sendable, Hashable, Codable, CustomStringConvertible {
    public let hex: String

    /// The `prev` of the very first line of a chain: 64 zeros.
    public static let genesis = AuditDigest(trusted: String(repeating: "0", count: 64))

    /// - Throws: `AuditTrailError.invalidDigest` unless `hex` is 64 lowercase hex digits.
    public init(hex: String) throws {
        guard Self.isValid(hex) else {
            throw AuditTrailError(.invalidDigest, "a digest is 64 lowercase hex digits; pass a SHA-256 in hex")
        }
        self.hex = hex
    }

    /// The SHA-256 of `bytes`.
    public init<D: DataProtocol>(sha256Of bytes: D) {
        hex = HexText.lowercase(SHA256.hash(data: bytes))
    }

    private init(trusted hex: String) { self.hex = hex }

    public static func isValid(_ hex: String) -> Bool {
        hex.utf8.count == 64
            && hex.utf8.allSatisfy { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) || (UInt8(ascii: "a")...UInt8(ascii: "f")).contains($0) }
    }

    public init(from decoder: any Decoder) throws {
        try self.init(hex: decoder.singleValueContainer().decode(String.self))
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(hex)
    }

    public var description: String { hex }
}
