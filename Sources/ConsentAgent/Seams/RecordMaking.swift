import ConsentCore
import Foundation

/// Turns a finished consent into a durable record: the seam where ConsentSigning plugs in.
///
/// The agent calls it from `flow.complete` and replies only after it returns, so an implementation must return
/// only once the record is durable (written to a temp directory, fsynced, renamed into place) and must never
/// overwrite an existing record. Errors it throws are answered as `RecordFailed` unless `RPCErrorMapping` maps
/// them more precisely.
///
/// `consentd` uses `SignedRecordMaker` (contract.json, consent.json, provenance.json, patient.json,
/// bundle.json, consent.pdf, signature.json, manifest.json, manifest.sig).
public protocol RecordMaking: Sendable {
    func makeRecord(for outcome: ConsentOutcome, study: Study, options: CompletionOptions) async throws -> RecordReceipt

    /// The successful `flow.complete` of `flow` has been audited and its reply handed to the connection: whatever
    /// kept the completion recoverable until now (the completion journal) may end.
    func completionReported(flow: String)
}

extension RecordMaking {
    public func completionReported(flow: String) {}
}

/// The options of `flow.complete`.
public struct CompletionOptions: Sendable, Hashable {
    /// A FHIR Patient (or a reference to one) supplied by the kiosk; PHI, never logged.
    public var patient: JSONValue?
    /// Whether to de-identify the record (Safe Harbor) when the signing module supports it.
    public var deidentify: Bool
    /// Where the consent was taken, as a FHIR Address; de-identification reduces it (else the site address).
    public var location: JSONValue?
    /// The wall-clock instant the consent was completed.
    public var completedAt: Date
    /// The audit log's chain head, signed into the record's manifest (nil when the agent keeps no audit log).
    public var auditHead: String?
    /// The flow being completed: the record maker journals the completion under this id (`CompletionJournal`), so a
    /// stop in the middle is found and reported at the next start.
    public var flow: String?
    /// A change's earlier record's Consent as it was signed (`consent.json`): the new record's Bundle sends it again,
    /// inactive (`ConsentSigner.sign`'s `amendedConsent`). PHI-free in itself, but the participant's: never logged.
    public var amendedConsent: JSONValue?

    public init(patient: JSONValue? = nil, deidentify: Bool = false, location: JSONValue? = nil, completedAt: Date = Date()) {
        self.patient = patient
        self.deidentify = deidentify
        self.location = location
        self.completedAt = completedAt
    }
}

/// Where a record was written, and what the layers after the writer need to know of it: they take it from here,
/// never from the record's files (which are the participant's, and which re-reading could only get out of step).
public struct RecordReceipt: Sendable, Hashable {
    public var id: String
    public var directory: URL
    /// File names inside `directory`, sorted.
    public var files: [String]
    /// The SHA-256 of the exact `manifest.json` bytes written, lowercase hex: the audit trail's `record.written`
    /// ties its line to the record with it. Nil when the maker wrote no signed manifest.
    public var manifestSHA256: String?
    /// The signed `consent.pdf` in plaintext, taken before the record was sealed (`recordEncryption`), for the
    /// participant's printed copy. PHI: held in memory only while the flow is kept; nil when the maker has none.
    public var consentPDF: Data?

    public init(id: String, directory: URL, files: [String], manifestSHA256: String? = nil, consentPDF: Data? = nil) {
        self.id = id
        self.directory = directory
        self.files = files
        self.manifestSHA256 = manifestSHA256
        self.consentPDF = consentPDF
    }
}
