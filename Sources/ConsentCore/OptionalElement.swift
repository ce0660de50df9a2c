/// One optional part of a consent (docs/C3PRO.md, section 3c): something the participant accepts or declines on
/// its own, as a paper form has a checkbox or initials for it (storing samples for future research, being
/// contacted about other studies). C3-PRO has one such choice, the data sharing; the others are a Contract
/// extension of this project, so a study without them runs exactly as before.
///
/// Each language's Contract carries its own elements, with the same ids and codes as the default language's: only
/// the texts and the "Learn more" page differ.
public struct OptionalElement: Sendable, Hashable {
    /// The Contract extension (`Contract.extension[]`) that holds one element, its members nested.
    public static let extensionURL = "urn:consent-kiosk:optional-element"
    /// The most characters an id has (`[a-z0-9-]{1,40}`).
    public static let maximumIDLength = 40

    /// Stable across languages and versions: the key of `optional.answer`'s answers and of the record.
    public var id: String
    public var title: String
    /// The question the participant answers Yes or No.
    public var text: String
    /// The "Learn more" page's base name and HTML, when the element has one.
    public var htmlContentFile: String?
    public var htmlContent: String?
    /// What Yes permits, carried into the FHIR Consent (docs/RECORDS.md).
    public var code: OptionalElementCode

    public init(
        id: String, title: String, text: String, htmlContentFile: String? = nil, htmlContent: String? = nil,
        code: OptionalElementCode
    ) {
        self.id = id
        self.title = title
        self.text = text
        self.htmlContentFile = htmlContentFile
        self.htmlContent = htmlContent
        self.code = code
    }

    /// Whether `id` has the shape `[a-z0-9-]{1,40}`.
    public static func isValidID(_ id: String) -> Bool {
        !id.isEmpty && id.utf8.count <= maximumIDLength
            && id.utf8.allSatisfy { ($0 >= 0x61 && $0 <= 0x7A) || ($0 >= 0x30 && $0 <= 0x39) || $0 == 0x2D }
    }
}

/// An element's `valueCoding`: what Yes permits.
public struct OptionalElementCode: Sendable, Hashable, Codable {
    public var system: String
    public var code: String
    public var display: String?

    public init(system: String, code: String, display: String? = nil) {
        self.system = system
        self.code = code
        self.display = display
    }
}

/// One element and the participant's answer, as a finished flow's record keeps it.
public struct OptionalElementAnswer: Sendable, Hashable {
    public var element: OptionalElement
    /// Yes: permitted; No: not.
    public var accepted: Bool

    public init(element: OptionalElement, accepted: Bool) {
        self.element = element
        self.accepted = accepted
    }
}

