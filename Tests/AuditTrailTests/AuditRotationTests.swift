import Foundation
import Testing

@testable import AuditTrail

@Suite struct AuditRotationTests {
    /// Five consents in files of at most 2 KiB: several rotations.
    private func makeRotatedLog() throws -> URL {
        let directory = try AuditFixture.temporaryDirectory()
        let log = try AuditFixture.open(directory, maxFileBytes: 2048)
        for n in 0..<5 {
            for event in AuditFixture.consentEvents(flow: AuditFixture.flow(n), record: AuditFixture.flow(100 + n)) {
                try log.append(event)
            }
        }
        try log.close()
        return directory
    }

    private func rotatedNames(_ directory: URL) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: directory.path).filter { $0.hasPrefix("audit.log.") }
            .sorted { $0.count == $1.count ? $0 < $1 : $0.count < $1.count }
    }

    @Test func rotationKeepsTheChainAcrossFiles() throws {
        let directory = try makeRotatedLog()
        let rotated = try rotatedNames(directory)
        #expect(rotated.count >= 3)
        #expect(rotated == (1...rotated.count).map { "audit.log.\($0)" })
        let names = rotated + ["audit.log"]
        var previousLast: Data?
        var seq: UInt64 = 0
        for (index, name) in names.enumerated() {
            let url = directory.appendingPathComponent(name)
            let raw = try AuditFixture.lines(url)
            #expect(try Data(contentsOf: url).count <= 2048)
            let lines = try raw.map { try #require(AuditLine.parse($0)) }
            if let previousLast {
                // Each new file starts with log.rotated, chained to the previous file's last line.
                #expect(lines[0].event == "log.rotated")
                #expect(lines[0].previousFile == names[index - 1])
                #expect(lines[0].prev == AuditDigest(sha256Of: previousLast).hex)
            }
            #expect(lines.map(\.seq) == Array(seq + 1...seq + UInt64(lines.count)))
            seq += UInt64(lines.count)
            previousLast = raw.last
        }
        let report = try AuditVerifier.verify(directory: directory)
        #expect(report.isIntact)
        #expect(report.files == names)
        #expect(report.lastSequence == seq)
    }

    @Test func deletingARotatedFileIsNamed() throws {
        let directory = try makeRotatedLog()
        try FileManager.default.removeItem(at: directory.appendingPathComponent("audit.log.2"))
        let problem = try #require(try AuditVerifier.verify(directory: directory).problem)
        #expect(problem.kind == .missingFile && problem.file == "audit.log.2" && problem.line == nil)
    }

    @Test func deletingTheOldestOrNewestRotatedFileIsNamed() throws {
        var directory = try makeRotatedLog()
        try FileManager.default.removeItem(at: directory.appendingPathComponent("audit.log.1"))
        var problem = try #require(try AuditVerifier.verify(directory: directory).problem)
        #expect(problem.kind == .missingFile && problem.file == "audit.log.1")

        directory = try makeRotatedLog()
        let newest = try #require(try rotatedNames(directory).last)
        try FileManager.default.removeItem(at: directory.appendingPathComponent(newest))
        problem = try #require(try AuditVerifier.verify(directory: directory).problem)
        #expect(problem.kind == .missingFile && problem.file == newest)
    }

    @Test func editingTheLastLineOfARotatedFileIsNamedThere() throws {
        let directory = try makeRotatedLog()
        let url = directory.appendingPathComponent("audit.log.1")
        var lines = try AuditFixture.lines(url)
        let last = lines.count
        lines[last - 1] = Data(String(decoding: lines[last - 1], as: UTF8.self).replacingOccurrences(of: "kiosk-test-1", with: "kiosk-test-2").utf8)
        try AuditFixture.write(lines, to: url)
        let problem = try #require(try AuditVerifier.verify(directory: directory).problem)
        #expect(problem.kind == .hashMismatch && problem.file == "audit.log.1" && problem.line == last)
    }

    /// A crash after renaming audit.log but before the new file's first line: the next open finishes the rotation.
    @Test(arguments: [false, true])
    func aCrashMidRotationIsCompletedAtTheNextOpen(leaveEmptyFile: Bool) throws {
        let directory = try AuditFixture.temporaryDirectory()
        var log = try AuditFixture.open(directory)
        for event in AuditFixture.consentEvents(flow: AuditFixture.flow(1), record: AuditFixture.flow(2)) { try log.append(event) }
        try log.close()
        try FileManager.default.moveItem(at: AuditFixture.current(directory), to: directory.appendingPathComponent("audit.log.1"))
        if leaveEmptyFile { try Data().write(to: AuditFixture.current(directory)) }
        #expect(try AuditVerifier.verify(directory: directory).isIntact)  // an empty or missing audit.log is a valid state

        log = try AuditFixture.open(directory)
        try log.append(.agentStopped)
        let lines = try AuditFixture.parsed(AuditFixture.current(directory))
        #expect(lines.map(\.event) == ["log.rotated", "log.opened", "agent.stopped"])
        #expect(lines[0].previousFile == "audit.log.1" && lines[0].seq == 16)
        #expect(try AuditVerifier.verify(directory: directory).isIntact)
    }

    @Test func theNextRotationNeverReplacesAnOldFile() throws {
        let directory = try makeRotatedLog()
        let before = try rotatedNames(directory)
        let log = try AuditFixture.open(directory, maxFileBytes: 2048)
        for event in AuditFixture.consentEvents(flow: AuditFixture.flow(9), record: AuditFixture.flow(99)) { try log.append(event) }
        try log.close()
        let after = try rotatedNames(directory)
        #expect(after.count > before.count && Array(after.prefix(before.count)) == before)
        #expect(try AuditVerifier.verify(directory: directory).isIntact)
    }
}
