import AuditTrail
import FileBytes
import Foundation
import Logging
import UploadQueue

/// What the assembly does at start about completions a stop interrupted (`CompletionRecovery`): it reports them
/// and queues the records they kept.
extension AgentAssembly {
    /// What a stop in the middle of `flow.complete` left: a technician finds it in the journal (ids only, no PHI).
    func reportInterruptedCompletions(_ report: CompletionRecovery.Report, audit: AuditLog, logger: Logger) {
        for name in report.removedLeftovers {
            logger.notice("removed an interrupted record write", metadata: ["leftover": "\(name)"])
        }
        for flow in report.notCompleted {
            logger.warning(
                "completion interrupted by a stop: no record was kept, the flow was not completed; the participant must consent again",
                metadata: ["flow": "\(flow)"])
        }
        for (flow, record) in report.recordKept.sorted(by: { $0.key < $1.key }) {
            logger.notice(
                "completion interrupted by a stop after its record was in place: the record is complete; the kiosk was not told",
                metadata: ["flow": "\(flow)", "record": "\(record)"])
        }
        let interrupted = report.notCompleted.map { ($0, nil as String?) }
            + report.recordKept.sorted(by: { $0.key < $1.key }).map { ($0.key, $0.value as String?) }
        for (flow, record) in interrupted {
            do {
                let recordID = try record.map { try AuditIdentifier($0) }
                try audit.append(.completionInterrupted(flow: try AuditIdentifier(flow), record: recordID))
            } catch {
                logger.error("audit: cannot record an interrupted completion", metadata: ["flow": "\(flow)", "error": "\(error)"])
            }
        }
    }

    /// Queues the records an interrupted completion kept but may not have queued (the stop came between the write
    /// and the queue entry). One already queued or parked is left alone.
    func queueKeptRecords(_ report: CompletionRecovery.Report, upload: UploadService, stateDirectory: URL, logger: Logger) {
        guard !report.recordKept.isEmpty else { return }
        let status: QueueStatus
        do { status = try upload.status() } catch {
            logger.error("cannot read the upload queue to check interrupted records", metadata: ["error": "\(error)"])
            return
        }
        let queued = Set((status.entries + status.parked).map(\.recordID))
        for record in report.recordKept.values.sorted() where !queued.contains(record) {
            let directory = URL(fileURLWithPath: StateLayout(root: stateDirectory.path).record(record))
            do {
                _ = try upload.enqueue(recordID: record, recordDirectory: directory)
                logger.notice("queued the record of an interrupted completion for upload", metadata: ["record": "\(record)"])
            } catch {
                logger.error(
                    "record of an interrupted completion not queued for upload; queue it again with consentctl",
                    metadata: ["record": "\(record)", "error": "\(error)"])
            }
        }
    }
}
