import Foundation
import Testing

@testable import AuditTrail

/// A torn final line is what a power cut or a full disk leaves mid-write (kill -9 cannot: one write(2) per line).
@Suite struct AuditRecoveryTests {
    /// A log of one consent, then the first `keep` bytes of one more line, as a crash mid-write leaves it.
    private func makeTornLog(keep: Int) throws -> (directory: URL, torn: Data, goodLines: Int) {
        let directory = try AuditFixture.temporaryDirectory()
        let log = try AuditFixture.open(directory)
        for event in AuditFixture.consentEvents(flow: AuditFixture.flow(1), record: AuditFixture.flow(2)) { try log.append(event) }
        try log.append(.flowStarted(flow: AuditFixture.flow(3), study: AuditFixture.study))
        try log.close()
        let url = AuditFixture.current(directory)
        let bytes = try Data(contentsOf: url)
        let lines = try AuditFixture.lines(url)
        let lastLineStart = bytes.count - (lines.last?.count ?? 0) - 1
        let torn = bytes[lastLineStart..<(lastLineStart + keep)]
        try bytes.prefix(lastLineStart + keep).write(to: url)
        return (directory, Data(torn), lines.count - 1)
    }

    @Test(arguments: [1, 40, 150])
    func aTornLastLineIsCutOffRecordedAndTheChainGoesOn(keep: Int) throws {
        let (directory, torn, goodLines) = try makeTornLog(keep: keep)

        // Before the agent restarts, verify names the torn tail but the chain is intact.
        let before = try AuditVerifier.verify(directory: directory)
        #expect(before.isIntact && before.tornTailBytes == keep && before.lineCount == goodLines)

        let log = try AuditFixture.open(directory)
        #expect(log.recoveredBytes == keep)
        try log.append(.agentStopped)
        try log.close()
        let lines = try AuditFixture.parsed(AuditFixture.current(directory))
        #expect(lines.count == goodLines + 3)
        let recovered = lines[goodLines]
        #expect(recovered.event == "log.recovered" && recovered.outcome == "recovered")
        #expect(recovered.truncatedBytes == keep)
        #expect(recovered.truncatedSHA256 == AuditDigest(sha256Of: torn).hex)
        #expect(recovered.seq == UInt64(goodLines + 1))
        #expect(lines.suffix(2).map(\.event) == ["log.opened", "agent.stopped"])

        let after = try AuditVerifier.verify(directory: directory)
        #expect(after.isIntact && after.tornTailBytes == 0 && after.lineCount == goodLines + 3)
    }

    @Test func aFileOfOnlyATornLineStartsAFreshChain() throws {
        let directory = try AuditFixture.temporaryDirectory()
        try Data(#"{"seq":1,"ti"#.utf8).write(to: AuditFixture.current(directory))
        let log = try AuditFixture.open(directory)
        try log.close()
        let lines = try AuditFixture.parsed(AuditFixture.current(directory))
        #expect(lines.map(\.event) == ["log.recovered", "log.opened"])
        #expect(lines[0].prev == AuditDigest.genesis.hex && lines[0].truncatedBytes == 12)
        #expect(try AuditVerifier.verify(directory: directory).isIntact)
    }

    /// A last *complete* line that does not parse is not a crash: the log refuses to continue rather than
    /// chain onto something it cannot read.
    @Test func aCorruptLastCompleteLineRefusesToOpen() throws {
        let directory = try AuditFixture.temporaryDirectory()
        var log: AuditLog? = try AuditFixture.open(directory)
        try log?.close()
        log = nil
        let url = AuditFixture.current(directory)
        try (try Data(contentsOf: url) + Data("garbage\n".utf8)).write(to: url)
        #expect(throws: AuditTrailError(.corruptLog, "")) { try AuditFixture.open(directory) }
        #expect(try AuditVerifier.verify(directory: directory).problem?.kind == .unparsable)
    }

    /// A torn line inside a file that was rotated away is damage, not a crash in progress.
    @Test func aTornLineInARotatedFileIsBroken() throws {
        let directory = try AuditFixture.temporaryDirectory()
        let log = try AuditFixture.open(directory, maxFileBytes: 2048)
        for n in 0..<3 {
            for event in AuditFixture.consentEvents(flow: AuditFixture.flow(n), record: AuditFixture.flow(50 + n)) { try log.append(event) }
        }
        try log.close()
        let url = directory.appendingPathComponent("audit.log.1")
        let bytes = try Data(contentsOf: url)
        try bytes.prefix(bytes.count - 10).write(to: url)
        let problem = try #require(try AuditVerifier.verify(directory: directory).problem)
        #expect(problem.file == "audit.log.1" && (problem.kind == .tornLine))
    }
}

/// How a file's bytes become lines and a torn tail (`AuditLogFiles.File`), which the verifier, `audit show` and the
/// FuzzVerifiers target all go through.
@Suite struct AuditLogFileSplitTests {
    @Test func linesEndAtEachNewlineAndTheRestIsTheTornTail() {
        let file = AuditLogFiles.File(name: "audit.log", contents: Data("a\n\nbc\ntorn".utf8))
        #expect(file.lines == [Data("a".utf8), Data(), Data("bc".utf8)])
        #expect(file.torn == Data("torn".utf8))
    }

    @Test func aCleanFileHasNoTornTailAndAnEmptyOneNoLines() {
        let clean = AuditLogFiles.File(name: "audit.log", contents: Data("one\ntwo\n".utf8))
        #expect(clean.lines == [Data("one".utf8), Data("two".utf8)] && clean.torn.isEmpty)
        let empty = AuditLogFiles.File(name: "audit.log", contents: Data())
        #expect(empty.lines == [] && empty.torn.isEmpty)
        let missing = AuditLogFiles.File(name: "audit.log.1", contents: nil)
        #expect(missing.lines == nil && missing.torn.isEmpty)
    }

    /// A slice of a larger buffer starts at a non-zero index; the split counts from its first byte.
    @Test func aSliceIsSplitFromItsOwnStart() {
        let whole = Data("xx\nab\ncd".utf8)
        let file = AuditLogFiles.File(name: "audit.log", contents: whole[3...])
        #expect(file.lines == [Data("ab".utf8)])
        #expect(file.torn == Data("cd".utf8))
    }
}
