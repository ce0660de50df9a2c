import Foundation
import IntegrationSupport
import Testing

/// One `consentd` started for one test, with its own socket and state directory, stopped with SIGTERM.
final class ConsentdProcess {
    let directory: URL
    let socket: String
    let stateDirectory: URL
    let logFile: URL
    /// consentd's stdout (it writes nothing there today; the PHI tests scan it anyway).
    let outputFile: URL
    private let process = Process()
    private var clients: [SocatClient] = []
    private var transcripts: [URL] = []
    private let testName: String

    /// - Parameters:
    ///   - wrapper: a command that runs consentd as its child after `--` (`umockdev-run ...`) and exits with its
    ///     status (or execs it: `setpriv`).
    ///   - stateDirectory: another agent's state directory, to restart on it (default: a new one).
    ///   - prepare: runs on the test's directory just before consentd starts (chown it, mount on it).
    ///   - environment: variables added to the test's own environment for consentd; `logFileStream` in a value is
    ///     replaced by the log file's `<device>:<inode>` (for `JOURNAL_STREAM`).
    init(
        _ testName: String, arguments: [String] = [], socketPath: String? = nil, wrapper: [String] = [],
        stateDirectory: URL? = nil, prepare: ((URL) throws -> Void)? = nil, environment: [String: String] = [:],
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        self.testName = testName
        // Writing to a socat that already exited must fail the write, not kill the test runner.
        signal(SIGPIPE, SIG_IGN)
        // Short, so the socket path fits a sockaddr_un.
        directory = URL(fileURLWithPath: "/tmp").appendingPathComponent("cdi-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        // In a folder consentd creates (0750): it refuses a socket folder others may enter.
        socket = socketPath ?? directory.appendingPathComponent("run/consentd.sock").path
        self.stateDirectory = stateDirectory ?? directory.appendingPathComponent("state")
        logFile = directory.appendingPathComponent("consentd.log")
        _ = FileManager.default.createFile(atPath: logFile.path, contents: nil)
        outputFile = directory.appendingPathComponent("consentd.out")
        _ = FileManager.default.createFile(atPath: outputFile.path, contents: nil)
        if !environment.isEmpty {
            var status = stat()
            let stream = stat(logFile.path, &status) == 0 ? "\(status.st_dev):\(status.st_ino)" : ""
            process.environment = ProcessInfo.processInfo.environment.merging(
                environment.mapValues { $0.replacingOccurrences(of: "logFileStream", with: stream) }) { _, new in new }
        }
        let command = [Paths.consentd.path, "--socket", socket, "--state-dir", self.stateDirectory.path, "--log-level", "debug"]
            + arguments
        if let launcher = wrapper.first {
            process.executableURL = URL(fileURLWithPath: launcher)
            process.arguments = Array(wrapper.dropFirst()) + ["--"] + command
        } else {
            process.executableURL = Paths.consentd
            process.arguments = Array(command.dropFirst())
        }
        process.standardError = try FileHandle(forWritingTo: logFile)
        process.standardOutput = try FileHandle(forWritingTo: outputFile)
        try prepare?(directory)
        try process.run()
        try waitForSocket(sourceLocation: sourceLocation)
    }

    private func waitForSocket(sourceLocation: SourceLocation) throws {
        let deadline = ContinuousClock.now + .seconds(20)
        while ContinuousClock.now < deadline {
            // The log line, not the file: a stale socket file may exist before consentd replaced it.
            if let type = try? FileManager.default.attributesOfItem(atPath: socket)[.type] as? FileAttributeType,
                type == .typeSocket, log.contains("listening")
            {
                return
            }
            guard process.isRunning else { break }
            usleep(20_000)
        }
        Issue.record("consentd did not create its socket; log:\n\(log)", sourceLocation: sourceLocation)
        throw CancellationError()
    }

    var log: String { fileText(logFile.path) ?? "" }

    /// Whether the log shows `secret` as a value of its own, not merely as four digits inside a record id, a
    /// digest or a timestamp, where a short PIN turns up by chance (one run in a hundred, in a log of many UUIDs).
    func logShows(_ secret: String) -> Bool {
        let text = log
        var searchFrom = text.startIndex
        while let found = text.range(of: secret, range: searchFrom..<text.endIndex) {
            let before = found.lowerBound == text.startIndex ? nil : text[text.index(before: found.lowerBound)]
            let after = found.upperBound == text.endIndex ? nil : text[found.upperBound]
            let partOfAWord: (Character?) -> Bool = { $0.map { $0.isLetter || $0.isNumber || $0 == "-" || $0 == ":" || $0 == "." } ?? false }
            if !partOfAWord(before) && !partOfAWord(after) { return true }
            searchFrom = text.index(after: found.lowerBound)
        }
        return false
    }
    var output: String { fileText(outputFile.path) ?? "" }
    /// consentd's own pid, also when a wrapper runs it (then its child).
    var pid: Int32 {
        guard isWrapped else { return process.processIdentifier }
        return Self.children(of: process.processIdentifier).first ?? process.processIdentifier
    }

    private var isWrapped: Bool { process.executableURL != Paths.consentd }

    /// The child processes of `parent`, from `/proc/<parent>/task/*/children`.
    private static func children(of parent: Int32) -> [Int32] {
        let tasks = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(parent)/task")) ?? []
        return tasks.flatMap { task -> [Int32] in
            let text = fileText("/proc/\(parent)/task/\(task)/children") ?? ""
            return text.split(separator: " ").compactMap { Int32($0.trimmingCharacters(in: .whitespacesAndNewlines)) }
        }
    }

    /// A new client; its transcript is validated by `finish`. `launcher` runs socat as its last argument's
    /// command (`setpriv --reuid=65534 ... --`: a client of another user).
    func client(_ name: String = "ui", reading: Bool = true, launcher: [String] = []) throws -> SocatClient {
        try FileManager.default.createDirectory(at: Paths.transcripts, withIntermediateDirectories: true)
        let transcript = Paths.transcripts.appendingPathComponent("\(testName)-\(name).jsonl")
        let client = try SocatClient(socket: socket, name: name, transcript: transcript, reading: reading, launcher: launcher)
        clients.append(client)
        transcripts.append(transcript)
        return client
    }

    /// Closes the clients, stops consentd with SIGTERM (expecting exit 0 and the socket removed), and validates
    /// every line it sent against Protocol/schemas. `keepingState` leaves the state directory (records, audit log)
    /// for the test to inspect; it removes it itself.
    func finish(keepingState: Bool = false, sourceLocation: SourceLocation = #_sourceLocation) {
        for client in clients { client.close() }
        stop(sourceLocation: sourceLocation)
        let result = SchemaValidator.validate(transcripts)
        #expect(result.status == 0, "schema violations:\n\(result.output)", sourceLocation: sourceLocation)
        if !keepingState { removeFiles() }
    }

    /// SIGTERM to consentd and the wait for its exit, expecting status 0 and the socket removed; the clients stay
    /// open (to read what the agent sends while it stops).
    func stop(sourceLocation: SourceLocation = #_sourceLocation) {
        guard !hasStopped else { return }
        hasStopped = true
        // To consentd itself: a wrapper started from this process inherits the test threads' blocked signals
        // (umockdev-run would never see a SIGTERM), and it exits with its child's status anyway.
        kill(pid, SIGTERM)
        process.waitUntilExit()
        #expect(process.terminationStatus == 0, "consentd exit status; log:\n\(log)", sourceLocation: sourceLocation)
        #expect(!FileManager.default.fileExists(atPath: socket), "socket removed at exit", sourceLocation: sourceLocation)
    }

    /// A client on a plain socket, for bytes socat cannot carry (invalid UTF-8, 100 MB, abrupt closes); what it
    /// receives is validated by `finish` like every socat client's.
    func rawClient(_ name: String) throws -> RawSocketClient {
        try FileManager.default.createDirectory(at: Paths.transcripts, withIntermediateDirectories: true)
        let transcript = Paths.transcripts.appendingPathComponent("\(testName)-\(name).jsonl")
        transcripts.append(transcript)
        return try RawSocketClient(socket: socket, transcript: transcript)
    }

    /// SIGKILL, as a crash or `kill -9` would: no drain, no cleanup. The transcripts of its clients are not
    /// validated (their last lines may be cut).
    func kill9() {
        hasStopped = true
        kill(pid, SIGKILL)
        process.waitUntilExit()
        for client in clients { client.close() }
        clients.removeAll()
        transcripts.removeAll()
    }

    var isRunning: Bool { process.isRunning }

    private var hasStopped = false

    /// Removes the test's folder, after keeping the signature files of every record the agent wrote (and its
    /// manifest, by which the reader skips a record a test tampered with) for the independent 19794-7 reader that
    /// scripts/run-tests runs after the suite (`Paths.writtenISO19794`).
    func removeFiles() {
        keepSignatureFiles()
        try? FileManager.default.removeItem(at: directory)
    }

    private func keepSignatureFiles() {
        let records = stateDirectory.appendingPathComponent("records")
        let manager = FileManager.default
        for id in (try? manager.contentsOfDirectory(atPath: records.path)) ?? [] {
            let record = records.appendingPathComponent(id)
            let names = ((try? manager.contentsOfDirectory(atPath: record.path)) ?? [])
                .filter { $0 == "signature.json" || $0 == "manifest.json" || $0.hasSuffix(".iso19794-7") }
            guard names.contains("signature.json"), names.contains(where: { $0.hasSuffix(".iso19794-7") }) else {
                continue
            }
            let kept = Paths.writtenISO19794.appendingPathComponent("\(testName)-\(id)")
            try? manager.createDirectory(at: kept, withIntermediateDirectories: true)
            for name in names {
                try? manager.copyItem(at: record.appendingPathComponent(name), to: kept.appendingPathComponent(name))
            }
        }
    }

    deinit {
        // To consentd itself, as `stop`; `end` then reaps it (also one that exited on its own).
        if process.isRunning { kill(pid, SIGTERM) }
        process.end()
    }
}

/// Runs Protocol/tools/validate.py (jsonschema, from scripts/ensure-test-venv) over transcripts.
enum SchemaValidator {
    static func validate(_ transcripts: [URL]) -> (status: Int32, output: String) {
        guard FileManager.default.isExecutableFile(atPath: Paths.validatorPython.path) else {
            return (127, "no schema validator: run scripts/ensure-test-venv (scripts/run-tests does)")
        }
        let process = Process()
        process.executableURL = Paths.validatorPython
        process.arguments = [Paths.validator.path] + transcripts.map(\.path)
        let output = Pipe()
        process.standardOutput = output
        process.standardError = output
        do { try process.run() } catch { return (126, "cannot run the validator: \(error)") }
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: data, as: UTF8.self))
    }
}
