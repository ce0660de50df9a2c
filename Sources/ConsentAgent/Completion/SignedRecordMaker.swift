import AuditTrail
import ConsentCore
import ConsentRecords
import ConsentSigning
import FileBytes
import Foundation
import Logging
import NIOPosix

/// The agent's record maker: composes the signed record (PDF, signature PNG, FHIR resources, signed manifest) and
/// writes it durably under `<state>/records/<id>/`.
///
/// `RecordWriter` writes into a temporary directory, fsyncs every file and the directory, renames it into place
/// without ever replacing an existing record, and fsyncs the parent; so when `makeRecord` returns, the record
/// survives a crash, and the `flow.complete` reply that follows can promise it.
public struct SignedRecordMaker: RecordMaking {
    public let composer: ConsentRecordComposer
    public let recordsDirectory: URL
    /// The entry itself is kept by `JournaledRecordMaker`, around every layer; this one only names the record in it.
    let journal: CompletionJournal
    let logger: Logger
    /// For a record stored encrypted at rest that is also uploaded: keeps the upload copy of its transaction Bundle
    /// (`UploadPayloadStore.store`, sealed under the agent's upload key) before the record is written, since the
    /// record itself will hold only envelopes the kiosk cannot open. Nil: records are not uploaded, or plaintext.
    public var sealUploadPayload: (@Sendable (_ recordID: String, _ bundle: Data) throws -> Void)?
    /// Where the record is composed, signed and written (`DiskWork`).
    let disk: DiskWork

    public init(composer: ConsentRecordComposer, stateDirectory: URL, logger: Logger, pool: NIOThreadPool = .singleton) {
        self.composer = composer
        self.recordsDirectory = URL(fileURLWithPath: StateLayout(root: stateDirectory.path).records)
        self.journal = CompletionJournal(stateDirectory: stateDirectory)
        self.logger = logger
        self.disk = DiskWork(pool: pool)
    }

    /// Composing the PDF, signing and the fsyncs hold a thread for tens of milliseconds: they run on the disk pool,
    /// not on a thread of Swift's shared executor, which the actor and every other task need.
    public func makeRecord(for outcome: ConsentOutcome, study: Study, options: CompletionOptions) async throws -> RecordReceipt {
        let maker = self
        return try await disk.run { try maker.writeRecord(for: outcome, study: study, options: options) }
    }

    private func writeRecord(for outcome: ConsentOutcome, study: Study, options: CompletionOptions) throws -> RecordReceipt {
        let composed = try composer.compose(
            outcome: outcome, study: study, patient: options.patient, deidentify: options.deidentify,
            location: options.location, signedAt: options.completedAt, auditHead: options.auditHead,
            amendedConsent: options.amendedConsent)
        for warning in composed.pdfWarnings {
            // Warnings name study markup problems (a section, an image), never participant data.
            logger.warning("consent PDF", metadata: ["study": "\(study.id)", "warning": "\(warning)"])
        }
        // Named before the rename: at the next start, whether this record exists tells how far the completion got.
        if let flow = options.flow { try journal.writing(flow: flow, record: composed.record.id) }
        if let sealUploadPayload, composed.record.manifest.encryption != nil {
            // Before the record: a record on disk always has its payload; a payload without its record is removed
            // at the next start.
            try sealUploadPayload(composed.record.id, try composed.record.bundle.serialized(pretty: true))
        }
        let directory = try RecordWriter.write(composed.record, into: recordsDirectory)
        let manifest = composed.record.file(RecordManifest.fileName).map { AuditDigest(sha256Of: $0).hex }
        return RecordReceipt(
            id: composed.record.id, directory: directory, files: composed.record.files.map(\.name).sorted(),
            manifestSHA256: manifest, consentPDF: composed.pdf)
    }
}
