import Foundation

/// Walks an audit log's whole chain and names the first line that breaks it.
///
/// What the chain proves and what it does not: any changed, removed, inserted or reordered line, and any missing
/// file, breaks a link and is named. Changing the *last* line, or cutting lines off the end, leaves a shorter
/// chain that is consistent with itself; that is caught only against a head kept elsewhere, which is what the
/// `auditHead` in every signed record manifest is for (`anchors`).
public enum AuditVerifier {
    public struct Problem: Sendable, Hashable, CustomStringConvertible {
        public enum Kind: String, Sendable, Hashable {
            /// A line's SHA-256 is not the next line's `prev`: the line (or that `prev`) was altered.
            case hashMismatch = "hash mismatch"
            /// Sequence numbers skip: lines are missing before this one.
            case sequenceGap = "seq gap"
            /// A later sequence number comes before an earlier one.
            case reordered
            /// A file of the chain is missing.
            case missingFile = "missing file"
            /// A line is not an audit line (not JSON, or a required key missing).
            case unparsable
            /// A file that is no longer written to ends in a partial line.
            case tornLine = "torn line"
            /// The first line does not start a chain, or a file does not continue the one before it.
            case badStart = "bad start"
        }

        public var kind: Kind
        public var file: String
        /// 1-based; nil for a missing file.
        public var line: Int?
        public var detail: String

        public var description: String {
            "\(file)\(line.map { " line \($0)" } ?? ""): \(kind.rawValue): \(detail)"
        }
    }

    public struct Report: Sendable {
        /// The files walked, in chain order.
        public var files: [String]
        /// Complete lines checked before the first problem (all of them when intact).
        public var lineCount: Int
        /// The SHA-256 of the last line checked: compare it with the newest record's `auditHead`.
        public var head: AuditDigest?
        public var lastSequence: UInt64
        /// The first broken or missing line; nil when the chain is whole.
        public var problem: Problem?
        /// Bytes after the last complete line of `audit.log`: a line torn by a crash (the next open cuts it off
        /// and logs `log.recovered`) or one being written right now. Not a break.
        public var tornTailBytes: Int
        /// Heads asked for (from record manifests) that are the hash of no line.
        public var missingAnchors: [AuditDigest]

        public var isIntact: Bool { problem == nil && missingAnchors.isEmpty }
    }

    /// Verifies the log in `directory`.
    ///
    /// - Parameters:
    ///   - directory: the audit directory (`<state>/audit`).
    ///   - anchors: chain heads signed into record manifests; each must be the hash of some line.
    /// - Throws: `AuditTrailError.readFailed` when the directory or a file cannot be read.
    public static func verify(directory: URL, anchors: Set<AuditDigest> = []) throws -> Report {
        try verify(AuditLogFiles.read(directory: directory), anchors: anchors)
    }

    public static func verify(_ log: AuditLogFiles, anchors: Set<AuditDigest> = []) -> Report {
        var report = Report(
            files: log.files.map(\.name), lineCount: 0, head: nil, lastSequence: 0, problem: nil, tornTailBytes: 0,
            missingAnchors: [])
        var found = Set<AuditDigest>()
        var walk = Walk()
        report.problem = walkFiles(log.files, &walk, &report, &found, anchors: anchors)
        report.missingAnchors = anchors.subtracting(found).sorted { $0.hex < $1.hex }
        return report
    }

    /// Where the walk is: the expected next seq and the previous line's hash and place.
    private struct Walk {
        var expectedSeq: UInt64 = 1
        var previousHash = AuditDigest.genesis
        var previous: (file: String, line: Int)?
    }

