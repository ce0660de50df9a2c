import Crypto
import Foundation
import HexText

/// A study as the kiosk runs it, in one language: its Contract, the consent derived from it, the texts and
/// options of its folder, and a version hash over every file that shaped what the participant sees.
///
/// A study folder holds:
/// ```
/// contract.json            the FHIR Contract (required); its "language" is the study's default language ("en")
/// intro.json               C3-PRO StudyIntroConfiguration; its "eligibility" texts are used (optional)
/// options.json             ConsentOptions (optional)
/// <name>.html              HTML pages named by the Contract and the options,
/// HTMLContent/<name>.html  looked up in this order
/// <tag>/                   a translation (`de`, `fr`, `pt-BR`): its own contract.json (required), intro.json
///                          and HTML pages; options.json may only set reasonForConsent
/// ```
/// A translation inherits the top folder's options and any HTML page it lacks (with a warning); never the
/// Contract or the intro texts. Each language has its own version hash over the files it used, and a defect in a
/// translation fails the load with an error naming the file, as one in the default language does.
/// A Contract file can also be loaded on its own; HTML pages are then looked up beside it.
public struct Study: Sendable {
    public static let contractFileName = "contract.json"
    public static let introFileName = "intro.json"
    public static let optionsFileName = "options.json"

    /// The study id: the default language's Contract `id`, else the folder name. The same in every language.
    public var id: String
    /// The folder the study's files are read from (the top folder, also for a translation: image paths and
    /// `files` are relative to it).
    public var folder: URL
    /// The language of this consent: a BCP 47 tag (`en`, `de`, `pt-BR`).
    public var language: String
    /// The study's default language: the top folder's.
    public var defaultLanguage: String
    /// The Contract as read, every member kept; the signing module starts from this.
    public var contract: JSONValue
    public var document: ConsentDocument
    public var options: ConsentOptions
    public var eligibilityMessages: EligibilityMessages
    /// The "Learn more about data sharing" HTML; present whenever `options.askForSharing` is.
    public var sharingHTML: String?
    /// The custom review document (`options.reviewConsentDocument`), when set and found.
    public var reviewHTML: String?
    /// What the start screen shows of this language's `intro.json` (welcome, logo, HTML pages); empty without one.
    public var introduction = StudyIntroduction()
    /// SHA-256 (hex) over every file used, so a record pins exactly what the participant saw.
    public var version: String
    /// The files the version covers, relative to `folder`, sorted.
    public var files: [String]
    /// Everything the coordinator should fix, from the Contract and the folder's files (`consentctl lint`).
    public var diagnostics: [StudyDiagnostic]
    /// The messages C3-PRO would log: every diagnostic but `sectionWithoutHTML`, which C3 treats as a choice (the
    /// section simply stays out of the document), so only `diagnostics` and `consentctl lint` point it out.
    public var warnings: [String] { diagnostics.legacyWarnings }
    /// The other languages, in tag order; empty on a translation itself.
    public var translations: [Study] = []
    /// The images this language uses, by the name a scene or an `<img src>` gives (`asset(named:)`), read when it
    /// loaded and covered by `version`: the UI (`study.asset`) and the PDF get them from here, never from the folder.
    public var assets: [String: StudyAsset] = [:]
    /// The IRB approval this consent runs under, once the agent verified it (`approvalKeys`); nil otherwise. Not
    /// part of `version`: `approval.json` sits beside the study's files and is never read by `load`.
    public var approval: StudyApprovalBinding?

    /// The study's own title in this language, for `study.get` and the views: the Contract's `title` (R4), else
    /// the built-in document title ("Consent"), which is also what the record's documents are called.
    public var title: String {
        if let title = contract["title"]?.stringValue?.trimmingCharacters(in: .whitespacesAndNewlines), !title.isEmpty {
            return title
        }
        return texts.documentTitle
    }

    /// The first 12 hex digits of the version, for page footers and logs.
    public var shortVersion: String { String(version.prefix(12)) }

