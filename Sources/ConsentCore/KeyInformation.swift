/// The key information a consent begins with (docs/C3PRO.md, section 3b): the concise and focused presentation of
/// what most helps someone decide whether to take part, which the revised Common Rule (45 CFR 46.116(a)(5)(i))
/// asks to come first. C3-PRO has no place for it; it is a Contract extension of this project, so a study
/// without it runs exactly as before.
///
/// The extension names an HTML page, found like a section's `htmlContentFile` (the study folder, then
/// `HTMLContent/`; a translation's own folder first), so each language has its own.
public struct KeyInformation: Sendable, Hashable {
    /// The Contract extension (`Contract.extension[]`) whose `valueString` is the page's base name.
    public static let extensionURL = "urn:consent-kiosk:key-information"
    /// The rule a study without key information does not follow, as `consentctl lint` names it.
    public static let rule = "45 CFR 46.116(a)(5)(i)"

    /// The page's base name, as the extension gives it (`key-information` for `key-information.html`).
    public var htmlContentFile: String
    /// The page's HTML, never empty.
    public var htmlContent: String

    public init(htmlContentFile: String, htmlContent: String) {
        self.htmlContentFile = htmlContentFile
        self.htmlContent = htmlContent
    }
}

/// Reads the key information of a Contract (`ContractConverter`).
enum KeyInformationReader {
    /// The study's key information, or nil when the Contract has none, or names a page that cannot be shown
    /// (then with the error that says why: `fileMissing` for a page that is not there, `keyInformationInvalid`
    /// for an extension without a name or a page without content).
    ///
    /// - Throws: the file error of a page that exists but is unreadable, too large or not UTF-8, as for sections.
    static func read(
        in contract: JSONValue, contractName: String, files: StudyFileReader?
    ) throws -> (keyInformation: KeyInformation?, diagnostics: [StudyDiagnostic]) {
        let extensions = contract["extension"]?.arrayValue ?? []
        let found = extensions.enumerated().filter { $0.element["url"]?.stringValue == KeyInformation.extensionURL }
        guard let first = found.first else { return (nil, []) }
        let (index, item) = (first.offset, first.element)
        var diagnostics: [StudyDiagnostic] = []
        let location = "extension[\(index)]"
        // One page comes first; a second extension would leave the reader to guess which.
        for (other, _) in found.dropFirst() {
            diagnostics.append(
                .error(
                    .keyInformationInvalid, file: contractName, location: "extension[\(other)]",
                    "a second \(KeyInformation.extensionURL) extension is ignored; the consent begins with the one of \(location)"))
        }
        guard let name = item["valueString"]?.stringValue, !name.allSatisfy(\.isWhitespace) else {
            diagnostics.append(
                .error(
                    .keyInformationInvalid, file: contractName, location: location,
                    "the key information needs a valueString naming its HTML page (\"key-information\" for "
                        + "key-information.html); the consent is shown without it"))
            return (nil, diagnostics)
        }
        guard let files, let path = files.htmlPath(named: name) else {
            diagnostics.append(
                .error(
                    .fileMissing, file: "\(name).html", location: location,
                    "key information: HTML file \"\(name).html\" not found (looked in the study folder and HTMLContent/); "
                        + "the consent is shown without it"))
            return (nil, diagnostics)
        }
        let html = try files.text(path)
        guard !html.allSatisfy(\.isWhitespace) else {
            diagnostics.append(
                .error(
                    .keyInformationInvalid, file: path, location: location,
                    "the key information page \"\(name).html\" is empty; the consent is shown without it"))
            return (nil, diagnostics)
        }
        return (KeyInformation(htmlContentFile: name, htmlContent: html), diagnostics)
    }

    /// `consentctl lint`'s warning for a language whose consent does not begin with key information.
    static func missingDiagnostic(contractFile: String) -> StudyDiagnostic {
        .warning(
            .keyInformationMissing, file: contractFile, location: "extension",
            "the consent does not begin with key information, as \(KeyInformation.rule) asks (a concise presentation of "
                + "the purpose, duration, what will be done, foreseeable risks, expected benefits and alternatives); add "
                + "{\"url\": \"\(KeyInformation.extensionURL)\", \"valueString\": \"<HTML file base name>\"} to the "
                + "Contract's extension")
    }
}
