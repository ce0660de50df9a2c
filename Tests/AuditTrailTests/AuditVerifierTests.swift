import Foundation
import Testing

@testable import AuditTrail

/// Tampering with any line, or any file, is found and named (21 CFR 11.10(e): changes cannot be silent).
@Suite struct AuditVerifierTests {
    /// A closed log of two consents: 1 + 2 × 14 = 29 lines in audit.log.
    private func makeLog() throws -> URL {
        let directory = try AuditFixture.temporaryDirectory()
        let log = try AuditFixture.open(directory)
        for n in 0..<2 {
            for event in AuditFixture.consentEvents(flow: AuditFixture.flow(10 + n), record: AuditFixture.flow(20 + n)) {
                try log.append(event)
            }
        }
        try log.close()
        return directory
    }

    @Test func anUntouchedLogIsIntact() throws {
        let directory = try makeLog()
        let report = try AuditVerifier.verify(directory: directory)
        #expect(report.isIntact && report.problem == nil)
        #expect(report.lineCount == 29 && report.lastSequence == 29)
        #expect(report.files == ["audit.log"])
        let last = try #require(try AuditFixture.lines(AuditFixture.current(directory)).last)
        #expect(report.head == AuditDigest(sha256Of: last))
    }

    /// Changing one character of any line but the last (the `time`'s last digit: it stays a valid line) is named
    /// at that line: its hash is no longer the next line's prev.
    @Test(arguments: 1...28)
    func editingAByteOfAnyLineIsNamed(line: Int) throws {
        let directory = try makeLog()
        let url = AuditFixture.current(directory)
        var lines = try AuditFixture.lines(url)
        var text = String(decoding: lines[line - 1], as: UTF8.self)
        let range = try #require(text.range(of: "Z\""))
        let digit = text.index(before: range.lowerBound)
        text.replaceSubrange(digit...digit, with: text[digit] == "1" ? "2" : "1")
        lines[line - 1] = Data(text.utf8)
        try AuditFixture.write(lines, to: url)

        let problem = try #require(try AuditVerifier.verify(directory: directory).problem)
        #expect(problem.kind == .hashMismatch)
        #expect(problem.file == "audit.log" && problem.line == line)
        #expect(problem.description.hasPrefix("audit.log line \(line): hash mismatch"))
    }

    @Test func aByteThatBreaksTheJSONIsNamedUnparsable() throws {
        let directory = try makeLog()
        let url = AuditFixture.current(directory)
        var bytes = try Data(contentsOf: url)
        let lines = try AuditFixture.lines(url)
        let offset = lines[0..<6].reduce(0) { $0 + $1.count + 1 }  // line 7's first byte, its "{"
        bytes[offset] = UInt8(ascii: "#")
        try bytes.write(to: url)
        let problem = try #require(try AuditVerifier.verify(directory: directory).problem)
        #expect(problem.kind == .unparsable && problem.line == 7)
    }

    @Test(arguments: [1, 2, 15, 28])
    func deletingALineIsNamed(line: Int) throws {
        let directory = try makeLog()
        let url = AuditFixture.current(directory)
        var lines = try AuditFixture.lines(url)
        lines.remove(at: line - 1)
        try AuditFixture.write(lines, to: url)
        let problem = try #require(try AuditVerifier.verify(directory: directory).problem)
        #expect(problem.line == line)
        #expect(problem.kind == (line == 1 ? .badStart : .sequenceGap))
        if line > 1 { #expect(problem.detail.contains("1 line(s) are missing")) }
    }

    @Test(arguments: [1, 14, 27])
    func swappingTwoLinesIsNamed(line: Int) throws {
        let directory = try makeLog()
        let url = AuditFixture.current(directory)
        var lines = try AuditFixture.lines(url)
        lines.swapAt(line - 1, line)
        try AuditFixture.write(lines, to: url)
        let problem = try #require(try AuditVerifier.verify(directory: directory).problem)
        #expect(problem.kind == .reordered && problem.line == line)
    }

    /// Renumbering every line after a deleted one hides the gap from `seq`, but not from the hashes.
    @Test func deletingALineAndRenumberingIsStillFound() throws {
        let directory = try makeLog()
        let url = AuditFixture.current(directory)
        var lines = try AuditFixture.lines(url)
        lines.remove(at: 9)
        lines = lines.enumerated().map { index, data in
            guard index >= 9 else { return data }
            return Data(String(decoding: data, as: UTF8.self).replacingOccurrences(of: "\"seq\":\(index + 2),", with: "\"seq\":\(index + 1),").utf8)
        }
        try AuditFixture.write(lines, to: url)
        let problem = try #require(try AuditVerifier.verify(directory: directory).problem)
        #expect(problem.kind == .hashMismatch && problem.line == 9)
    }

    /// A record's signed head that no line has: lines were cut off the end (or the log replaced).
    @Test func anchorsFromRecordManifestsCatchATruncatedEnd() throws {
        let directory = try makeLog()
        let url = AuditFixture.current(directory)
        let lines = try AuditFixture.lines(url)
        let anchor = AuditDigest(sha256Of: lines[27])
        #expect(try AuditVerifier.verify(directory: directory, anchors: [anchor]).isIntact)
        try AuditFixture.write(Array(lines.prefix(20)), to: url)
        let report = try AuditVerifier.verify(directory: directory, anchors: [anchor])
        #expect(report.problem == nil)  // the chain alone cannot see it...
        #expect(report.missingAnchors == [anchor] && !report.isIntact)  // ...the record's head can
    }

    @Test func aMissingDirectoryIsAnIOError() {
        #expect(throws: AuditTrailError(.readFailed, "")) {
            try AuditVerifier.verify(directory: URL(fileURLWithPath: "/nonexistent/audit-\(UUID().uuidString)"))
        }
    }
}
