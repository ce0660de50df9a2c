import AuditTrail
import Foundation
import Logging
import ServiceLifecycle
import UploadQueue

/// Runs the upload queue's delivery loop for the agent's lifetime, logging and auditing what it does.
///
/// It starts before the listener and stops after it (service order), so a record queued by the last
/// `flow.complete` is on disk before the loop stops; it is delivered after the next start.
public struct UploadQueueService: Service {
    public let upload: UploadService

    /// Creates the queue over `<state>/queue/`.
    ///
    /// - Throws: `UploadQueueError` for a bad endpoint, an unreadable receiver key, or a queue folder it cannot make.
    public init(stateDirectory: URL, configuration: UploadConfiguration, audit: AuditLog?, logger: Logger) throws {
        let destination = try? AuditIdentifier(Self.destinationName(configuration))
        upload = try UploadService(
            stateDirectory: stateDirectory, configuration: configuration,
            onEvent: { event in Self.report(event, audit: audit, destination: destination, logger: logger) })
    }

    public func run() async throws {
        try await cancelWhenGracefulShutdown { await upload.run() }
    }

    /// The config key the records go to, for the audit line (never the URL, which may carry credentials).
    static func destinationName(_ configuration: UploadConfiguration) -> String {
        switch configuration.destination {
        case .fhir: return "upload.endpoint"
        case .encrypted: return "upload.encrypted_endpoint"
        }
    }

    static func report(_ event: UploadEvent, audit: AuditLog?, destination: AuditIdentifier?, logger: Logger) {
        func auditUpload(_ record: String, _ outcome: AuditUploadOutcome, _ status: Int?) {
            guard let audit, let destination, let id = try? AuditIdentifier(record) else { return }
            _ = try? audit.append(.recordUploaded(record: id, destination: destination, outcome: outcome, httpStatus: status))
        }
        switch event {
        case .delivered(let record, let failedAttempts):
            logger.info("record uploaded", metadata: ["record": "\(record)", "failedAttempts": "\(failedAttempts)"])
            auditUpload(record, .accepted, nil)
        case .retryScheduled(let record, let error, let next):
            logger.warning(
                "upload failed; retrying",
                metadata: ["record": "\(record)", "code": "\(error.code)", "error": "\(error.message)", "next": "\(next)"])
            auditUpload(record, .failed, error.httpStatus)
        case .halted(let record, let error):
            logger.error(
                "upload refused; the queue waits for `consentctl queue retry` or `park`",
                metadata: ["record": "\(record)", "code": "\(error.code)", "error": "\(error.message)"])
            auditUpload(record, .rejected, error.httpStatus)
        case .queueError(let error):
            logger.error("upload queue unusable; trying again later", metadata: ["error": "\(error)"])
        }
    }
}