    private static func walkFiles(
        _ files: [AuditLogFiles.File], _ walk: inout Walk, _ report: inout Report, _ found: inout Set<AuditDigest>,
        anchors: Set<AuditDigest>
    ) -> Problem? {
        for (fileIndex, file) in files.enumerated() {
            guard let lines = file.lines else {
                return Problem(
                    kind: .missingFile, file: file.name, line: nil,
                    detail: "the file is missing; the lines after seq \(walk.expectedSeq - 1) that it held are gone")
            }
            let isCurrent = file.name == AuditFileName.current && fileIndex == files.count - 1
            if !file.torn.isEmpty {
                if isCurrent {
                    report.tornTailBytes = file.torn.count
                } else {
                    return Problem(
                        kind: .tornLine, file: file.name, line: lines.count + 1,
                        detail: "the file ends in a partial line of \(file.torn.count) bytes, but it is no longer written to")
                }
            }
            if lines.isEmpty && !isCurrent {
                return Problem(kind: .badStart, file: file.name, line: 1, detail: "the rotated file is empty")
            }
            let parsed = lines.map { AuditLine.parse($0) }
            for (index, bytes) in lines.enumerated() {
                let number = index + 1
                guard let line = parsed[index] else {
                    return Problem(kind: .unparsable, file: file.name, line: number, detail: "not an audit line (\(bytes.count) bytes)")
                }
                if index == 0, let problem = checkFileStart(line, file: file.name, fileIndex: fileIndex, files: files) {
                    return problem
                }
                if line.seq != walk.expectedSeq {
                    return sequenceProblem(line.seq, at: number, in: file.name, walk: walk, later: parsed[(index + 1)...])
                }
                if line.prev != walk.previousHash.hex {
                    guard let previous = walk.previous else {
                        return Problem(
                            kind: .badStart, file: file.name, line: number,
                            detail: "the first line's prev is not 64 zeros; the start of the chain is missing")
                    }
                    return Problem(
                        kind: .hashMismatch, file: previous.file, line: previous.line,
                        detail: "its SHA-256 is not the prev of the next line (\(file.name) line \(number)); this line, or that prev, was altered")
                }
                let hash = AuditDigest(sha256Of: bytes)
                if anchors.contains(hash) { found.insert(hash) }
                walk.previousHash = hash
                walk.previous = (file.name, number)
                walk.expectedSeq += 1
                report.lineCount += 1
                report.head = hash
                report.lastSequence = line.seq
            }
        }
        return nil
    }

    /// A file after the first must begin with `log.rotated` naming the file before it; the first file must not
    /// claim a predecessor.
    private static func checkFileStart(
        _ line: AuditLine, file: String, fileIndex: Int, files: [AuditLogFiles.File]
    ) -> Problem? {
        let isRotatedStart = line.event == AuditEvent.Kind.logRotated.rawValue
        if fileIndex == 0 {
            guard isRotatedStart, let previous = line.previousFile else { return nil }
            return Problem(
                kind: .missingFile, file: previous, line: nil,
                detail: "\(file) continues the chain from \(previous), which is missing")
        }
        let expected = files[fileIndex - 1].name
        guard isRotatedStart else {
            return Problem(kind: .badStart, file: file, line: 1, detail: "the file does not begin with log.rotated naming \(expected)")
        }
        guard line.previousFile == expected else {
            return Problem(
                kind: .missingFile, file: line.previousFile ?? expected, line: nil,
                detail: "\(file) continues the chain from \(line.previousFile ?? "an unnamed file"), not from \(expected)")
        }
        return nil
    }

    private static func sequenceProblem(
        _ seq: UInt64, at number: Int, in file: String, walk: Walk, later: ArraySlice<AuditLine?>
    ) -> Problem {
        let expected = walk.expectedSeq
        if seq < expected || later.contains(where: { $0?.seq == expected }) {
            return Problem(
                kind: .reordered, file: file, line: number,
                detail: "seq \(seq) where \(expected) was expected; lines were moved, duplicated or inserted")
        }
        if walk.previous == nil {
            return Problem(
                kind: .badStart, file: file, line: number,
                detail: "the chain starts at seq \(seq), not 1; its first \(seq - 1) line(s) are missing")
        }
        return Problem(
            kind: .sequenceGap, file: file, line: number,
            detail: "seq \(seq) follows seq \(expected - 1); \(seq - expected) line(s) are missing before this one")
    }
}
