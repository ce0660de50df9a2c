import ConsentCore
import Crypto
import Foundation
import JSONFoundation
import HexText

/// `manifest.json`: what a record holds and what it pins, signed by the kiosk into `manifest.sig`.
///
/// ```
/// {
///   "format": "consent-kiosk-record/1",
///   "recordID": "<uuid>",            "kioskID": "<kiosk id>",
///   "studyID": "<study id>",         "studyVersion": "<sha-256 hex of the study files>",
///   "signedAt": "<FHIR instant>",    "mode": "r4" | "stu3",   "deidentified": false,
///   "publicKey": { "algorithm": "Ed25519", "key": "<base64 of the 32 raw bytes>" },
///   "files": [ { "name": "bundle.json", "sha256": "<hex>", "size": 1234 }, ... ],  sorted by name
///   "auditHead": "<sha-256 hex of the audit log's last line>"                     only when given
///   "sections": [ { "title": "Overview", "type": "Overview", "sha256": "<hex>" }, ... ]  consents
///   "passcode": { "salt": "<base64>", "hash": "<base64>", "iterations": 210000 }     when a PIN was set
///   "withdraws": "<record id>"                                                       withdrawals
///   "previousRecord": "<record id>",                                                 re-consents
///   "amends": "<record id>",                                        changes of optional elements' answers
///   "language": "<BCP 47 tag of the consent the participant read>",
///   "encryption": { "scheme": "c3pro-envelope/rsa-oaep-aes-cbc", "keyID": "<recipient key id>",
///                   "files": [ { "name": "bundle.json.enc", "sha256": "<hex>", "size": 2345,
///                                "plaintext": "bundle.json" }, ... ] }                 only when encrypted
///   "signatures": [ { "role": "participant", "documentVersion": "<studyVersion>", "pdfSHA256": "<hex>",
///                     "signedAt": "<FHIR instant>", "biometricFile": "signature-participant.iso19794-7",
///                     "biometricSHA256": "<hex of the plaintext 19794-7 bytes>" }, ... ]
///   "biometricEscrow": { "scheme": ..., "keyID": ..., "files": [ { "name": "signature.json.escrow", ...,
///                        "plaintext": "signature.json", "plaintextSHA256": "<hex>" }, ... ] }   when escrowed
///   "comprehension": { "file": "questionnaire-response.json", "attemptsAllowed": 2, "onRepeatedMiss": "continue",
///                      "flaggedForStaff": false,
///                      "questions": [ { "section": 2, "correct": 1, "attempts": [0, 1], "understood": true } ] }
///                                                                     when the study asks comprehension questions
///   "optionalElements": [ { "id": "future-research", "system": "<code system>", "code": "<code>",
///                           "permitted": true }, ... ]            when the study has optional elements, in its order
///   "approval": { "sha256": "<hex of approval.json>", "keyFingerprint": "SHA256:<hex>", "approved": "YYYY-MM-DD",
///                 "expires": "YYYY-MM-DD", "site": "<site>", "reference": "IRB #…",
///                 "reviewPack": "<hex of pack.json>", "screensDigest": "<hex>" }             when approvals are checked
///                                                         (the last two when the approval binds a review pack)
/// }
/// ```
/// `auditHead` ties the record to the kiosk's hash-chained audit log (`AuditTrail`): the log line that follows it
/// names this record, so neither can be changed without the other showing it. It is omitted when nil, so records
/// signed without a log keep the bytes they always had.
/// `encryption` (`RecordEncryption`) lists the envelopes an encrypted record stores instead of its plaintext
/// files; `files` still holds the plaintext hashes, so a decrypted copy verifies against the same signed manifest.
/// `manifest.sig` is the base64 Ed25519 signature over the exact bytes of `manifest.json`, then a newline. The
/// manifest itself and its signature are not listed in `files`.
public struct RecordManifest: Sendable, Hashable, Codable {
    public static let currentFormat = "consent-kiosk-record/1"
    public static let fileName = "manifest.json"
    public static let signatureFileName = "manifest.sig"

    public struct PublicKey: Sendable, Hashable, Codable {
        public var algorithm: String
        public var key: String
    }

    public struct File: Sendable, Hashable, Codable {
        public var name: String
        public var sha256: String
        public var size: Int
    }

