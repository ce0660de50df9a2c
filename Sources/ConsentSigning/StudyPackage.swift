import ConsentCore
import FileBytes
import Foundation

/// One study version as a single file, for publishing it to kiosks (`consentctl study pack`, `consentctl study
/// pull`; docs/OPERATIONS.md, "Rolling out an amendment"):
///
/// ```json
/// {"format": "consent-kiosk-package/1", "name": "2026-06-amendment-2",
///  "files": {"approval.json": "<base64>", "contract.json": "<base64>", "de/contract.json": "<base64>", …}}
/// ```
/// `name` is the version's folder name on the kiosk, and the files are `approval.json` and exactly the files it
/// lists: the approval binds both (`StudyApproval.name`, `.files`), so a package can neither carry a file no
/// approval covers nor replay an approval under another folder name. Paths are relative, `/`-separated, each part
/// letters, digits and `. _ -` (no `..`, no hidden files); a package holds at most `maximumFiles` files and
/// `maximumBytes` bytes (decoded), checked before anything is written. A kiosk accepts it only when its
/// `approval.json` verifies against `approvalKeys` for the version it holds.
public enum StudyPackage {
    public static let format = "consent-kiosk-package/1"
    /// The most a package's files may hold, decoded: a study's cap (`StudyFileReader.defaultMaximumStudyBytes`)
    /// and its approval.
    public static let maximumBytes = StudyFileReader.defaultMaximumStudyBytes + StudyApprovalFile.maximumBytes
    /// The most a package file may have: its files in base64 (4/3 larger), and room for the JSON around them.
    public static let maximumEncodedBytes = encodedBytes(maximumBytes)
    public static let maximumFiles = 2000

    static func encodedBytes(_ decoded: Int) -> Int { decoded / 3 * 4 + (4 << 20) }

    /// The files `folder`'s `approval.json` lists, and the approval, as a package named by the approval.
    ///
    /// - Throws: `StudyApprovalError` when the folder has no approval.json, it lists no files or names no folder
    ///   (sealed by an older consentctl: re-seal), `name` is not the one it binds, a listed file is missing or
    ///   cannot be read, or the package would hold a name or more than a package may.
    public static func pack(folder: URL, name: String? = nil) throws -> Data {
        let approvalBytes: Data
        let approval: StudyApproval
        switch StudyApprovalFile.load(folder: folder) {
        case .missing:
            throw StudyApprovalError(.missing, "the study has no approval.json; seal it first (consentctl study seal)")
        case .unreadable(let error), .refused(_, let error):
            throw error
        case .read(let read, let bytes):
            (approval, approvalBytes) = (read, bytes)
        }
        let (bound, listed) = try binding(of: approval)
        if let name, name != bound {
            throw StudyApprovalError(
                .malformed, "approval.json binds the folder name \"\(bound)\"; pack it under that name, or seal it again with --name \(name)")
        }
        var files: [String: JSONValue] = [StudyApproval.fileName: .string(approvalBytes.base64EncodedString())]
        var total = approvalBytes.count
        for relative in listed {
            guard isSafePath(relative) else {
                throw StudyApprovalError(.malformed, "\(relative): a package holds only names of letters, digits and . _ -")
            }
            let path = folder.appendingPathComponent(relative).path
            guard FileStatus.of(path)?.kind == .regular, let bytes = try? FileBytes.read(path, limit: maximumBytes) else {
                throw StudyApprovalError(
                    .malformed, "\(relative): approval.json lists it but it cannot be read; restore it or seal the folder again")
            }
            total += bytes.count
            guard total <= maximumBytes else {
                throw StudyApprovalError(.malformed, "the study is larger than a package may be (\(maximumBytes) bytes)")
            }
            files[relative] = .string(Data(bytes).base64EncodedString())
        }
        return try JSONValue.object(["format": .string(format), "name": .string(bound), "files": .object(files)]).serialized()
    }

