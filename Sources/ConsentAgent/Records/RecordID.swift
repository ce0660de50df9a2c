import Foundation

/// Record ids: `r-` plus 32 lowercase hex digits, random, so they reveal nothing and never collide in practice.
enum RecordID {
    static func make() -> String {
        "r-" + UUID().uuidString.lowercased().replacingOccurrences(of: "-", with: "")
    }

    /// Whether `id` has the shape of a record id; `records.get` checks this before touching the file system,
    /// so no id can name a path outside the records directory.
    static func isValid(_ id: String) -> Bool {
        id.utf8.count == 34 && id.hasPrefix("r-")
            && id.utf8.dropFirst(2).allSatisfy { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) || (UInt8(ascii: "a")...UInt8(ascii: "f")).contains($0) }
    }
}
