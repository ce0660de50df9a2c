import AuditTrail
import ConsentCore
import ConsentSigning
import Foundation
import NIOConcurrencyHelpers
import Testing

@testable import ConsentAgent

/// The journal that lets the next start tell an interrupted `flow.complete` from a finished one.
@Suite struct CompletionJournalTests {
    static let record = "0a1b2c3d-0000-4000-8000-00000000abcd"

    @Test func eachStageOfAnInterruptedCompletionIsReportedForWhatItIs() throws {
        let state = try TestSupport.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: state) }
        let records = state.appendingPathComponent("records")
        try FileManager.default.createDirectory(at: records, withIntermediateDirectories: true)
        let journal = CompletionJournal(stateDirectory: state)

        try journal.begin(flow: "f-composing")  // killed while composing
        try journal.begin(flow: "f-writing")  // killed while writing: a half-written temporary directory
        try journal.writing(flow: "f-writing", record: "0a1b2c3d-0000-4000-8000-000000000001")
        let half = records.appendingPathComponent(".0a1b2c3d-0000-4000-8000-000000000001.tmp-77")
        try FileManager.default.createDirectory(at: half, withIntermediateDirectories: false)
        try journal.begin(flow: "f-renamed")  // killed after the rename, before the entry was ended
        try journal.writing(flow: "f-renamed", record: Self.record)
        try FileManager.default.createDirectory(at: records.appendingPathComponent(Self.record), withIntermediateDirectories: false)
        try journal.begin(flow: "f-done")  // ended normally
        journal.end(flow: "f-done")
        let mode = try FileManager.default.attributesOfItem(atPath: journal.directory.appendingPathComponent("f-renamed").path)
        #expect((mode[.posixPermissions] as? NSNumber)?.intValue == 0o600)

        let report = CompletionRecovery.run(stateDirectory: state)
        #expect(report.removedLeftovers == [half.lastPathComponent])
        #expect(report.notCompleted == ["f-composing", "f-writing"])
        #expect(report.recordKept == ["f-renamed": Self.record])
        #expect(try FileManager.default.contentsOfDirectory(atPath: journal.directory.path).isEmpty)
        #expect(try FileManager.default.contentsOfDirectory(atPath: records.path) == [Self.record])
        #expect(CompletionRecovery.run(stateDirectory: state) == .init(removedLeftovers: [], notCompleted: [], recordKept: [:]))
    }

    @Test func aDamagedEntryNeverNamesAPathOutsideTheRecords() throws {
        let state = try TestSupport.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: state) }
        let journal = CompletionJournal(stateDirectory: state)
        try journal.begin(flow: "f-x")
        try Data("../../etc".utf8).write(to: journal.directory.appendingPathComponent("f-x"))
        let found = journal.recover(recordsDirectory: state.appendingPathComponent("records"))
        #expect(found == [.init(flow: "f-x", record: nil, recordExists: false)])
    }

    /// The journaled record maker brackets the whole chain: while an outer layer (the upload queue) still works on
    /// a written record, the entry names it; once the completion is reported nothing is left in the journal.
    @Test func theJournalOutlivesTheWriteUntilEveryLayerIsDone() async throws {
        let state = try TestSupport.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: state) }
        let probe = JournalProbe(base: try TestSupport.recordMaker(state: state), journal: CompletionJournal(stateDirectory: state))
        let maker = JournaledRecordMaker(base: probe, stateDirectory: state)
        let study = try TestSupport.sampleStudy()
        var options = CompletionOptions()
        options.flow = "f-journal"
        let outcome = ConsentOutcome(
            studyID: study.id, studyVersion: study.version, eligibilityAnswers: [true, true, false, true],
            shareWidely: true, givenName: "Ada", familyName: "Lovelace",
            signature: SignatureStrokes(strokes: [[
                StrokePoint(x: 0.1, y: 0.6, t: 0, p: 0.3), StrokePoint(x: 0.5, y: 0.3, t: 40, p: 0.6),
                StrokePoint(x: 0.9, y: 0.7, t: 80, p: 0.5),
            ]]))
        let receipt = try await maker.makeRecord(for: outcome, study: study, options: options)
        #expect(FileManager.default.fileExists(atPath: receipt.directory.path))
        // The receipt carries the digest the audit trail's record.written needs: the one of the bytes on disk.
        let manifest = try Data(contentsOf: receipt.directory.appendingPathComponent(RecordManifest.fileName))
        #expect(receipt.manifestSHA256 == AuditDigest(sha256Of: manifest).hex)
        #expect(probe.seen.withLockedValue { $0 } == receipt.id, "the entry named the record after the write")
        // The entry outlives the record maker: it ends only once the agent has handed the reply over.
        let completing = state.appendingPathComponent("completing").path
        #expect(try FileManager.default.contentsOfDirectory(atPath: completing) == ["f-journal"])
        maker.completionReported(flow: "f-journal")
        #expect(try FileManager.default.contentsOfDirectory(atPath: completing).isEmpty)
    }
}

/// A layer between the journal and the record writer, like the upload queue: reads the journal entry once the
/// record is written.
private final class JournalProbe: RecordMaking {
    let base: any RecordMaking
    let journal: CompletionJournal
    let seen = NIOLockedValueBox<String?>(nil)

    init(base: any RecordMaking, journal: CompletionJournal) {
        self.base = base
        self.journal = journal
    }

    func makeRecord(for outcome: ConsentOutcome, study: Study, options: CompletionOptions) async throws -> RecordReceipt {
        let receipt = try await base.makeRecord(for: outcome, study: study, options: options)
        let entry = journal.directory.appendingPathComponent(options.flow ?? "")
        seen.withLockedValue { $0 = (try? String(contentsOf: entry, encoding: .utf8)) }
        return receipt
    }
}
