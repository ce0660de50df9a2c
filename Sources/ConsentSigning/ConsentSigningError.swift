/// An error of the signing module: input that cannot be signed, a kiosk key that cannot be used, a record that
/// cannot be written or verified, an envelope that cannot be sealed or opened.
///
/// Shaped like `ConsentCoreError` (and swift-service-lifecycle's `ServiceGroupError`): an opaque `Code` that can
/// grow without breaking callers, a one-sentence message that states the fault and the remedy, and the file it
/// concerns. Equality uses the code only. Messages never contain PHI: no names, no dates of birth, no addresses,
/// never a value taken from a Patient; they name the field instead.
public struct ConsentSigningError: Error, Sendable, Hashable, CustomStringConvertible {
    public struct Code: Sendable, Hashable, CustomStringConvertible {
        private enum Base: String, Sendable, Hashable {
            case notAPatient, invalidBirthDate, invalidLocation, invalidPatient
            case missingSignature, invalidSignatureImage, invalidPDF, studyMismatch, invalidSigner
            case keyFileNotFound, keyFileUnreadable, invalidKey
            case recordExists, writeFailed, manifestInvalid
            case envelopeInvalid, encryptionFailed, decryptionFailed
            case invalidSession
        }
        private let base: Base
        private init(_ base: Base) { self.base = base }

        /// The resource given as the participant is not a FHIR `Patient`.
        public static let notAPatient = Code(.notAPatient)
        /// `Patient.birthDate` is not a FHIR date (`YYYY`, `YYYY-MM` or `YYYY-MM-DD`).
        public static let invalidBirthDate = Code(.invalidBirthDate)
        /// The location to de-identify from is not a FHIR `Address` object.
        public static let invalidLocation = Code(.invalidLocation)
        /// A Patient element the signing reads has the wrong JSON type.
        public static let invalidPatient = Code(.invalidPatient)
        /// The outcome carries no signature strokes.
        public static let missingSignature = Code(.missingSignature)
        /// The signature image is not a PNG.
        public static let invalidSignatureImage = Code(.invalidSignatureImage)
        /// The consent document is not a PDF.
        public static let invalidPDF = Code(.invalidPDF)
        /// The outcome was collected for another study, or another version of it.
        public static let studyMismatch = Code(.studyMismatch)
        /// A witness or representative signature is incomplete.
        public static let invalidSigner = Code(.invalidSigner)
        /// A key file that must exist does not.
        public static let keyFileNotFound = Code(.keyFileNotFound)
        /// A key file exists but cannot be read or created (permissions, a directory, I/O).
        public static let keyFileUnreadable = Code(.keyFileUnreadable)
        /// A key file's content is not a key of the expected kind.
        public static let invalidKey = Code(.invalidKey)
        /// The record directory already exists; records are never overwritten.
        public static let recordExists = Code(.recordExists)
        /// Writing the record failed; nothing was left behind.
        public static let writeFailed = Code(.writeFailed)
        /// `manifest.json` or `manifest.sig` is missing or malformed.
        public static let manifestInvalid = Code(.manifestInvalid)
        /// An encrypted envelope is not the C3-PRO JSON shape.
        public static let envelopeInvalid = Code(.envelopeInvalid)
        /// Sealing an envelope failed.
        public static let encryptionFailed = Code(.encryptionFailed)
        /// Opening an envelope failed (wrong key, corrupt message).
        public static let decryptionFailed = Code(.decryptionFailed)

        /// A `SESSION.json` for offline signing is malformed.
        public static let invalidSession = Code(.invalidSession)

        public var description: String { base.rawValue }
    }

    public let code: Code
    public let message: String
    /// The file the error concerns, when there is one.
    public let file: String?
    /// What failed underneath (an errno, a crypto error), for logs; never shown with PHI.
    public let cause: (any Error)?

    public init(_ code: Code, _ message: String, file: String? = nil, cause: (any Error)? = nil) {
        self.code = code
        self.message = message
        self.file = file
        self.cause = cause
    }

    public var description: String {
        if let file { return "\(file): \(message)" }
        return message
    }

    public static func == (lhs: Self, rhs: Self) -> Bool { lhs.code == rhs.code }
    public func hash(into hasher: inout Hasher) { hasher.combine(code) }
}
