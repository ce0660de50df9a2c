import ArgumentParser
import AuditTrail
import ConsentSigning
import FileBytes
import Foundation

/// `consentctl audit verify|show`: checks and reads the kiosk's hash-chained audit log (`<state>/audit`).
struct Audit: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Verify or read the kiosk's audit trail.",
        subcommands: [Verify.self, Show.self, Exercise.self])

    /// The state directory option both subcommands share.
    struct StateDirectory: ParsableArguments {
        @Option(help: ArgumentHelp("The agent's state directory; the log is audit/ there.", valueName: "DIR"))
        var stateDir = "./state"

        var auditDirectory: URL { AuditLog.directory(stateDirectory: URL(fileURLWithPath: stateDir)) }

        /// The log's files, or exit 1 naming why they cannot be read.
        func read() throws -> AuditLogFiles {
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: auditDirectory.path, isDirectory: &isDirectory), isDirectory.boolValue else {
                throw CommandFailure("\(auditDirectory.path): no audit log here; pass the agent's --state-dir")
            }
            do {
                return try AuditLogFiles.read(directory: auditDirectory)
            } catch let error as AuditTrailError {
                throw CommandFailure(error.description)
            }
        }
    }
}

extension Audit {
    /// `consentctl audit verify`: walks the whole chain; exit 0 intact, 2 broken (the first broken line is
    /// named), 1 usage or I/O error.
    struct Verify: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Check the whole audit chain and name the first broken or missing line.",
            discussion: """
                Every line must carry the SHA-256 of the line before it and the next sequence number, across \
                rotated files. With --records, every record's signed auditHead must be the hash of a line, which \
                also catches lines cut off the end. Exit status: 0 intact, 2 broken, 1 usage or I/O error.
                """)

        /// The documented status for a broken chain.
        static let brokenExitCode: Int32 = 2

        @OptionGroup var state: StateDirectory

        @Option(help: ArgumentHelp("A folder of record directories whose manifests' auditHead must be in the log.", valueName: "DIR"))
        var records: String?

        func run() throws {
            let files = try state.read()
            let noRecordsYet = records.map(Self.isAbsent) ?? false
            let anchors = try records.map(Self.anchors(in:)) ?? [:]
            let report = AuditVerifier.verify(files, anchors: Set(anchors.keys))
            let present = report.files.filter { name in files.files.contains { $0.name == name && $0.lines != nil } }
            if let problem = report.problem {
                print("BROKEN \(problem)")
            }
            for head in report.missingAnchors {
                print("MISSING ANCHOR record \(anchors[head] ?? "?"): its auditHead \(head.hex) is the hash of no line")
            }
            guard report.isIntact else {
                print("audit trail in \(state.auditDirectory.path) is NOT intact (\(report.lineCount) line(s) check out before the first problem)")
                throw ExitCode(Self.brokenExitCode)
            }
            let span = present.count > 1 ? "\(present.first ?? "") … \(present.last ?? "")" : present.first ?? "no file"
            print("OK audit trail intact: \(report.lineCount) line(s) in \(present.count) file(s) (\(span)), seq 1–\(report.lastSequence)")
            print("   head \(report.head?.hex ?? AuditDigest.genesis.hex)")
            if noRecordsYet {
                print("   no records yet: \(records ?? "") does not exist (the agent makes it with the first record)")
            } else if !anchors.isEmpty {
                print("   \(anchors.count) record manifest(s) anchor lines of this chain")
            } else if records != nil {
                print("   no records yet: no record manifest below \(records ?? "")")
            }
            if report.tornTailBytes > 0 {
                print("   note: audit.log ends in a partial line of \(report.tornTailBytes) bytes (a crash mid-write, or a line being written); consentd cuts it off and logs log.recovered at its next start")
            }
        }

        /// Whether `folder` does not exist at all (a path that exists but is no folder is still an error).
        static func isAbsent(_ folder: String) -> Bool {
            var status = stat()
            return lstat(folder, &status) != 0 && errno == ENOENT
        }

        /// The `auditHead` of each record manifest below `folder`, with the record id that signed it.
        static func anchors(in folder: String) throws -> [AuditDigest: String] {
            // A kiosk that has written no record has no records/ yet: nothing to anchor, not an error.
            if isAbsent(folder) { return [:] }
            let url = URL(fileURLWithPath: folder)
            guard let names = try? FileManager.default.contentsOfDirectory(atPath: url.path) else {
                throw CommandFailure("\(folder): cannot list the records folder; check the path")
            }
            var anchors: [AuditDigest: String] = [:]
            for name in names.sorted() {
                let manifestURL = url.appendingPathComponent(name).appendingPathComponent(RecordManifest.fileName)
                guard let bytes = try? FileBytes.read(manifestURL.path),
                    let manifest = try? RecordManifest.decoded(bytes),
                    let head = manifest.auditHead
                else { continue }
                guard let digest = try? AuditDigest(hex: head) else {
                    throw CommandFailure("\(manifestURL.path): auditHead is not a SHA-256 hex digest")
                }
                anchors[digest] = manifest.recordID
            }
            return anchors
        }
    }

    /// `consentctl audit show`: prints events readably, filtered by record, flow and time.
    struct Show: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Print audit events, one per line, oldest first.",
            discussion: "--record selects the record's own events and every event of the flow that produced it. Show does not check the chain; run `audit verify` for that.")

        @OptionGroup var state: StateDirectory

        @Option(help: ArgumentHelp("Only the events of this record and of the flow that wrote it.", valueName: "ID"))
        var record: String?

        @Option(help: ArgumentHelp("Only the events of this flow.", valueName: "ID"))
        var flow: String?

        @Option(help: ArgumentHelp("Only events at or after this time (RFC 3339, or a UTC date YYYY-MM-DD).", valueName: "T"))
        var since: String?

        @Flag(help: "Print the matching lines as they are stored (JSON Lines).")
        var json = false

        func validate() throws {
            if let since, AuditClock.parse(since) == nil {
                throw ValidationError("--since wants an RFC 3339 time (2026-09-14T10:15:30Z) or a date (2026-09-14).")
            }
        }

        func run() throws {
            let files = try state.read()
            let entries = files.entries
            let sinceDate = since.flatMap(AuditClock.parse)
            let recordFlows = Set(entries.compactMap { $0.entry.record == record ? $0.entry.flow : nil })
            let lineData = Dictionary(
                uniqueKeysWithValues: files.files.flatMap { file in
                    (file.lines ?? []).enumerated().map { ("\(file.name):\($0.offset + 1)", $0.element) }
                })
            var shown = 0
            for (file, number, entry) in entries {
                if let record, entry.record != record, !(entry.flow.map(recordFlows.contains) ?? false) { continue }
                if let flow, entry.flow != flow { continue }
                if let sinceDate, (AuditClock.parse(entry.time) ?? .distantPast) < sinceDate { continue }
                if json, let bytes = lineData["\(file):\(number)"] {
                    print(String(decoding: bytes, as: UTF8.self))
                } else {
                    print(Self.readable(entry))
                }
                shown += 1
            }
            let lineCount = files.files.reduce(0) { $0 + ($1.lines?.count ?? 0) }
            if entries.count < lineCount {
                FileHandle.standardError.write(Data("note: \(lineCount - entries.count) line(s) do not parse; run `consentctl audit verify`\n".utf8))
            }
            if shown == 0 && !json {
                print("no matching events")
            }
        }

        /// `2026-09-14T10:15:30.123Z  #12  flow.step  reached  flow=… study=heartbeat@3f2a9c1b0d4e step=visual index=2`
        static func readable(_ line: AuditLine) -> String {
            func short(_ hex: String?) -> String? { hex.map { String($0.prefix(12)) } }
            let study = line.study.map { id in line.studyVersion.map { "\(id)@\(short($0) ?? "")" } ?? id }
            let fields: [(String, String?)] = [
                ("flow", line.flow), ("study", study), ("step", line.step), ("index", line.index.map(String.init)),
                ("record", line.record), ("manifest", short(line.manifest)), ("signer", line.signer),
                ("strokes", line.strokes.map(String.init)), ("points", line.points.map(String.init)),
                ("answered", line.answered.map { "\($0)/\(line.questions.map(String.init) ?? "?")" }),
                ("config", short(line.configuration)), ("previous_config", short(line.previousConfiguration)),
                ("studies", line.studies.map(String.init)), ("uid", line.peerUID.map(String.init)),
                ("pid", line.peerPID.map(String.init)), ("reason", line.reason), ("destination", line.destination),
                ("http", line.httpStatus.map(String.init)), ("boot", short(line.boot)),
                ("truncated_bytes", line.truncatedBytes.map(String.init)), ("previous_file", line.previousFile),
            ]
            let details = fields.compactMap { key, value in value.map { "\(key)=\($0)" } }.joined(separator: " ")
            let event = line.event.padding(toLength: max(line.event.count, 22), withPad: " ", startingAt: 0)
            let outcome = line.outcome.padding(toLength: max(line.outcome.count, 12), withPad: " ", startingAt: 0)
            let seq = "#\(line.seq)".padding(toLength: max("#\(line.seq)".count, 7), withPad: " ", startingAt: 0)
            return "\(line.time)  \(seq)\(event)\(outcome)\(details)  [\(line.kiosk)]"
        }
    }
}