    /// The folder name and files an approval binds.
    ///
    /// - Throws: `StudyApprovalError(.malformed)` for an approval sealed before packages were bound (no `name` or
    ///   no `files`), saying to seal it again.
    static func binding(of approval: StudyApproval) throws -> (name: String, files: [String]) {
        guard let name = approval.name, let files = approval.files else {
            throw StudyApprovalError(
                .malformed,
                "approval.json names no version folder and no files (it was sealed by an older consentctl), so it cannot "
                    + "travel in a package; seal the version again with consentctl study seal")
        }
        return (name, files)
    }

    /// A package's version folder name and files, checked: safe names, at most `maximumFiles` files and
    /// `maximumBytes` bytes in all (`limit`, for tests).
    public static func unpack(_ data: Data) throws -> (name: String, files: [String: Data]) {
        try unpack(data, limit: maximumBytes)
    }

    static func unpack(_ data: Data, limit: Int) throws -> (name: String, files: [String: Data]) {
        guard data.count <= encodedBytes(limit) else {
            throw StudyApprovalError(.malformed, "the package is larger than a package may be (\(limit) bytes of files); nothing of it is written")
        }
        guard let json = try? JSONValue.parse(data), json["format"]?.stringValue == format,
            let name = json["name"]?.stringValue, let members = json["files"]?.objectValue
        else { throw StudyApprovalError(.malformed, "the download is not a study package (\(format))") }
        guard isSafeName(name) else { throw StudyApprovalError(.malformed, "the package's name \"\(name)\" cannot name a folder") }
        guard members.count <= maximumFiles else { throw StudyApprovalError(.malformed, "the package has too many files") }
        var files: [String: Data] = [:]
        var total = 0
        for (path, value) in members.sorted(by: { $0.key < $1.key }) {
            guard isSafePath(path) else { throw StudyApprovalError(.malformed, "the package names a file \"\(path)\" it may not hold") }
            guard let base64 = value.stringValue, let bytes = Data(base64Encoded: base64) else {
                throw StudyApprovalError(.malformed, "the package's \(path) is not base64")
            }
            total += bytes.count
            guard total <= limit else {
                throw StudyApprovalError(.malformed, "the package holds more than \(limit) bytes, more than a package may; nothing of it is written")
            }
            files[path] = bytes
        }
        return (name, files)
    }

