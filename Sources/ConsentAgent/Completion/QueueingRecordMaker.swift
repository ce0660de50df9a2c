import ConsentCore
import Logging
import UploadQueue

/// Queues every durable record for upload: the record maker the agent uses when an upload endpoint is configured.
///
/// The record is durable before it is queued, and the queue entry is durable before `flow.complete` replies, so a
/// crash in between loses neither. If queuing fails the consent still completes (the record is on disk and
/// verifies); the failure is logged for the operator, since failing the reply would only make the UI sign again.
public struct QueueingRecordMaker: RecordMaking {
    public let base: any RecordMaking
    public let upload: UploadService
    let logger: Logger

    public init(base: any RecordMaking, upload: UploadService, logger: Logger) {
        self.base = base
        self.upload = upload
        self.logger = logger
    }

    public func makeRecord(for outcome: ConsentOutcome, study: Study, options: CompletionOptions) async throws -> RecordReceipt {
        let receipt = try await base.makeRecord(for: outcome, study: study, options: options)
        do {
            try upload.enqueue(recordID: receipt.id, recordDirectory: receipt.directory)
        } catch {
            logger.error(
                "record not queued for upload; queue it again with consentctl",
                metadata: ["record": "\(receipt.id)", "error": "\(error)"])
        }
        return receipt
    }
}
