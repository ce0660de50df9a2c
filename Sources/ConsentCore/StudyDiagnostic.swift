/// One problem a coordinator should fix before a study goes live, found while loading it.
///
/// Loading a study produces these instead of free text, so `consentctl inspect`, `consentctl lint` and the
/// agent's start-up log all say the same thing. A diagnostic names where the problem is (`file`, `location`) and
/// never quotes participant data: a study holds none.
public struct StudyDiagnostic: Sendable, Hashable, Codable, CustomStringConvertible {
    public enum Severity: String, Sendable, Hashable, Codable, Comparable {
        /// The kiosk runs the study, but not as its authors probably meant (C3-PRO's skip rules).
        case warning
        /// The study is broken: the agent refuses it, or a file it names is missing.
        case error

        public static func < (lhs: Self, rhs: Self) -> Bool { lhs == .warning && rhs == .error }
    }

    /// A stable, machine-readable name of the problem (`lint --json` prints it; docs/OPERATIONS.md lists them).
    public struct Code: RawRepresentable, Sendable, Hashable, Codable, CustomStringConvertible {
        public let rawValue: String
        public init(rawValue: String) { self.rawValue = rawValue }
        public var description: String { rawValue }

        // A bare string on the wire (`"code": "fileMissing"`), not an object.
        public init(from decoder: any Decoder) throws {
            rawValue = try decoder.singleValueContainer().decode(String.self)
        }

        public func encode(to encoder: any Encoder) throws {
            var container = encoder.singleValueContainer()
            try container.encode(rawValue)
        }

        // Warnings: C3-PRO's skip rules (docs/C3PRO.md).
        /// A Contract term that cannot become a section (no deciding coding, an unknown code, not an object).
        public static let termSkipped = Code(rawValue: "termSkipped")
        /// `term.text` that is not a string; the summary is left out.
        public static let termTextIgnored = Code(rawValue: "termTextIgnored")
        /// A section with no HTML: no "Learn more" page, and it is left out of the review document and the PDF.
        public static let sectionWithoutHTML = Code(rawValue: "sectionWithoutHTML")
        /// An eligibility characteristic that cannot become a question.
        public static let characteristicSkipped = Code(rawValue: "characteristicSkipped")
        /// `authority[0]` or `subject[0]` that does not resolve to a contained resource of the right type.
        public static let referenceUnresolved = Code(rawValue: "referenceUnresolved")
        /// Texts in intro.json that are ignored (the defaults are used).
        public static let introTextIgnored = Code(rawValue: "introTextIgnored")
        /// A translation lacks a page or text of the default language, which is used instead.
        public static let untranslated = Code(rawValue: "untranslated")
        /// A language the kiosk has no built-in texts for: its own screens and captions stay in English.
        public static let noBuiltInTexts = Code(rawValue: "noBuiltInTexts")
        /// A study JSON file that relies on what Apple's JSONSerialization accepts and RFC 8259 does not (a comma
        /// after the last member or element): the kiosk reads it as C3-PRO does (docs/C3PRO.md).
        public static let lenientJSON = Code(rawValue: "lenientJSON")
        /// An image a scene or an `<img>` names that UIs cannot be sent (`study.asset`): not found, not a PNG,
        /// JPEG, GIF or WebP image, or larger than `StudyAsset.maximumBytes`.
        public static let assetUnavailable = Code(rawValue: "assetUnavailable")

        // Errors of the comprehension check (docs/C3PRO.md, section 3a).
        /// A comprehension question that cannot be asked (a missing text, an answer that is no choice's index, a
        /// section that does not exist or has no HTML); it is left out of the check.
        public static let comprehensionInvalid = Code(rawValue: "comprehensionInvalid")
        /// A translation whose comprehension questions are missing or differ from the default language's in
        /// anything but their texts.
        public static let comprehensionUntranslated = Code(rawValue: "comprehensionUntranslated")

        // Key information (docs/C3PRO.md, section 3b).
        /// A consent that does not begin with key information (45 CFR 46.116(a)(5)(i)); a warning of
        /// `consentctl lint` only: loading does not report it, so a study without it loads and runs as before.
        public static let keyInformationMissing = Code(rawValue: "keyInformationMissing")
        /// A key information extension without a page name, a second one, or a page without content: an error.
        public static let keyInformationInvalid = Code(rawValue: "keyInformationInvalid")

        // Optional elements (docs/C3PRO.md, section 3c).
        /// An optional element that cannot be asked (an id out of the shape `[a-z0-9-]{1,40}` or used twice, a
        /// missing title, text or code); it is left out: an error.
        public static let optionalElementInvalid = Code(rawValue: "optionalElementInvalid")
        /// A translation whose optional elements differ from the default language's in their ids, order or codes:
        /// an error.
        public static let optionalElementUntranslated = Code(rawValue: "optionalElementUntranslated")

        // Errors.
        /// A file the study names does not exist (an HTML page, the review document, an image).
        public static let fileMissing = Code(rawValue: "fileMissing")
        /// The sharing step is asked for but its "learn more" document is missing.
        public static let sharingDocumentMissing = Code(rawValue: "sharingDocumentMissing")
        /// The Contract is missing, unreadable, not JSON, not a Contract, or has no usable term.
        public static let contractUnreadable = Code(rawValue: "contractUnreadable")
        /// Another file the study uses is unreadable or invalid (options.json, intro.json, an HTML page).
        public static let fileInvalid = Code(rawValue: "fileInvalid")
    }

    public var severity: Severity
    public var code: Code
    /// The file concerned, relative to the study folder when it is inside it (the missing file for `fileMissing`).
    public var file: String?
    /// Where in the study the problem is named: `term[2]`, `subject[0]`, `options.shareMoreInfoDocument`.
    public var location: String?
    /// One sentence: what is wrong and what happens because of it.
    public var message: String

    public init(_ severity: Severity, _ code: Code, file: String? = nil, location: String? = nil, _ message: String) {
        self.severity = severity
        self.code = code
        self.file = file
        self.location = location
        self.message = message
    }

    public static func warning(_ code: Code, file: String? = nil, location: String? = nil, _ message: String) -> Self {
        Self(.warning, code, file: file, location: location, message)
    }

    public static func error(_ code: Code, file: String? = nil, location: String? = nil, _ message: String) -> Self {
        Self(.error, code, file: file, location: location, message)
    }

    /// `error fileMissing privacy.html (term[2]): …`
    public var description: String {
        var head = "\(severity.rawValue) \(code)"
        if let file { head += " \(file)" }
        if let location { head += " (\(location))" }
        return "\(head): \(message)"
    }
}

extension Array where Element == StudyDiagnostic {
    public var hasErrors: Bool { contains { $0.severity == .error } }
    public var errors: [StudyDiagnostic] { filter { $0.severity == .error } }
    public var warnings: [StudyDiagnostic] { filter { $0.severity == .warning } }
    /// The free-text warnings of before diagnostics existed (`Study.warnings`, `inspect --json` `warnings`).
    /// C3-PRO logs neither a section without HTML (a choice) nor an image it cannot send (its images are the app's
    /// own assets); `consentctl lint` lists both.
    var legacyWarnings: [String] {
        filter { $0.code != .sectionWithoutHTML && $0.code != .assetUnavailable }.map(\.message)
    }
}
