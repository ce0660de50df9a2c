/// An error of the consent core: a study that cannot be loaded, a Contract that cannot become a consent, or an
/// action the consent session refuses.
///
/// Shaped like swift-service-lifecycle's `ServiceGroupError`: an opaque `Code` that can grow without breaking
/// callers, a one-sentence message that states the fault and the remedy, and the file it concerns. Equality uses
/// the code only. Messages never contain PHI (names, dates of birth, free text typed by a participant).
public struct ConsentCoreError: Error, Sendable, Hashable, CustomStringConvertible {
    public struct Code: Sendable, Hashable, CustomStringConvertible {
        private enum Base: String, Sendable, Hashable {
            case fileNotFound, fileUnreadable, fileTooLarge, notUTF8, invalidJSON, notAContract, invalidField
            case contractHasNoTerms, invalidConfiguration, sharingDocumentMissing
            case stepMismatch, invalidAction, invalidAnswers, notEligible, missingName, missingSignature
            case invalidPasscode, flowFinished, staffNotUnlocked
        }
        private let base: Base
        private init(_ base: Base) { self.base = base }

        /// A file the study names does not exist.
        public static let fileNotFound = Code(.fileNotFound)
        /// A file exists but could not be read (permissions, a directory, I/O error).
        public static let fileUnreadable = Code(.fileUnreadable)
        /// A file is larger than the loader accepts.
        public static let fileTooLarge = Code(.fileTooLarge)
        /// A text file (HTML, JSON) is not valid UTF-8.
        public static let notUTF8 = Code(.notUTF8)
        /// A JSON file does not parse.
        public static let invalidJSON = Code(.invalidJSON)
        /// The JSON is not a FHIR `Contract`.
        public static let notAContract = Code(.notAContract)
        /// A field has the wrong JSON type or an invalid value.
        public static let invalidField = Code(.invalidField)
        /// No term of the Contract can become a consent section (C3's `consentContractHasNoTerms`).
        public static let contractHasNoTerms = Code(.contractHasNoTerms)
        /// The study's options are inconsistent (e.g. sharing asked without its "learn more" document).
        public static let invalidConfiguration = Code(.invalidConfiguration)
        /// The study asks for sharing, but its "learn more" document (`shareMoreInfoDocument`) is missing.
        public static let sharingDocumentMissing = Code(.sharingDocumentMissing)
        /// An action named a step the flow is not at.
        public static let stepMismatch = Code(.stepMismatch)
        /// An action that the current step does not offer.
        public static let invalidAction = Code(.invalidAction)
        /// Eligibility answers of the wrong count.
        public static let invalidAnswers = Code(.invalidAnswers)
        /// The participant is not eligible, so the consent cannot go on.
        public static let notEligible = Code(.notEligible)
        /// The printed name is missing a given or family name.
        public static let missingName = Code(.missingName)
        /// No signature was given.
        public static let missingSignature = Code(.missingSignature)
        /// The passcode is not 4 to 8 digits.
        public static let invalidPasscode = Code(.invalidPasscode)
        /// The flow has ended (completed, declined, expired, cancelled, ineligible).
        public static let flowFinished = Code(.flowFinished)
        /// A staff step action before the person obtaining consent unlocked (`staff.unlock`).
        public static let staffNotUnlocked = Code(.staffNotUnlocked)

        public var description: String { base.rawValue }
    }

    public let code: Code
    public let message: String
    /// The file the error concerns, when there is one.
    public let file: String?

    public init(_ code: Code, _ message: String, file: String? = nil) {
        self.code = code
        self.message = message
        self.file = file
    }

    public var description: String {
        if let file { return "\(file): \(message)" }
        return message
    }

    public static func == (lhs: Self, rhs: Self) -> Bool { lhs.code == rhs.code }
    public func hash(into hasher: inout Hasher) { hasher.combine(code) }
}
