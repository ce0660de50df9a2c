import Foundation

/// Every problem of a study a coordinator must fix before going live, per language (`consentctl lint`).
///
/// Loading decides: what `Study.load` reports as diagnostics is listed as is, and an error that stops the load
/// becomes one `error` diagnostic naming its file. When the stopping error is not the Contract's, the Contract is
/// still converted on its own, so its warnings are not hidden behind, say, a missing sharing document.
public enum StudyLint {
    /// The diagnostics of one language of a study.
    public struct LanguageResult: Sendable {
        /// The language's tag, its folder name; `default` for the study folder itself.
        public var language: String
        public var folder: URL
        public var diagnostics: [StudyDiagnostic]
    }

    public static let defaultLanguage = "default"

    /// Lints a study folder (or a single Contract file) and every language sub-folder it has.
    public static func check(_ url: URL) -> [LanguageResult] {
        languages(of: url).map { LanguageResult(language: $0.tag, folder: $0.url, diagnostics: diagnostics(of: $0.url)) }
    }

    /// The languages to lint: the study itself, then each sub-folder with its own Contract, by name.
    ///
    /// Sub-folders holding a `contract.json` are how a study carries translations (`de/`, `fr/`). When the study
    /// loader learns to list its languages, this should ask it instead; nothing else here depends on how.
    public static func languages(of url: URL) -> [(tag: String, url: URL)] {
        var result = [(tag: defaultLanguage, url: url)]
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory), isDirectory.boolValue,
            let names = try? FileManager.default.contentsOfDirectory(atPath: url.path)
        else { return result }
        for name in names.sorted() where !name.hasPrefix(".") {
            let folder = url.appendingPathComponent(name, isDirectory: true)
            var isFolder: ObjCBool = false
            let contract = folder.appendingPathComponent(Study.contractFileName).path
            guard FileManager.default.fileExists(atPath: folder.path, isDirectory: &isFolder), isFolder.boolValue,
                FileManager.default.fileExists(atPath: contract)
            else { continue }
            result.append((tag: name, url: folder))
        }
        return result
    }

    /// The diagnostics of one study folder or Contract file, without its language sub-folders.
    public static func diagnostics(of url: URL) -> [StudyDiagnostic] {
        do {
            return try Study.load(from: url).diagnostics
        } catch let error as ConsentCoreError {
            return diagnostics(after: error, loading: url)
        } catch {
            return [.error(.fileInvalid, file: url.path, "the study cannot be loaded: \(error)")]
        }
    }

    private static func diagnostics(after error: ConsentCoreError, loading url: URL) -> [StudyDiagnostic] {
        var isDirectory: ObjCBool = false
        let isFolder = FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory) && isDirectory.boolValue
        let folder = isFolder ? url : url.deletingLastPathComponent()
        let contractName = isFolder ? Study.contractFileName : url.lastPathComponent
        let contractPath = folder.appendingPathComponent(contractName).path
        let file = error.file.map { relative($0, to: folder) }

        let code: StudyDiagnostic.Code
        let aboutContract = error.file == contractPath || error.code == .notAContract || error.code == .contractHasNoTerms
        if error.code == .sharingDocumentMissing {
            code = .sharingDocumentMissing
        } else if aboutContract || error.file == url.path {
            code = .contractUnreadable
        } else if error.code == .fileNotFound {
            code = .fileMissing
        } else {
            code = .fileInvalid
        }
        var result: [StudyDiagnostic] = []
        if code != .contractUnreadable {
            // The load stopped after the Contract was read; its own findings still count.
            let reader = StudyFileReader(root: folder)
            if let contract = try? reader.json(contractName),
                let document = try? ContractConverter.document(from: contract, contractFile: contractPath, files: reader)
            {
                result = document.diagnostics
            }
        }
        result.append(.error(code, file: file, error.message))
        return result
    }

    private static func relative(_ path: String, to folder: URL) -> String {
        let root = folder.standardizedFileURL.path + "/"
        let standardized = URL(fileURLWithPath: path).standardizedFileURL.path
        return standardized.hasPrefix(root) ? String(standardized.dropFirst(root.count)) : path
    }
}
