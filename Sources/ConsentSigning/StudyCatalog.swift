import ConsentCore
import Foundation

/// A kiosk's study versions side by side, and which of them it serves (docs/OPERATIONS.md, "Several versions on one
/// kiosk").
///
/// A `--study` path is a study folder (with `contract.json`), a Contract file, or a folder of versions: each
/// sub-folder holding a `contract.json` is one version of a study (`sample/2026-01/`, `sample/2026-06-amendment/`).
/// For each study id and each language the newest version whose approval holds is served; with none holding, the
/// newest (so a flow is refused with the reason, `StudyNotApproved`). Newest is by the approval's first day, then by
/// folder name. Older versions stay on disk, listed by `consentctl studies`, for verifying their records.
public struct StudyCatalog: Sendable {
    /// One version of a study: the folder as loaded (every language) and its `approval.json`.
    public struct Version: Sendable {
        public var study: Study
        public var approval: StudyApprovalFile

        public init(study: Study, approval: StudyApprovalFile) {
            self.study = study
            self.approval = approval
        }
    }

    /// Every version loaded, in path order.
    public var versions: [Version]

    public init(versions: [Version]) { self.versions = versions }

    /// The folders `path` names: itself when it is a study folder or a Contract file, else its sub-folders that are
    /// study folders, by name. Empty when it names none.
    public static func folders(_ path: String) -> [URL] {
        let url = URL(fileURLWithPath: path)
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory), isDirectory.boolValue,
            !FileManager.default.fileExists(atPath: url.appendingPathComponent(Study.contractFileName).path)
        else { return [url] }
        let names = (try? FileManager.default.contentsOfDirectory(atPath: url.path)) ?? []
        return names.sorted().filter { !$0.hasPrefix(".") }.map { url.appendingPathComponent($0) }.filter {
            FileManager.default.fileExists(atPath: $0.appendingPathComponent(Study.contractFileName).path)
        }
    }

    /// Loads every version `paths` name, with their approvals.
    ///
    /// With `approvalKeys` (a kiosk checking approvals), a version loads only the translations its approval
    /// approves, and only once that approval verifies with one of the keys: a language folder no trusted approval
    /// covers is never read, so its title and pages are not offered (`study.get`) and its files are not served. A
    /// version without an approval, or with one that does not read or verify, loads its default language alone.
    /// The default language is always loaded (every translation loads on top of it); its flows are refused when
    /// the approval does not cover it.
    ///
    /// - Throws: `ConsentCoreError` of the first version that does not load; a path naming no study is
    ///   `.fileNotFound`.
    /// An approval that binds a review pack is checked against the screens of the loaded version
    /// (`StudyApprovalFile.checkingScreens`, with `packs`: the kiosk's own texts, or a test's) and refused with
    /// `reviewMismatch` when they differ.
    public static func load(
        _ paths: [String], approvalKeys: ApprovalKeyring? = nil, packs: ScreensDigest.Packs = ScreensDigest.kioskPacks
    ) throws -> StudyCatalog {
        var versions: [Version] = []
        for path in paths {
            let folders = folders(path)
            guard !folders.isEmpty else {
                throw ConsentCoreError(.fileNotFound, "no study folder (with contract.json) here or in its sub-folders", file: path)
            }
            for folder in folders {
                // A lone Contract file's approval would be beside it, as its study's folder is.
                var isDirectory: ObjCBool = false
                let isFolder = FileManager.default.fileExists(atPath: folder.path, isDirectory: &isDirectory) && isDirectory.boolValue
                let approval = StudyApprovalFile.load(folder: isFolder ? folder : folder.deletingLastPathComponent())
                let translations = approvalKeys.map { approval.trustedLanguages(keyring: $0) }
                let study = try Study.load(from: folder, translations: translations)
                versions.append(Version(study: study, approval: approval.checkingScreens(study, packs: packs)))
            }
        }
        return StudyCatalog(versions: versions)
    }

    /// The study ids, in the order their first version was given.
    public var studyIDs: [String] {
        var seen: Set<String> = []
        return versions.map(\.study.id).filter { seen.insert($0).inserted }
    }

    /// The versions of one study that have `language`, newest first.
    public func versions(of id: String, language: String) -> [Study] {
        versions.filter { $0.study.id == id }.sorted(by: Self.newerFirst).compactMap { $0.study.inLanguage(language) }
    }

    /// Every language tag of a study, across its versions (the newest version's default first).
    public func languages(of id: String) -> [String] {
        var seen: Set<String> = []
        return versions.filter { $0.study.id == id }.sorted(by: Self.newerFirst)
            .flatMap { $0.study.languages.map(\.tag) }.filter { seen.insert($0.lowercased()).inserted }
    }

    /// The study each id is served as: the newest version whose approval `holds` (else the newest) in its default
    /// language, with, as translations, the version served for each other language. A language's `folder` and
    /// `version` are those of the version it comes from.
    public func served(holds: (Study) -> Bool) -> [Study] {
        studyIDs.compactMap { id in
            let languages = languages(of: id)
            func pick(_ language: String) -> Study? {
                let candidates = versions(of: id, language: language)
                return candidates.first(where: holds) ?? candidates.first
            }
            guard let defaultTag = languages.first, var top = pick(defaultTag) else { return nil }
            top.translations = languages.dropFirst().compactMap { pick($0) }.filter { $0.language.lowercased() != top.language.lowercased() }
            return top
        }
    }

    /// Whether a language's version is the one served (else it is superseded or unused).
    public static func isServed(_ study: Study, in served: [Study]) -> Bool {
        served.first { $0.id == study.id }?.inLanguage(study.language)?.version == study.version
    }

    private static func newerFirst(_ a: Version, _ b: Version) -> Bool {
        let dayA = a.approval.approval?.approved ?? "", dayB = b.approval.approval?.approved ?? ""
        if dayA != dayB { return dayA > dayB }
        return a.study.folder.lastPathComponent > b.study.folder.lastPathComponent
    }
}