/// Reads the optional elements of a Contract (`ContractConverter`).
enum OptionalElementReader {
    /// The valid elements, in extension order, and a diagnostic for each problem: an element without an id of
    /// the shape `[a-z0-9-]{1,40}`, with an id used before, or without a title, text or code is left out
    /// (`optionalElementInvalid`); one whose "Learn more" page is missing is kept without it (`fileMissing`), since
    /// its question still stands.
    ///
    /// - Throws: the file error of a page that exists but is unreadable, too large or not UTF-8, as for sections.
    static func elements(
        in contract: JSONValue, contractName: String, files: StudyFileReader?
    ) throws -> (elements: [OptionalElement], diagnostics: [StudyDiagnostic]) {
        var elements: [OptionalElement] = []
        var diagnostics: [StudyDiagnostic] = []
        let extensions = contract["extension"]?.arrayValue ?? []
        var position = 0
        for (index, item) in extensions.enumerated() where item["url"]?.stringValue == OptionalElement.extensionURL {
            defer { position += 1 }
            let location = "extension[\(index)]"
            func invalid(_ message: String) {
                diagnostics.append(
                    .error(
                        .optionalElementInvalid, file: contractName, location: location,
                        "optional element \(position + 1) is left out: \(message)"))
            }
            var strings: [String: String] = [:]
            var code: OptionalElementCode?
            var problem: String?
            for entry in item["extension"]?.arrayValue ?? [] {
                let url = entry["url"]?.stringValue ?? ""
                switch url {
                case "id", "title", "text", "htmlContentFile":
                    guard let text = entry["valueString"]?.stringValue, !text.allSatisfy(\.isWhitespace) else {
                        problem = problem ?? "its \"\(url)\" needs a non-empty valueString"
                        continue
                    }
                    if strings[url] != nil { problem = problem ?? "it has a second \"\(url)\"" }
                    strings[url] = text
                case "code":
                    guard let system = entry["valueCoding"]?["system"]?.stringValue, !system.isEmpty,
                        let value = entry["valueCoding"]?["code"]?.stringValue, !value.allSatisfy(\.isWhitespace)
                    else {
                        problem = problem ?? "its \"code\" needs a valueCoding with a system and a code"
                        continue
                    }
                    if code != nil { problem = problem ?? "it has a second \"code\"" }
                    code = OptionalElementCode(
                        system: system, code: value, display: entry["valueCoding"]?["display"]?.stringValue)
                default:
                    problem = problem ?? "unknown member \"\(url)\" (it takes id, title, text, htmlContentFile, code)"
                }
            }
            if let problem { invalid(problem); continue }
            guard let id = strings["id"] else { invalid("it has no \"id\""); continue }
            guard OptionalElement.isValidID(id) else {
                invalid("its id \"\(id.prefix(60))\" is not of the shape [a-z0-9-]{1,40} (lowercase letters, digits, hyphens)")
                continue
            }
            guard !elements.contains(where: { $0.id == id }) else {
                invalid("its id \"\(id)\" is used by an earlier element; every element needs its own")
                continue
            }
            guard let title = strings["title"] else { invalid("it has no \"title\""); continue }
            guard let text = strings["text"] else { invalid("it has no \"text\" (the question)"); continue }
            guard let code else { invalid("it has no \"code\" (a valueCoding: what Yes permits)"); continue }
            var element = OptionalElement(id: id, title: title, text: text, code: code)
            if let name = strings["htmlContentFile"] {
                if let files, let path = files.htmlPath(named: name) {
                    element.htmlContentFile = name
                    element.htmlContent = try files.text(path)
                } else {
                    diagnostics.append(
                        .error(
                            .fileMissing, file: "\(name).html", location: location,
                            "optional element \"\(id)\": HTML file \"\(name).html\" not found (looked in the study folder "
                                + "and HTMLContent/); the element is asked without its \"Learn more\""))
                }
            }
            elements.append(element)
        }
        return (elements, diagnostics)
    }

    /// What a translation's elements must share with the default language's: the same ids, in the same order,
    /// with the same codes. Only the texts and pages differ, so an answer means the same in every language.
    static func translationDiagnostics(
        _ translated: [OptionalElement], of base: [OptionalElement], language: String, contractFile: String
    ) -> [StudyDiagnostic] {
        let ours = translated.map { "\($0.id) \($0.code.system)|\($0.code.code)" }
        let theirs = base.map { "\($0.id) \($0.code.system)|\($0.code.code)" }
        guard ours != theirs else { return [] }
        let missing = base.map(\.id).filter { id in !translated.contains { $0.id == id } }
        let extra = translated.map(\.id).filter { id in !base.contains { $0.id == id } }
        var detail: [String] = []
        if !missing.isEmpty { detail.append("missing \(missing.joined(separator: ", "))") }
        if !extra.isEmpty { detail.append("not in the default language: \(extra.joined(separator: ", "))") }
        if detail.isEmpty { detail.append("their order or codes differ") }
        return [
            .error(
                .optionalElementUntranslated, file: contractFile, location: "extension",
                "\(language): the optional elements differ from the default language's (\(detail.joined(separator: "; "))); "
                    + "every language asks the same elements, with the same ids and codes, in the same order")
        ]
    }
}
