import Crypto
import Foundation

/// A study as the kiosk runs it: its Contract, the consent derived from it, the texts and options of its
/// folder, and a version hash over every file that shaped what the participant sees.
///
/// A study folder holds:
/// ```
/// contract.json            the FHIR Contract (required)
/// intro.json               C3-PRO StudyIntroConfiguration; its "eligibility" texts are used (optional)
/// options.json             ConsentOptions (optional)
/// <name>.html              HTML pages named by the Contract and the options,
/// HTMLContent/<name>.html  looked up in this order
/// ```
/// A Contract file can also be loaded on its own; HTML pages are then looked up beside it.
public struct Study: Sendable {
    public static let contractFileName = "contract.json"
    public static let introFileName = "intro.json"
    public static let optionsFileName = "options.json"

    /// The study id: the Contract's `id`, else the folder name.
    public var id: String
    /// The folder the study's files are read from.
    public var folder: URL
    /// The Contract as read, every member kept; the signing module starts from this.
    public var contract: JSONValue
    public var document: ConsentDocument
    public var options: ConsentOptions
    public var eligibilityMessages: EligibilityMessages
    /// The "Learn more about data sharing" HTML; present whenever `options.askForSharing` is.
    public var sharingHTML: String?
    /// The custom review document (`options.reviewConsentDocument`), when set and found.
    public var reviewHTML: String?
    /// SHA-256 (hex) over every file used, so a record pins exactly what the participant saw.
    public var version: String
    /// The files the version covers, relative to `folder`, sorted.
    public var files: [String]
    /// Everything the coordinator should fix, from the Contract and the folder's files (`consentctl lint`).
    public var diagnostics: [StudyDiagnostic]
    /// The messages C3-PRO would log: every diagnostic but `sectionWithoutHTML`, which C3 treats as a choice (the
    /// section simply stays out of the document), so only `diagnostics` and `consentctl lint` point it out.
    public var warnings: [String] { diagnostics.legacyWarnings }

    /// The first 12 hex digits of the version, for page footers and logs.
    public var shortVersion: String { String(version.prefix(12)) }

    /// Loads a study folder, or a single Contract file.
    ///
    /// - Throws: `ConsentCoreError` naming the file and the problem: a missing or unreadable Contract, JSON that
    ///   is not a Contract, a Contract with no usable term, invalid options, a missing sharing document
    ///   (`.sharingDocumentMissing`), an HTML page that is not UTF-8 or too large. Problems that leave the study
    ///   usable are `diagnostics` instead.
    public static func load(from url: URL, maximumFileBytes: Int = StudyFileReader.defaultMaximumFileBytes) throws -> Study {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory) else {
            throw ConsentCoreError(.fileNotFound, "no study folder or Contract file here", file: url.path)
        }
        let isFolder = isDirectory.boolValue
        let folder = isFolder ? url : url.deletingLastPathComponent()
        let contractFile = isFolder ? contractFileName : url.lastPathComponent
        let reader = StudyFileReader(root: folder, maximumFileBytes: maximumFileBytes)

        let contract = try reader.json(contractFile)
        var document = try ContractConverter.document(
            from: contract, contractFile: reader.url(contractFile).path, files: reader)
        var diagnostics = document.diagnostics

        var options = ConsentOptions()
        var messages = EligibilityMessages.defaults
        if isFolder {
            if reader.exists(optionsFileName) {
                options = try ConsentOptions.from(json: reader.json(optionsFileName), file: reader.url(optionsFileName).path)
            }
            if reader.exists(introFileName) {
                let introFile = reader.url(introFileName).path
                let intro = try reader.json(introFileName)
                try StudyIntroValidation.check(intro, file: introFile)
                let (applied, introWarnings) = EligibilityMessages.from(introConfig: intro, file: introFile)
                messages = applied
                diagnostics += introWarnings.map {
                    StudyDiagnostic.warning(.introTextIgnored, file: introFileName, location: "eligibility", $0)
                }
            }
        }

        var sharingHTML: String?
        if options.askForSharing {
            guard let path = reader.htmlPath(named: options.shareMoreInfoDocument) else {
                throw ConsentCoreError(
                    .sharingDocumentMissing,
                    "the sharing step needs \"\(options.shareMoreInfoDocument).html\" (in the study folder or HTMLContent/); "
                        + "add it, name another page in shareMoreInfoDocument, or set askForSharing to false",
                    file: reader.url("\(options.shareMoreInfoDocument).html").path)
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
                        .fileMissing, file: "\(name).html", location: "options.reviewConsentDocument",
                        "review document \"\(name).html\" not found; the generated review document is used"))
            }
        }
        diagnostics += StudyImageCheck.missingImages(
            document: document, sharingHTML: sharingHTML, sharingFile: reader.htmlPath(named: options.shareMoreInfoDocument),
            reviewHTML: reviewHTML, reviewFile: options.reviewConsentDocument.flatMap(reader.htmlPath(named:)),
            contractFile: contractFile, folder: folder)
        document.diagnostics = diagnostics

        let id = contract["id"]?.stringValue ?? folder.lastPathComponent
        return Study(
            id: id, folder: folder, contract: contract, document: document, options: options,
            eligibilityMessages: messages, sharingHTML: sharingHTML, reviewHTML: reviewHTML,
            version: versionHash(of: reader.usedFiles), files: reader.usedFiles.keys.sorted(), diagnostics: diagnostics)
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
        return hasher.finalize().map { String(format: "%02x", $0) }.joined()
    }
}

/// C3-PRO's structural rule for a StudyIntroConfiguration file (spec §2.4).
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
