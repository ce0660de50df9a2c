import ConsentSigning
import FileBytes
import Foundation

/// One small file per completion in progress, `<state>/completing/<flow>`, so that a stop in the middle of
/// `flow.complete` (kill -9, power cut, OOM) is found and reported at the next start.
///
/// The file is created (empty) before the record is composed, gets the record id once it is known and before the
/// record is renamed into place, and is removed when the completion ended either way (`JournaledRecordMaker`: after
/// every layer, the upload queue's included). So at the next start a file left
/// behind says the completion was interrupted, and whether `records/<id>` exists says whether its record made it
/// (the rename is atomic: the record is whole or absent). It holds a flow id and a record id, both random: no PHI.
struct CompletionJournal: Sendable {
    let directory: URL

    init(stateDirectory: URL) {
        directory = URL(fileURLWithPath: StateLayout(root: stateDirectory.path).completing)
    }

    /// A completion whose agent stopped before it ended.
    struct Interrupted: Sendable, Hashable {
        var flow: String
        /// The record it was writing, when it got that far; `recordExists` says whether the rename happened.
        var record: String?
        var recordExists: Bool
    }

    /// Journals the start of `flow`'s completion, durably.
    func begin(flow: String) throws {
        if !FileManager.default.fileExists(atPath: directory.path) {
            try FileManager.default.createDirectory(
                at: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        }
        try DurableWrite.replace(entry(flow).path, contents: [UInt8]())
    }

    /// Names the record `flow` is about to rename into place (replacing the entry atomically). Does nothing when
    /// the completion is not journaled (no `begin`: a record maker used on its own, as in unit tests).
    func writing(flow: String, record: String) throws {
        guard FileManager.default.fileExists(atPath: entry(flow).path) else { return }
        // ENOSPC can strike the small write too (the fault tests' full tmpfs did): `replace` leaves no temp behind.
        try DurableWrite.replace(entry(flow).path, contents: Array(record.utf8))
    }

    /// Ends the entry: the record is durable, or nothing was kept and the flow is still there to retry.
    func end(flow: String) {
        try? DurableWrite.remove(entry(flow).path)
    }

    /// The completions a previous run left unfinished; their entries are removed. Call before serving.
    func recover(recordsDirectory: URL) -> [Interrupted] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
        var found: [Interrupted] = []
        for name in names.sorted() {
            let url = directory.appendingPathComponent(name)
            defer { _ = unlink(url.path) }
            guard !name.hasPrefix(".") else { continue }  // a `writing` temp file: its entry still says enough
            // Empty until the record id is known: a plain POSIX read (Foundation leaks on every empty file).
            let text = (try? FileBytes.read(url.path, limit: 4096)).map { String(decoding: $0, as: UTF8.self) }?
                .trimmingCharacters(in: .whitespacesAndNewlines)
            // Only a record id's shape may name a path: the entry is ours, but a damaged one must not reach outside.
            let record = text.flatMap { RecordID.isValid($0) ? $0 : nil }
            let exists = record.map {
                FileManager.default.fileExists(atPath: recordsDirectory.appendingPathComponent($0).path)
            } ?? false
            found.append(Interrupted(flow: name, record: record, recordExists: exists))
        }
        if !names.isEmpty { try? DurableWrite.syncDirectory(directory.path) }
        return found
    }

    private func entry(_ flow: String) -> URL {
        // Flow ids are minted by the agent ("f-" and hex), but the name is checked anyway: it becomes a path.
        let safe = flow.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-" || $0 == "_") }
        return directory.appendingPathComponent(safe && !flow.isEmpty ? flow : "flow-unnamed")
    }
}

/// What `consentd` does at start, before it serves: removes the leftovers of record writes a stop interrupted and
/// reports every completion that did not end, without PHI (flow and record ids are random).
public enum CompletionRecovery {
    public struct Report: Sendable, Hashable {
        /// Hidden temporary directories removed from `<state>/records/`.
        public var removedLeftovers: [String]
        /// Flows whose completion was interrupted and that kept no record: not completed.
        public var notCompleted: [String]
        /// Flows whose completion was interrupted after their record was in place: flow → record id.
        public var recordKept: [String: String]

        public init(removedLeftovers: [String] = [], notCompleted: [String] = [], recordKept: [String: String] = [:]) {
            self.removedLeftovers = removedLeftovers
            self.notCompleted = notCompleted
            self.recordKept = recordKept
        }
    }

    public static func run(stateDirectory: URL) -> Report {
        let records = URL(fileURLWithPath: StateLayout(root: stateDirectory.path).records)
        let removed = RecordWriter.removeInterruptedWrites(in: records)
        var report = Report(removedLeftovers: removed, notCompleted: [], recordKept: [:])
        for interrupted in CompletionJournal(stateDirectory: stateDirectory).recover(recordsDirectory: records) {
            if let record = interrupted.record, interrupted.recordExists {
                report.recordKept[interrupted.flow] = record
            } else {
                report.notCompleted.append(interrupted.flow)
            }
        }
        return report
    }
}