    /// An envelope stored in place of the plaintext file `plaintext`.
    public struct EncryptedFile: Sendable, Hashable, Codable {
        public var name: String
        public var sha256: String
        public var size: Int
        public var plaintext: String
        /// The plaintext's SHA-256 hex: kept for escrowed files (whose plaintext is nowhere in the record), so
        /// what the escrow key opens can be checked; nil (omitted) for record encryption, whose plaintext is in `files`.
        public var plaintextSHA256: String? = nil
    }

    /// One optional element's answer, as the record's Consent carries it (a nested `permit` or `deny`).
    public struct OptionalElementAnswer: Sendable, Hashable, Codable {
        public var id: String
        public var system: String
        public var code: String
        public var permitted: Bool

        init(_ answer: ConsentCore.OptionalElementAnswer) {
            id = answer.element.id
            system = answer.element.code.system
            code = answer.element.code.code
            permitted = answer.accepted
        }
    }

    public struct Encryption: Sendable, Hashable, Codable {
        public var scheme: String
        public var keyID: String
        public var files: [EncryptedFile]
    }

    public var format: String
    public var recordID: String
    public var studyID: String
    public var studyVersion: String
    public var signedAt: String
    public var kioskID: String
    public var mode: SigningMode
    public var deidentified: Bool
    public var publicKey: PublicKey
    public var files: [File]
    /// The audit log's chain head when the record was signed; nil when no audit log was given.
    public var auditHead: String?
    /// Each consent section's title, type and content hash, so a re-consent can show what changed since this
    /// record; nil in withdrawals and in records written before it existed.
    public var sections: [SectionFingerprint]?
    /// The participant's PIN as a salted PBKDF2 hash (never the digits), checked before the record is withdrawn.
    public var passcode: PasscodeHash?
    /// The record this one withdraws.
    public var withdraws: String?
    /// The record this re-consent replaces.
    public var previousRecord: String?
    /// The record whose answers to optional elements this change amends (`flow.start {change}`): the same study
    /// version, every answer as it now stands in `optionalElements`.
    public var amends: String?
    /// The language of the consent (a study folder's default or one of its translations); `studyVersion` is the
    /// version hash of that language's files. Nil only in records made before languages existed.
    public var language: String?
    /// How the record's files are encrypted at rest; nil for a plaintext record (whose bytes are then unchanged).
    public var encryption: Encryption?
    /// Each signature bound to its role, the document version, the PDF, its signing time and its biometric data
    /// (`SignatureBinding`); nil in records made before it existed, which still verify.
    public var signatures: [SignatureBinding]?
    /// The biometric data sealed to the escrow key (`signature.json` and the 19794-7 files as `<name>.escrow`,
    /// which `files` lists like any other file); nil when no escrow key was configured.
    public var biometricEscrow: Encryption?
    /// The comprehension check's answers and attempts (`ComprehensionRecord`); nil when the study asks no
    /// questions, and in records made before it existed.
    public var comprehension: Comprehension?
    /// Each optional element's answer (`OptionalElement`), in the study's order: its id, its code and whether Yes
    /// was given; nil when the study has none, and in records made before they existed.
    public var optionalElements: [OptionalElementAnswer]?
    /// The IRB approval the study ran under (`StudyApproval`): the SHA-256 of its `approval.json`, the approving
    /// key's fingerprint, its dates, site and reference; nil when the kiosk checks no approvals (`approvalKeys`).
    public var approval: StudyApprovalBinding?

    /// The manifest's bytes: pretty, sorted keys, so the same record always gives the same bytes.
    public func encoded() throws -> Data {
        // JSONEncoder's bytes with .prettyPrinted, .sortedKeys and .withoutEscapingSlashes, which wrote every record
        // before (RecordJSONEncodingTests).
        Data(try Self.encoder.encodedBytes(self, pretty: true) + [UInt8(ascii: "\n")])
    }

    private static let encoder = JSONValueEncoder.foundation()

    /// A manifest read from its file's bytes by the JSON module's parser (a `PasscodeHash`'s `Data` as base64, as
    /// `encoded()` writes it).
    ///
    /// - Throws: `JSONValueDecoder.Error` naming the member that does not fit.
    public static func decoded(_ bytes: some Collection<UInt8>) throws(JSONValueDecoder.Error) -> RecordManifest {
        try decoder.decode(RecordManifest.self, from: bytes)
    }

    private static let decoder = JSONValueDecoder.foundation()

    /// The entry of one file's bytes.
    static func entry(name: String, contents: Data) -> File {
        File(name: name, sha256: HexText.lowercase(SHA256.hash(data: contents)), size: contents.count)
    }
}