    /// The kiosk's own texts in this study's language (English when there is no table for it).
    public var texts: BuiltInTexts { BuiltInTexts(language: language) }

    /// The relationships a representative chooses from, in this study's language: a default relationship (its
    /// code and English display unchanged) shows the kiosk's text; a study's own keep the display it gave.
    public var representativeRelationships: [RepresentativeRelationship] {
        let texts = self.texts
        return options.representativeRelationships.map { relationship in
            guard RepresentativeRelationship.defaults.contains(relationship),
                let display = texts.relationshipDisplay(code: relationship.code)
            else { return relationship }
            var localized = relationship
            localized.display = display
            return localized
        }
    }

    /// Every language of the study, the default first.
    public var languages: [StudyLanguage] {
        ([self] + translations).map {
            StudyLanguage(tag: $0.language, version: $0.version, isDefault: $0.language == defaultLanguage)
        }
    }

    /// The study in a language (matched case-insensitively), nil when it has no such translation.
    public func inLanguage(_ tag: String) -> Study? {
        ([self] + translations).first { $0.language.lowercased() == tag.lowercased() }
    }

    /// Loads a study folder, or a single Contract file.
    ///
    /// - Throws: `ConsentCoreError` naming the file and the problem: a missing or unreadable Contract, JSON that
    ///   is not a Contract, a Contract with no usable term, invalid options, a missing sharing document
    ///   (`.sharingDocumentMissing`), an HTML page that is not UTF-8 or too large, a language that is not a tag; the
    ///   same for every translation. Problems that leave the study usable are `diagnostics` instead.
    ///   The study's files together may hold at most `maximumStudyBytes` (`.fileTooLarge`, naming the file that
    ///   would pass it). `translations`, when given, are the only translation folders loaded (matched
    ///   case-insensitively): a kiosk checking approvals loads only the languages a version's approval covers.
    public static func load(
        from url: URL, maximumFileBytes: Int = StudyFileReader.defaultMaximumFileBytes,
        maximumStudyBytes: Int = StudyFileReader.defaultMaximumStudyBytes, translations: Set<String>? = nil
    ) throws -> Study {
        let base = try loadDefaultLanguage(from: url, maximumFileBytes: maximumFileBytes, maximumStudyBytes: maximumStudyBytes)
        var study = base.study
        // The translations depend only on the default language, not on each other: they are read side by side
        // (the sample's two, one after the other, were about a fifth of the agent's start-up). The first one that
        // fails, in tag order, is the error, as when they were read in turn.
        let wanted = translations.map { Set($0.map { $0.lowercased() }) }
        let tags = base.translationTags.filter { wanted?.contains($0.lowercased()) ?? true }
        let loaded = SideBySide.results(count: tags.count) { index in
            try loadTranslation(tags[index], of: base, maximumFileBytes: maximumFileBytes)
        }
        for result in loaded {
            study.translations.append(try result.get())
        }
        return study
    }

    /// The default language of a study, and what its translations inherit from it.
    struct DefaultLanguage {
        var study: Study
        /// The top folder's options.json as read (before built-in texts fill it in).
        var options: ConsentOptions
        var reasonIsSet: Bool
        /// The translation folders, checked not to repeat the default language; empty for a lone Contract file.
        var translationTags: [String]
        /// The files read so far, which the translations read through too.
        var store: StudyFileStore
    }

    /// Loads the top folder (or a lone Contract file) without its translations (`consentctl lint` loads those one
    /// by one, so one broken translation does not hide the others' problems).
    static func loadDefaultLanguage(
        from url: URL, maximumFileBytes: Int, maximumStudyBytes: Int = StudyFileReader.defaultMaximumStudyBytes
    ) throws -> DefaultLanguage {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory) else {
            throw ConsentCoreError(.fileNotFound, "no study folder or Contract file here", file: url.path)
        }
        let isFolder = isDirectory.boolValue
        let folder = isFolder ? url : url.deletingLastPathComponent()
        let contractFile = isFolder ? contractFileName : url.lastPathComponent
        let reader = StudyFileReader(root: folder, maximumFileBytes: maximumFileBytes, maximumStudyBytes: maximumStudyBytes)

