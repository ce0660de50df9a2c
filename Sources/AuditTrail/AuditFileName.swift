import Foundation

/// The names in an audit directory: `audit.log` is written to; rotation renames it `audit.log.1`, `.2`, … in the
/// order they were made, and never renames them again, so a file's name never changes once the chain names it.
enum AuditFileName {
    static let current = "audit.log"
    static let lock = ".lock"
    private static let rotatedPrefix = "audit.log."

    static func rotated(_ number: Int) -> String { rotatedPrefix + String(number) }

    /// The number of a rotated file's name; nil for any other name (leading zeros are not ours either).
    static func rotationNumber(_ name: String) -> Int? {
        guard name.hasPrefix(rotatedPrefix) else { return nil }
        let digits = name.dropFirst(rotatedPrefix.count)
        guard !digits.isEmpty, digits.first != "0", digits.allSatisfy({ $0.isASCII && $0.isNumber }) else { return nil }
        return Int(digits)
    }

    /// The rotated numbers present (ascending) and whether `audit.log` exists.
    static func scan(_ directory: URL) throws -> (rotated: [Int], hasCurrent: Bool) {
        let names: [String]
        do {
            names = try FileManager.default.contentsOfDirectory(atPath: directory.path)
        } catch {
            throw AuditTrailError(.readFailed, "cannot list the audit directory; check that it exists and is readable", file: directory.path, cause: error)
        }
        return (names.compactMap(rotationNumber).sorted(), names.contains(current))
    }
}
