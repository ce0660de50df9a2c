import Crypto
import Foundation
import HexText

/// What a record keeps of each consent section so a later version can be compared with it: the section's
/// title (or its type when untitled), its type, and a SHA-256 over everything the participant read of it.
public struct SectionFingerprint: Sendable, Hashable, Codable {
    public var title: String
    public var type: ConsentSectionType
    /// SHA-256 hex over the title, the scene summary and the HTML, each length-prefixed.
    public var sha256: String

    public init(title: String, type: ConsentSectionType, sha256: String) {
        self.title = title
        self.type = type
        self.sha256 = sha256
    }

    /// The fingerprints of a document's sections, in term order.
    public static func of(_ document: ConsentDocument) -> [SectionFingerprint] {
        document.sections.map { section in
            var hasher = SHA256()
            for part in [section.title ?? "", section.summary ?? "", section.htmlContent ?? ""] {
                let bytes = Data(part.utf8)
                hasher.update(data: withUnsafeBytes(of: UInt64(bytes.count).bigEndian) { Data($0) })
                hasher.update(data: bytes)
            }
            let hex = HexText.lowercase(hasher.finalize())
            return SectionFingerprint(title: section.title ?? section.type.rawValue, type: section.type, sha256: hex)
        }
    }
}

/// Which sections were added, removed or edited between two versions of a consent.
///
/// Sections are matched by title and type (a renamed section counts as one removed and one added: the
/// participant sees both names). When titles repeat, the n-th occurrence matches the n-th. Pure and cheap.
public struct ConsentDocumentDiff: Sendable, Hashable, Codable {
    public var added: [String]
    public var removed: [String]
    public var edited: [String]

    public init(added: [String] = [], removed: [String] = [], edited: [String] = []) {
        self.added = added
        self.removed = removed
        self.edited = edited
    }

    public init(previous: [SectionFingerprint], current: [SectionFingerprint]) {
        struct Key: Hashable {
            var title: String
            var type: ConsentSectionType
            var occurrence: Int
        }
        func keyed(_ list: [SectionFingerprint]) -> [(key: Key, print: SectionFingerprint)] {
            var seen: [Key: Int] = [:]
            return list.map { print in
                let base = Key(title: print.title, type: print.type, occurrence: 0)
                let n = seen[base, default: 0]
                seen[base] = n + 1
                return (Key(title: print.title, type: print.type, occurrence: n), print)
            }
        }
        let old = keyed(previous), new = keyed(current)
        let oldByKey = Dictionary(old.map { ($0.key, $0.print) }, uniquingKeysWith: { first, _ in first })
        let newKeys = Set(new.map(\.key))
        self.init(
            added: new.filter { oldByKey[$0.key] == nil }.map(\.print.title),
            removed: old.filter { !newKeys.contains($0.key) }.map(\.print.title),
            edited: new.compactMap { entry in
                guard let before = oldByKey[entry.key], before.sha256 != entry.print.sha256 else { return nil }
                return entry.print.title
            })
    }

    /// Whether any section changed (a version can change without one: options, images, the sharing page).
    public var isEmpty: Bool { added.isEmpty && removed.isEmpty && edited.isEmpty }
}
