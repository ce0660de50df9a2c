/// How a study's consent runs: C3-PRO's `ConsentTaskOptions` (spec §3.1), read from the study's `options.json`.
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
    public var reasonForConsent = ConsentTexts.signaturePageContent
    public var askToCreatePasscode = false

    public init() {}

    /// The keys `options.json` may carry; anything else is refused, so a typo cannot silently change a consent.
    public static let knownKeys: Set<String> = [
        "askForSharing", "shareMoreInfoDocument", "reviewConsentDocument", "reasonForConsent", "askToCreatePasscode",
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
        return options
    }
}