        let contract = try reader.json(contractFile)
        let contractPath = reader.url(contractFile).path
        let language = try StudyLanguage.declared(by: contract, file: contractPath) ?? StudyLanguage.defaultTag
        var options = ConsentOptions()
        var reasonIsSet = false
        if isFolder, reader.exists(optionsFileName) {
            let json = try reader.json(optionsFileName)
            options = try ConsentOptions.from(json: json, file: reader.url(optionsFileName).path)
            reasonIsSet = json["reasonForConsent"] != nil
        }
        let id = contract["id"]?.stringValue ?? folder.lastPathComponent
        let study = try loadLanguage(
            language, id: id, contract: contract, contractFile: contractFile, reader: reader, options: options,
            reasonIsSet: reasonIsSet, defaultLanguage: language, readsFolder: isFolder)
        guard isFolder else {
            return DefaultLanguage(
                study: study, options: options, reasonIsSet: reasonIsSet, translationTags: [], store: reader.store)
        }
        let tags = try StudyLanguage.translationFolders(in: folder)
        for tag in tags {
            guard tag.lowercased() != language.lowercased() else {
                throw ConsentCoreError(
                    .invalidConfiguration,
                    "the folder \"\(tag)\" repeats the default language \"\(language)\" (the Contract's \"language\"); "
                        + "the top folder already is that language",
                    file: folder.appendingPathComponent(tag).path)
            }
        }
        return DefaultLanguage(
            study: study, options: options, reasonIsSet: reasonIsSet, translationTags: tags, store: reader.store)
    }

    /// Loads the translation in `<folder>/<tag>/`.
    static func loadTranslation(_ tag: String, of defaultLanguage: DefaultLanguage, maximumFileBytes: Int) throws -> Study {
        let base = defaultLanguage.study
        let baseOptions = defaultLanguage.options
        let defaultReasonIsSet = defaultLanguage.reasonIsSet
        let reader = StudyFileReader(
            root: base.folder, languageFolder: tag, maximumFileBytes: maximumFileBytes, store: defaultLanguage.store)
        let contractFile = "\(tag)/\(contractFileName)"
        let contract = try reader.json(contractFile)
        let contractPath = reader.url(contractFile).path
        if let declared = try StudyLanguage.declared(by: contract, file: contractPath), declared.lowercased() != tag.lowercased() {
            throw ConsentCoreError(
                .invalidConfiguration,
                "the Contract's language is \"\(declared)\" but it is in the folder of \"\(tag)\"; fix one of them",
                file: contractPath)
        }
        // The top options.json applies to this language too, so its bytes are part of this language's version.
        if reader.exists(optionsFileName) { _ = try reader.data(optionsFileName) }
        var options = baseOptions
        var reasonIsSet = false
        var diagnostics: [StudyDiagnostic] = []
        let optionsFile = "\(tag)/\(optionsFileName)"
        if reader.exists(optionsFile) {
            let path = reader.url(optionsFile).path
            let json = try reader.json(optionsFile)
            guard let members = json.objectValue else {
                throw ConsentCoreError(.invalidConfiguration, "expected a JSON object, found \(json.typeName)", file: path)
            }
            if let other = members.keys.sorted().first(where: { $0 != "reasonForConsent" }) {
                throw ConsentCoreError(
                    .invalidConfiguration,
                    "a translation's options.json may only set reasonForConsent; \"\(other)\" applies to every "
                        + "language and belongs in the top folder's options.json",
                    file: path)
            }
            if members["reasonForConsent"] != nil {
                options.reasonForConsent = try ConsentOptions.from(json: json, file: path).reasonForConsent
                reasonIsSet = true
            }
        }
        if defaultReasonIsSet, !reasonIsSet {
            diagnostics.append(
                .warning(
                    .untranslated, file: optionsFile, location: "reasonForConsent",
                    "\(tag): reasonForConsent of options.json is not translated (add it to \(optionsFile)); "
                        + "the built-in text is used"))
        }
        var study = try loadLanguage(
            tag, id: base.id, contract: contract, contractFile: contractFile, reader: reader, options: options,
            reasonIsSet: reasonIsSet, defaultLanguage: base.defaultLanguage, readsFolder: true)
        if study.introduction.isEmpty, !base.introduction.isEmpty {
            diagnostics.append(
                .warning(
                    .untranslated, file: "\(tag)/\(introFileName)",
                    "\(tag): the study's introduction is not translated (no \(tag)/\(introFileName) with items); "
                        + "the start screen shows none in this language"))
        }
        diagnostics += ComprehensionReader.translationDiagnostics(
            study.document.comprehension, of: base.document.comprehension, language: tag, contractFile: contractFile)
        diagnostics += OptionalElementReader.translationDiagnostics(
            study.document.optionalElements, of: base.document.optionalElements, language: tag, contractFile: contractFile)
        study.diagnostics = diagnostics + study.diagnostics
        study.document.diagnostics = study.diagnostics
        return study
    }

    /// Builds one language's study from files `reader` can reach.
    private static func loadLanguage(
        _ language: String, id: String, contract: JSONValue, contractFile: String, reader: StudyFileReader,
        options: ConsentOptions, reasonIsSet: Bool, defaultLanguage: String, readsFolder: Bool
    ) throws -> Study {
        let texts = BuiltInTexts(language: language)
        var document = try ContractConverter.document(
            from: contract, contractFile: reader.url(contractFile).path, files: reader, texts: texts)
        // The converter names the Contract by its file name; a translation's is `<tag>/contract.json`.
        let contractName = (contractFile as NSString).lastPathComponent
        var diagnostics = document.diagnostics.map { diagnostic in
            var diagnostic = diagnostic
            if diagnostic.file == contractName { diagnostic.file = contractFile }
            return diagnostic
        }
        if !BuiltInTexts.hasTable(for: language) {
            diagnostics.append(
                .warning(
                    .noBuiltInTexts, file: contractFile, location: "language",
                    "the kiosk has no texts in \"\(language)\" (it has \(BuiltInTexts.supportedLanguages.joined(separator: ", "))); "
                        + "its own screens and captions are in English"))
        }
        var options = options
        if !reasonIsSet { options.reasonForConsent = texts.signaturePageContent }

        var messages = EligibilityMessages.defaults(in: texts)
        var introduction = StudyIntroduction()
        var logo: String?
        let prefix = reader.languageFolder.map { "\($0)/" } ?? ""
        let introName = prefix + introFileName
        if readsFolder, reader.exists(introName) {
            let introFile = reader.url(introName).path
            let intro = try reader.json(introName)
            try StudyIntroValidation.check(intro, file: introFile)
            let read = try StudyIntroductionReader.read(intro, introFile: introName, reader: reader)
            introduction = read.introduction
            logo = read.logo
            diagnostics += read.diagnostics
            let (applied, introWarnings) = EligibilityMessages.from(introConfig: intro, file: introFile, texts: texts)
            messages = applied
            diagnostics += introWarnings.map {
                StudyDiagnostic.warning(.introTextIgnored, file: introName, location: "eligibility", $0)
            }
            if !EligibilityMessages.namesButton(messages.eligibleMessage, button: texts.startConsent) {
                diagnostics.append(
                    .warning(
                        .introTextIgnored, file: introName, location: "eligibility.eligibleMessage",
                        "eligibility.eligibleMessage does not name the button it asks for (write {button} where "
                            + "\"\(texts.startConsent)\" goes); the built-in message is shown instead"))
            }
        }

        var sharingHTML: String?
        if options.askForSharing {
            guard let path = reader.htmlPath(named: options.shareMoreInfoDocument) else {
                throw ConsentCoreError(
                    .sharingDocumentMissing,
                    "the sharing step needs \"\(options.shareMoreInfoDocument).html\" (in the study folder or HTMLContent/); "
                        + "add it, name another page in shareMoreInfoDocument, or set askForSharing to false",
                    file: reader.url("\(prefix)\(options.shareMoreInfoDocument).html").path)
            }
            sharingHTML = try reader.text(path)
        }
        var reviewHTML: String?
        if let name = options.reviewConsentDocument {
            if let path = reader.htmlPath(named: name) {
                reviewHTML = try reader.text(path)
            } else {
                diagnostics.append(
                    .error(
                        .fileMissing, file: "\(prefix)\(name).html", location: "options.reviewConsentDocument",
                        "review document \"\(name).html\" not found; the generated review document is used"))
            }
        }
        if let languageFolder = reader.languageFolder {
            for page in reader.inheritedPages {
                diagnostics.append(
                    .warning(
                        .untranslated, file: "\(languageFolder)/\(page)",
                        "\(languageFolder): \(page) is not translated (no \(languageFolder)/\(page)); the default language's page is used"))
            }
        }
        diagnostics += StudyImageCheck.missingImages(
            document: document, sharingHTML: sharingHTML, sharingFile: reader.htmlPath(named: options.shareMoreInfoDocument),
            reviewHTML: reviewHTML, reviewFile: options.reviewConsentDocument.flatMap(reader.htmlPath(named:)),
            introduction: introduction, contractFile: contractFile, folder: reader.root)
        // Images last: the HTML pages are known, and the version below covers the images' bytes too.
        let images = try StudyAssetLoader.load(
            document: document,
            html: document.sections.compactMap(\.htmlContent)
                + [document.keyInformation?.htmlContent, sharingHTML, reviewHTML].compactMap { $0 }
                + document.optionalElements.compactMap(\.htmlContent)
                + introduction.pages.map(\.htmlContent),
            logo: logo.map { ($0, "\(introName) logo") }, reader: reader)
        // The logo is shown only when its image is one a UI can be sent.
        if let logo, images.assets[logo]?.isDeliverable == true { introduction.logo = logo }
        diagnostics += images.diagnostics
        // First what the files themselves hold: every JSON file of this language is read by now.
        diagnostics.insert(contentsOf: reader.lenientJSON, at: 0)
        document.diagnostics = diagnostics

        var study = Study(
            id: id, folder: reader.root, language: language, defaultLanguage: defaultLanguage, contract: contract,
            document: document, options: options, eligibilityMessages: messages, sharingHTML: sharingHTML,
            reviewHTML: reviewHTML, version: versionHash(of: reader.usedFiles), files: reader.usedFiles.keys.sorted(),
            diagnostics: diagnostics)
        study.assets = images.assets
        study.introduction = introduction
        return study
    }

    /// Hashes files by path and content, in path order, with lengths, so no two different sets hash alike.
    static func versionHash(of files: [String: Data]) -> String {
        var hasher = SHA256()
        for path in files.keys.sorted() {
            guard let bytes = files[path] else { continue }
            let name = Data(path.utf8)
            hasher.update(data: withUnsafeBytes(of: UInt64(name.count).bigEndian) { Data($0) })
            hasher.update(data: name)
            hasher.update(data: withUnsafeBytes(of: UInt64(bytes.count).bigEndian) { Data($0) })
            hasher.update(data: bytes)
        }
        return HexText.lowercase(hasher.finalize())
    }
}

/// C3-PRO's structural rule for a StudyIntroConfiguration file (docs/C3PRO.md).
enum StudyIntroValidation {
    /// C3's message when `items` is missing (`C3Error.invalidJSON`).
    static let noItemsMessage = "Invalid JSON: No \u{201C}items\u{201D} array of dictionaries found"

    static func check(_ intro: JSONValue, file: String) throws {
        guard intro.objectValue != nil else {
            throw ConsentCoreError(.invalidConfiguration, "expected a JSON object, found \(intro.typeName)", file: file)
        }
        guard let items = intro["items"]?.arrayValue,
            items.allSatisfy({ $0.objectValue?.values.allSatisfy { $0.stringValue != nil } ?? false })
        else {
            throw ConsentCoreError(.invalidConfiguration, noItemsMessage, file: file)
        }
    }
}
