/// How a study's consent runs: C3-PRO's `ConsentTaskOptions` (docs/C3PRO.md), read from the study's `options.json`.
///
/// Defaults follow C3 except `askToCreatePasscode`, which is off: a kiosk is shared, and a PIN only helps when the
/// participant later withdraws at the same kiosk.
public struct ConsentOptions: Sendable, Hashable {
    public var askForSharing = true
    /// Name (no extension) of the HTML shown under "Learn more about data sharing"; required when sharing is asked.
    public var shareMoreInfoDocument = "Consent_sharing"
    /// Name (no extension) of an HTML that replaces the generated review document and PDF body.
    public var reviewConsentDocument: String? = nil
    /// The confirmation shown after Agree.
    public var reasonForConsent = BuiltInTexts.english.signaturePageContent
    public var askToCreatePasscode = false
    /// A witness gives their name and signs after the consent signature.
    public var requireWitness = false
    /// A legally authorized representative may sign on the participant's behalf.
    public var allowRepresentative = false
    /// The relationships a representative chooses from (`RepresentativeRelationship.defaults` unless listed).
    public var representativeRelationships = RepresentativeRelationship.defaults

    /// The study as a FHIR `ResearchStudy` identifier (`researchStudy` in `options.json`): what the record's
    /// `ResearchSubject.study` and the Consent's provision name. Default: `urn:consent-kiosk:study` | the study id.
    public var researchStudy: ResearchStudyIdentifier? = nil
    /// What happens when a comprehension question is missed repeatedly (`comprehension` in `options.json`);
    /// applies only when the Contract has questions.
    public var comprehension = ComprehensionPolicy()

    public init() {}

    /// The keys `options.json` may carry; anything else is refused, so a typo cannot silently change a consent.
    public static let knownKeys: Set<String> = [
        "askForSharing", "shareMoreInfoDocument", "reviewConsentDocument", "reasonForConsent", "askToCreatePasscode",
        "requireWitness", "allowRepresentative", "representativeRelationships", "researchStudy", "comprehension",
    ]

    /// Reads options from the JSON object of `options.json`.
    ///
    /// - Throws: `ConsentCoreError.Code.invalidConfiguration` naming the key for an unknown key or a wrong type.
    public static func from(json: JSONValue, file: String) throws -> ConsentOptions {
        guard let members = json.objectValue else {
            throw ConsentCoreError(.invalidConfiguration, "expected a JSON object, found \(json.typeName)", file: file)
        }
        if let unknown = members.keys.sorted().first(where: { !knownKeys.contains($0) }) {
            throw ConsentCoreError(
                .invalidConfiguration,
                "unknown option \"\(unknown)\"; known options are \(knownKeys.sorted().joined(separator: ", "))",
                file: file)
        }
        func bool(_ key: String) throws -> Bool? {
            guard let value = members[key] else { return nil }
            guard let b = value.boolValue else {
                throw ConsentCoreError(.invalidConfiguration, "option \"\(key)\" must be true or false, found \(value.typeName)", file: file)
            }
            return b
        }
        func string(_ key: String, nullable: Bool = false) throws -> String?? {
            guard let value = members[key] else { return .none }
            if nullable, value.isNull { return .some(nil) }
            guard let s = value.stringValue, !s.isEmpty else {
                throw ConsentCoreError(.invalidConfiguration, "option \"\(key)\" must be a non-empty string, found \(value.typeName)", file: file)
            }
            return .some(s)
        }
        var options = ConsentOptions()
        if let v = try bool("askForSharing") { options.askForSharing = v }
        if let v = try bool("askToCreatePasscode") { options.askToCreatePasscode = v }
        if case .some(let v?) = try string("shareMoreInfoDocument") { options.shareMoreInfoDocument = v }
        if case .some(let v) = try string("reviewConsentDocument", nullable: true) { options.reviewConsentDocument = v }
        if case .some(let v?) = try string("reasonForConsent") { options.reasonForConsent = v }
        if let v = try bool("requireWitness") { options.requireWitness = v }
        if let v = try bool("allowRepresentative") { options.allowRepresentative = v }
        if let value = members["representativeRelationships"] {
            guard options.allowRepresentative else {
                throw ConsentCoreError(
                    .invalidConfiguration, "option \"representativeRelationships\" needs \"allowRepresentative\": true", file: file)
            }
            options.representativeRelationships = try relationships(value, file: file)
        }
        if let value = members["researchStudy"] { options.researchStudy = try researchStudy(value, file: file) }
        if let value = members["comprehension"] { options.comprehension = try ComprehensionPolicy.from(json: value, file: file) }
        return options
    }

