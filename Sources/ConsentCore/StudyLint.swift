import Foundation

/// Every problem of a study a coordinator must fix before going live, per language (`consentctl lint`).
///
/// Loading decides: what `Study.load` reports as diagnostics is listed as is, and an error that stops the load
/// becomes one `error` diagnostic naming its file. When the stopping error is not the Contract's, the Contract is
/// still converted on its own, so its warnings are not hidden behind, say, a missing sharing document.
public enum StudyLint {
    /// The diagnostics of one language of a study.
    public struct LanguageResult: Sendable {
        /// The language's tag: the default language's (the Contract's `language`, `en` when absent) for the study
        /// folder itself, the folder name for a translation.
        public var language: String
        public var folder: URL
        public var diagnostics: [StudyDiagnostic]
    }

    /// Lints a study folder (or a single Contract file) and each of its translations.
    ///
    /// The default language is loaded as `Study.load` does; each translation then on its own on top of it, so a
    /// broken translation is reported as that language's error without hiding the other languages' problems.
    public static func check(_ url: URL, maximumFileBytes: Int = StudyFileReader.defaultMaximumFileBytes) -> [LanguageResult] {
        let base: Study.DefaultLanguage
        do {
            base = try Study.loadDefaultLanguage(from: url, maximumFileBytes: maximumFileBytes)
        } catch {
            // The default language could not be read, so its translations have nothing to build on.
            return [LanguageResult(language: defaultLanguageName(url), folder: url, diagnostics: diagnostics(after: error, loading: url))]
        }
        let contractName = isFolder(url) ? Study.contractFileName : url.lastPathComponent
        var results = [
            LanguageResult(
                language: base.study.language, folder: url,
                diagnostics: base.study.diagnostics + lintOnly(base.study, contractFile: contractName))
        ]
        for tag in base.translationTags {
            let folder = url.appendingPathComponent(tag, isDirectory: true)
            do {
                let translation = try Study.loadTranslation(tag, of: base, maximumFileBytes: maximumFileBytes)
                results.append(
                    LanguageResult(
                        language: tag, folder: folder,
                        diagnostics: translation.diagnostics
                            + lintOnly(translation, contractFile: "\(tag)/\(Study.contractFileName)")))
            } catch {
                results.append(
                    LanguageResult(language: tag, folder: folder, diagnostics: diagnostics(after: error, loading: url, language: tag)))
            }
        }
        return results
    }

    /// What lint reports beyond what loading does: rules a study may break and still run exactly as it did
    /// before the kiosk knew them, so the agent's start-up does not count them as problems. Today one: a consent
    /// without key information (`KeyInformation.rule`); one whose extension is there but broken has its error
    /// from the load instead.
    static func lintOnly(_ study: Study, contractFile: String) -> [StudyDiagnostic] {
        let named = (study.contract["extension"]?.arrayValue ?? []).contains {
            $0["url"]?.stringValue == KeyInformation.extensionURL
        }
        return named ? [] : [KeyInformationReader.missingDiagnostic(contractFile: contractFile)]
    }

    private static func isFolder(_ url: URL) -> Bool {
        var isDirectory: ObjCBool = false
        return FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory) && isDirectory.boolValue
    }

    /// The diagnostics of the default language only (a study folder or a single Contract file).
    public static func diagnostics(of url: URL) -> [StudyDiagnostic] {
        do {
            return try Study.loadDefaultLanguage(from: url, maximumFileBytes: StudyFileReader.defaultMaximumFileBytes)
                .study.diagnostics
        } catch {
            return diagnostics(after: error, loading: url)
        }
    }

    /// The default language's name when its Contract cannot be read: the Contract's `language` if that much is
    /// readable, else the built-in default.
    private static func defaultLanguageName(_ url: URL) -> String {
        var isDirectory: ObjCBool = false
        let isFolder = FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory) && isDirectory.boolValue
        let reader = StudyFileReader(root: isFolder ? url : url.deletingLastPathComponent())
        guard let json = try? reader.json(isFolder ? Study.contractFileName : url.lastPathComponent),
            let tag = json["language"]?.stringValue, !tag.isEmpty
        else { return StudyLanguage.defaultTag }
        return tag
    }

    /// The diagnostics of a load that failed with `error`.
    private static func diagnostics(after error: any Error, loading url: URL, language: String? = nil) -> [StudyDiagnostic] {
        guard let error = error as? ConsentCoreError else {
            return [.error(.fileInvalid, file: url.path, "the study cannot be loaded: \(error)")]
        }
        return diagnostics(after: error, loading: url, language: language)
    }

    private static func diagnostics(after error: ConsentCoreError, loading url: URL, language: String?) -> [StudyDiagnostic] {
        var isDirectory: ObjCBool = false
        let isFolder = FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory) && isDirectory.boolValue
        let folder = isFolder ? url : url.deletingLastPathComponent()
        let contractName = language.map { "\($0)/\(Study.contractFileName)" }
            ?? (isFolder ? Study.contractFileName : url.lastPathComponent)
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
            let reader = StudyFileReader(root: folder, languageFolder: language)
            let texts = BuiltInTexts(language: language ?? StudyLanguage.defaultTag)
            if let contract = try? reader.json(contractName),
                let document = try? ContractConverter.document(
                    from: contract, contractFile: contractPath, files: reader, texts: texts)
            {
                result = reader.lenientJSON + document.diagnostics
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
