import ConsentCore
import Foundation
import NIOPosix

/// Keeps a completion journal entry (`<state>/completing/<flow>`) around everything `base` does, so a stop at any
/// point of `flow.complete` is found at the next start (`CompletionRecovery`).
///
/// It must be the outermost record maker: the entry of a failed completion ends when every layer is done, and the
/// entry of a kept record only when the agent has audited it and handed over the reply (`completionReported`), so
/// a record that was written but not yet queued for upload, audited or reported is found at the next start. The layer that
/// writes the record names it in the entry just before the rename (`CompletionJournal.writing`).
public struct JournaledRecordMaker: RecordMaking {
    public let base: any RecordMaking
    let journal: CompletionJournal
    /// The journal's small fsync'd writes run on the disk pool (`DiskWork`).
    let disk: DiskWork

    public init(base: any RecordMaking, stateDirectory: URL, pool: NIOThreadPool = .singleton) {
        self.base = base
        self.journal = CompletionJournal(stateDirectory: stateDirectory)
        self.disk = DiskWork(pool: pool)
    }

    public func makeRecord(for outcome: ConsentOutcome, study: Study, options: CompletionOptions) async throws -> RecordReceipt {
        // A journal that cannot be written (read-only or full disk) fails the completion before anything is composed.
        guard let flow = options.flow else { return try await base.makeRecord(for: outcome, study: study, options: options) }
        let journal = self.journal
        try await disk.run { try journal.begin(flow: flow) }
        do {
            return try await base.makeRecord(for: outcome, study: study, options: options)
        } catch {
            _ = try? await disk.run { journal.end(flow: flow) }
            throw error
        }
    }

    /// A kept record's entry ends only here, once `flow.completed` is audited and the reply is on its way: a stop
    /// before that is reported at the next start as a kept record (`flow.interrupted`, `record_kept`).
    public func completionReported(flow: String) {
        journal.end(flow: flow)
    }
}
