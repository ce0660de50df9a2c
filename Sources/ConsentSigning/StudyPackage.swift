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
/// `name` is the version's folder name on the kiosk. Paths are relative, `/`-separated, each part letters, digits
/// and `. _ -` (no `..`, no hidden files); a package holds at most `maximumFiles` files and `maximumBytes` bytes.
/// A kiosk accepts it only when its `approval.json` verifies against `approvalKeys` for the version it holds.
public enum StudyPackage {
    public static let format = "consent-kiosk-package/1"
    public static let maximumBytes = 64 << 20
    public static let maximumFiles = 2000

    /// Every regular file of `folder` (recursively; hidden files skipped), as a package named `name`.
    ///
    /// - Throws: `StudyApprovalError(.malformed)` when the folder has no approval.json, a file cannot be read, or a
    ///   name is not one a package may hold.
    public static func pack(folder: URL, name: String? = nil) throws -> Data {
        let name = name ?? folder.lastPathComponent
        guard isSafeName(name) else { throw StudyApprovalError(.malformed, "\"\(name)\" cannot name a version folder") }
        guard FileStatus.of(folder.appendingPathComponent(StudyApproval.fileName).path) != nil else {
            throw StudyApprovalError(.missing, "the study has no approval.json; seal it first (consentctl study seal)")
        }
        var files: [String: JSONValue] = [:]
        var total = 0
        let enumerator = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: [.isRegularFileKey], options: [.skipsHiddenFiles])
        while let url = enumerator?.nextObject() as? URL {
            guard (try? url.resourceValues(forKeys: [.isRegularFileKey]))?.isRegularFile == true else { continue }
            let relative = String(url.standardizedFileURL.path.dropFirst(folder.standardizedFileURL.path.count + 1))
            guard isSafePath(relative) else {
                throw StudyApprovalError(.malformed, "\(relative): a package holds only names of letters, digits and . _ -")
            }
            guard let bytes = try? FileBytes.read(url.path, limit: maximumBytes) else {
                throw StudyApprovalError(.malformed, "\(relative): cannot be read")
            }
            total += bytes.count
            files[relative] = .string(Data(bytes).base64EncodedString())
        }
        guard total <= maximumBytes, files.count <= maximumFiles else {
            throw StudyApprovalError(.malformed, "the study is larger than a package may be (\(maximumBytes) bytes, \(maximumFiles) files)")
        }
        return try JSONValue.object(["format": .string(format), "name": .string(name), "files": .object(files)]).serialized()
    }

    /// A package's version folder name and files, checked.
    public static func unpack(_ data: Data) throws -> (name: String, files: [String: Data]) {
        guard data.count <= maximumBytes * 2, let json = try? JSONValue.parse(data), json["format"]?.stringValue == format,
            let name = json["name"]?.stringValue, let members = json["files"]?.objectValue
        else { throw StudyApprovalError(.malformed, "the download is not a study package (\(format))") }
        guard isSafeName(name) else { throw StudyApprovalError(.malformed, "the package's name \"\(name)\" cannot name a folder") }
        guard members.count <= maximumFiles else { throw StudyApprovalError(.malformed, "the package has too many files") }
        var files: [String: Data] = [:]
        for (path, value) in members {
            guard isSafePath(path) else { throw StudyApprovalError(.malformed, "the package names a file \"\(path)\" it may not hold") }
            guard let base64 = value.stringValue, let bytes = Data(base64Encoded: base64) else {
                throw StudyApprovalError(.malformed, "the package's \(path) is not base64")
            }
            files[path] = bytes
        }
        return (name, files)
    }

    /// Writes a downloaded package beside the other versions in `directory`, only if its approval verifies with
    /// `keyring` for the version it holds, covers `site` (when both name one) and has not expired on `today`. The
    /// version appears at once and whole (written into a hidden folder, synced, renamed), or not at all.
    ///
    /// - Returns: the new version folder and the study as loaded from it.
    /// - Throws: `StudyApprovalError` saying why the package was refused; nothing is left behind. A version folder of
    ///   that name already there is `.malformed` ("already present").
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
                try DurableWrite.syncDirectory(directory.path)
            } catch {
                throw StudyApprovalError(.malformed, "\(target.path): cannot be written (\(error))")
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
            throw StudyApprovalError(.malformed, "the package cannot be written: \(error)")
        }
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
