import ConsentCore
import Crypto
import FileBytes
import Foundation
import HexText

/// `pack.json`: the list of an IRB review pack (`consentctl study review`), every file of the pack with its SHA-256,
/// and the `screensDigest` of the languages it shows (docs/OPERATIONS.md, "The IRB review pack").
///
/// ```json
/// {
///   "format": "consent-kiosk-review-pack/1",
///   "study": "<study id>",
///   "versions": {"de": "<version hash of de/>", "en": "<version hash>"},
///   "screensDigest": "<SHA-256 hex of the screens' canonical JSON (ScreensDigest), screens.json compacted>",
///   "files": [{"name": "en/screens.pdf", "sha256": "<hex>", "size": 12345}, …]   sorted by name
/// }
/// ```
/// `consentctl study seal --review-pack` checks every file against its hash and the screens against the study,
/// then binds the pack (the SHA-256 of `pack.json`'s bytes) and its `screensDigest` into `approval.json`.
public struct ReviewPack: Sendable, Hashable {
    public static let fileName = "pack.json"
    public static let format = "consent-kiosk-review-pack/1"
    /// The screens' canonical JSON, pretty (its compact form is what `screensDigest` hashes).
    public static let screensFileName = "screens.json"

    public struct File: Sendable, Hashable {
        public var name: String
        public var sha256: String
        public var size: Int

        public init(name: String, contents: Data) {
            self.name = name
            sha256 = HexText.lowercase(SHA256.hash(data: contents))
            size = contents.count
        }

        init(name: String, sha256: String, size: Int) {
            self.name = name
            self.sha256 = sha256
            self.size = size
        }
    }

    public var study: String
    public var versions: [String: String]
    public var screensDigest: String
    public var files: [File]

    public init(study: String, versions: [String: String], screensDigest: String, files: [File]) {
        self.study = study
        self.versions = versions
        self.screensDigest = screensDigest
        self.files = files.sorted { $0.name < $1.name }
    }

    /// A pack as read and checked, and the SHA-256 of its `pack.json` bytes (what an approval binds).
    public struct Read: Sendable, Hashable {
        public var pack: ReviewPack
        public var sha256: String
    }

    /// The file's bytes: pretty, sorted keys, a final newline; the same pack always gives the same bytes.
    public func encoded() throws -> Data {
        let json = JSONValue.object([
            "format": .string(Self.format), "study": .string(study),
            "versions": .object(versions.mapValues(JSONValue.string)), "screensDigest": .string(screensDigest),
            "files": .array(files.map {
                .object(["name": .string($0.name), "sha256": .string($0.sha256), "size": .integer(Int64($0.size))])
            }),
        ])
        return try json.serialized(pretty: true) + Data("\n".utf8)
    }

    /// Reads `pack.json`'s bytes.
    ///
    /// - Throws: `StudyApprovalError(.malformed)` naming what is wrong.
    public static func parse(_ data: Data) throws -> ReviewPack {
        func malformed(_ message: String) -> StudyApprovalError { StudyApprovalError(.malformed, "pack.json: \(message)") }
        guard let json = try? JSONValue.parse(data), let members = json.objectValue else {
            throw malformed("not a JSON object")
        }
        guard members["format"]?.stringValue == format else { throw malformed("not in the format \(format)") }
        guard let study = members["study"]?.stringValue, !study.isEmpty else { throw malformed("needs \"study\"") }
        guard let versionMembers = members["versions"]?.objectValue, !versionMembers.isEmpty else {
            throw malformed("needs \"versions\": the version hash of each language")
        }
        var versions: [String: String] = [:]
        for (tag, value) in versionMembers {
            guard let hash = value.stringValue, hash.count == 64 else { throw malformed("the version of \"\(tag)\" is not a SHA-256 hex digest") }
            versions[tag] = hash
        }
        guard let digest = members["screensDigest"]?.stringValue, digest.count == 64, digest.allSatisfy(\.isHexDigit) else {
            throw malformed("\"screensDigest\" is not a SHA-256 hex digest")
        }
        guard let list = members["files"]?.arrayValue else { throw malformed("needs \"files\"") }
        var files: [File] = []
        for item in list {
            guard let name = item["name"]?.stringValue, isSafePath(name), let sha256 = item["sha256"]?.stringValue,
                sha256.count == 64, case .integer(let size)? = item["size"], size >= 0
            else {
                throw malformed("each file needs a relative \"name\", its \"sha256\" and its \"size\"")
            }
            files.append(File(name: name, sha256: sha256, size: Int(size)))
        }
        return ReviewPack(study: study, versions: versions, screensDigest: digest, files: files)
    }

    /// The largest file of a pack read back (a language's PDF or a screen's audio).
    public static let maximumFileBytes = 256 << 20

    /// Reads `<folder>/pack.json` and checks that every file it lists is there with its hash.
    ///
    /// - Throws: `StudyApprovalError(.malformed)` naming the file that is missing or changed.
    public static func read(folder: URL) throws -> Read {
        let path = folder.appendingPathComponent(fileName).path
        guard let bytes = try? FileBytes.read(path, limit: 16 << 20) else {
            throw StudyApprovalError(.malformed, "\(path): cannot read the review pack's list (consentctl study review writes it)")
        }
        let data = Data(bytes)
        let pack = try parse(data)
        for file in pack.files {
            let filePath = folder.appendingPathComponent(file.name).path
            guard let contents = try? FileBytes.read(filePath, limit: maximumFileBytes) else {
                throw StudyApprovalError(.malformed, "the review pack lacks \(file.name), which pack.json lists")
            }
            guard File(name: file.name, contents: Data(contents)) == file else {
                throw StudyApprovalError(.malformed, "the review pack's \(file.name) is not the file pack.json lists (changed since it was made)")
            }
        }
        return Read(pack: pack, sha256: HexText.lowercase(SHA256.hash(data: data)))
    }

    /// Whether the pack shows `study` at the `versions` an approval covers, with the screens this kiosk software
    /// shows for them.
    ///
    /// - Throws: `StudyApprovalError`: `.versionMismatch` for another study, version or set of languages;
    ///   `.reviewMismatch` when the screens differ (another consentctl made the pack, or its texts changed).
    public func check(_ study: Study, versions approved: [String: String]) throws {
        guard self.study == study.id else {
            throw StudyApprovalError(.versionMismatch, "the review pack is of study \"\(self.study)\", not \"\(study.id)\"")
        }
        guard versions == approved else {
            let shown = versions.keys.sorted().joined(separator: ", "), covered = approved.keys.sorted().joined(separator: ", ")
            throw StudyApprovalError(
                .versionMismatch,
                Set(versions.keys) == Set(approved.keys)
                    ? "the review pack shows another version of the study; make it again (consentctl study review)"
                    : "the review pack shows \(shown), the approval covers \(covered): make the pack with the same --language")
        }
        guard ScreensDigest.of(study, languages: approved.keys.sorted()) == screensDigest else {
            throw StudyApprovalError(
                .reviewMismatch,
                "the review pack's screens are not the ones this consentctl shows for the study; make it again (consentctl study review)")
        }
    }

    /// A relative path inside the pack: no `..`, no absolute path, no empty part.
    static func isSafePath(_ name: String) -> Bool {
        let parts = name.split(separator: "/", omittingEmptySubsequences: false)
        return !name.isEmpty && !name.hasPrefix("/") && parts.allSatisfy { !$0.isEmpty && $0 != "." && $0 != ".." }
            && name != fileName
    }
}