    /// `{"system": "https://clinicaltrials.gov", "value": "NCT01234567"}`: both non-empty strings, nothing else.
    private static func researchStudy(_ value: JSONValue, file: String) throws -> ResearchStudyIdentifier {
        let example = "{\"system\": \"https://clinicaltrials.gov\", \"value\": \"NCT01234567\"}"
        guard let members = value.objectValue else {
            throw ConsentCoreError(.invalidConfiguration, "option \"researchStudy\" must be an object such as \(example)", file: file)
        }
        if let unknown = members.keys.sorted().first(where: { !["system", "value"].contains($0) }) {
            throw ConsentCoreError(
                .invalidConfiguration, "option \"researchStudy\" has the unknown member \"\(unknown)\"; it takes system and value", file: file)
        }
        guard let system = members["system"]?.stringValue, !system.isEmpty, !system.contains(where: \.isWhitespace),
            let identifier = members["value"]?.stringValue, !identifier.allSatisfy(\.isWhitespace)
        else {
            throw ConsentCoreError(
                .invalidConfiguration,
                "option \"researchStudy\" needs a \"system\" (a URI without spaces) and a non-empty \"value\", as in \(example)",
                file: file)
        }
        return ResearchStudyIdentifier(system: system, value: identifier)
    }

    /// `[{"code": "PRN", "display": "Parent", "system": …}, …]`: codes unique, display required, system optional.
    private static func relationships(_ value: JSONValue, file: String) throws -> [RepresentativeRelationship] {
        let key = "representativeRelationships"
        guard let items = value.arrayValue, !items.isEmpty else {
            throw ConsentCoreError(.invalidConfiguration, "option \"\(key)\" must be a non-empty array of {code, display}", file: file)
        }
        var seen: Set<String> = []
        return try items.enumerated().map { index, item in
            let path = "\(key)[\(index)]"
            guard let members = item.objectValue else {
                throw ConsentCoreError(.invalidConfiguration, "\(path) must be an object {code, display}", file: file)
            }
            if let unknown = members.keys.sorted().first(where: { !["code", "display", "system"].contains($0) }) {
                throw ConsentCoreError(.invalidConfiguration, "\(path) has the unknown member \"\(unknown)\"", file: file)
            }
            func text(_ name: String) -> String? {
                guard let s = members[name]?.stringValue, !s.isEmpty else { return nil }
                return s
            }
            guard let code = text("code"), let display = text("display") else {
                throw ConsentCoreError(.invalidConfiguration, "\(path) needs a non-empty \"code\" and \"display\"", file: file)
            }
            if members["system"] != nil, text("system") == nil {
                throw ConsentCoreError(.invalidConfiguration, "\(path).system must be a non-empty string (a code system URI)", file: file)
            }
            guard seen.insert(code).inserted else {
                throw ConsentCoreError(.invalidConfiguration, "\(path) repeats the code \"\(code)\"", file: file)
            }
            return RepresentativeRelationship(
                code: code, display: display, system: text("system") ?? RepresentativeRelationship.roleCodeSystem)
        }
    }
}

/// A `ResearchStudy` named by identifier (FHIR R4 `Identifier`): the registry's URI and the study's id in it.
public struct ResearchStudyIdentifier: Sendable, Hashable {
    /// The default system: the study's id in this project's namespace, for studies not registered anywhere.
    public static let defaultSystem = "urn:consent-kiosk:study"

    public var system: String
    public var value: String

    public init(system: String, value: String) {
        self.system = system
        self.value = value
    }
}