    /// Writes a downloaded package beside the other versions in `directory`, only if its approval verifies with
    /// `keyring`, binds the package's name and lists exactly its other files, holds for the version it carries,
    /// covers `site` (when both name one) and has not expired on `today`. Everything but the version check is decided
    /// before a byte is written; the version appears at once and whole (written into a hidden folder, synced,
    /// renamed), or not at all.
    ///
    /// - Returns: the new version folder and the study as loaded from it.
    /// - Throws: `StudyApprovalError` saying why the package was refused; nothing is left behind. A version folder of
    ///   that name already there is `.malformed` ("already present"). `WriteFailure` when it cannot be written.
    public static func accept(
        _ data: Data, into directory: URL, keyring: ApprovalKeyring, site: String?, today: String
    ) throws -> (folder: URL, study: Study, approval: StudyApproval) {
        let (name, files) = try unpack(data)
        let target = directory.appendingPathComponent(name)
        guard FileStatus.of(target.path) == nil else {
            throw StudyApprovalError(.malformed, "\(target.path) is already there; a version is never overwritten")
        }
        guard let approvalBytes = files[StudyApproval.fileName] else {
            throw StudyApprovalError(.missing, "the package has no approval.json")
        }
        let approval = try StudyApproval.parse(approvalBytes)
        try approval.verify(trusting: keyring.keys)
        let (bound, listed) = try binding(of: approval)
        guard bound == name else {
            throw StudyApprovalError(
                .malformed, "the package is named \"\(name)\" but its approval binds the folder name \"\(bound)\"; a version is pulled only under its own name")
        }
        let allowed = Set(listed + [StudyApproval.fileName])
        if let extra = files.keys.sorted().first(where: { !allowed.contains($0) }) {
            throw StudyApprovalError(
                .malformed, "the package holds \(extra), which its approval does not list; nothing of it is written")
        }
        if let absent = listed.first(where: { files[$0] == nil }) {
            throw StudyApprovalError(.malformed, "the package lacks \(absent), which its approval lists")
        }
        if let wanted = approval.site, let site, wanted != site {
            throw StudyApprovalError(.wrongSite, "the package is approved for site \"\(wanted)\", this kiosk is site \"\(site)\"")
        }
        guard today <= approval.expires else {
            throw StudyApprovalError(.expired, "the package's approval expired: its last day was \(approval.expires)")
        }
        let temporary = directory.appendingPathComponent(".pull-\(name)-\(UInt32.random(in: .min ... .max))")
        do {
            try write(files, into: temporary)
            let study: Study
            do { study = try Study.load(from: temporary) } catch let error as ConsentCoreError {
                throw StudyApprovalError(.malformed, "the package's study does not load: \(error.message)")
            }
            guard study.id == approval.study else {
                throw StudyApprovalError(.versionMismatch, "the approval is for study \"\(approval.study)\", the package holds \"\(study.id)\"")
            }
            for (tag, version) in approval.versions {
                guard let language = study.inLanguage(tag), language.version == version else {
                    throw StudyApprovalError(
                        .versionMismatch, "the package's consent in \"\(tag)\" is not the version its approval names")
                }
            }
            do {
                try DurableWrite.renameNoReplace(temporary.path, to: target.path)
            } catch let failure as FileBytes.Failure where failure.errno == EEXIST {
                throw StudyApprovalError(.malformed, "\(target.path) is already there; a version is never overwritten")
            } catch {
                throw WriteFailure(message: "\(target.path): cannot be written (\(error))")
            }
            do { try DurableWrite.syncDirectory(directory.path) } catch {
                throw WriteFailure(message: "\(directory.path): cannot be synced (\(error))")
            }
            var loaded = study
            loaded.folder = target
            return (target, loaded, approval)
        } catch {
            try? FileManager.default.removeItem(at: temporary)
            throw error
        }
    }

    /// Writes each file (0644: a study holds no personal data) and syncs every folder made.
    private static func write(_ files: [String: Data], into root: URL) throws {
        do {
            try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
            var folders: Set<String> = [root.path]
            for (path, bytes) in files.sorted(by: { $0.key < $1.key }) {
                let url = root.appendingPathComponent(path)
                let folder = url.deletingLastPathComponent()
                if !folders.contains(folder.path) {
                    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
                    folders.insert(folder.path)
                }
                try DurableWrite.createNew(url.path, contents: bytes, mode: 0o644)
            }
            for folder in folders.sorted(by: >) { try DurableWrite.syncDirectory(folder) }
        } catch {
            throw WriteFailure(message: "the package cannot be written: \(error)")
        }
    }

    /// The kiosk could not write an accepted package (a full disk, permissions): an I/O error, not a refusal of the
    /// package; nothing of it is left behind.
    public struct WriteFailure: Error, CustomStringConvertible {
        public let message: String
        public var description: String { message }
    }

    static func isSafeName(_ name: String) -> Bool {
        !name.isEmpty && name.count <= 128 && !name.hasPrefix(".")
            && name.unicodeScalars.allSatisfy { $0.isASCII && (CharacterSet.alphanumerics.contains($0) || "._-".unicodeScalars.contains($0)) }
    }

    static func isSafePath(_ path: String) -> Bool {
        let parts = path.split(separator: "/", omittingEmptySubsequences: false)
        return !parts.isEmpty && parts.count <= 8 && parts.allSatisfy { isSafeName(String($0)) }
    }
}
