import Foundation
import IntegrationSupport
import Testing

/// A kiosk UI made of `socat - UNIX-CONNECT:<socket>`: the test writes lines to socat's stdin and reads its stdout.
///
/// Every line both ways goes to a transcript (`{"dir": "->"|"<-", "line": ...}`) that `ConsentdProcess.finish`
/// validates against Protocol/schemas. A client created with `reading: false` does not read its stdout until
/// `startReading()`, so socat blocks and stops reading the socket: a client that stopped reading.
final class SocatClient {
    let name: String
    private let process = Process()
    private let stdin = Pipe()
    private let stdout = Pipe()
    private let lines = LineBuffer()
    private let transcript: FileHandle
    private var isReading = false
    private var nextID = 1
    /// Events read while waiting for replies, oldest first.
    private(set) var events: [JSONObject] = []

    /// - Parameter launcher: a command that runs socat (`setpriv ... --`); its first element is the executable.
    init(socket: String, name: String, transcript: URL, reading: Bool = true, launcher: [String] = []) throws {
        self.name = name
        _ = FileManager.default.createFile(atPath: transcript.path, contents: nil)
        self.transcript = try FileHandle(forWritingTo: transcript)
        let command = launcher + [Paths.socat, "-t", "5", "-", "UNIX-CONNECT:\(socket)"]
        process.executableURL = URL(fileURLWithPath: command[0])
        process.arguments = Array(command.dropFirst())
        process.standardInput = stdin
        process.standardOutput = stdout
        try process.run()
        if reading { startReading() }
    }

    func startReading() {
        guard !isReading else { return }
        isReading = true
        let handle = stdout.fileHandleForReading
        let lines = self.lines
        Thread.detachNewThread {
            while true {
                let data = handle.availableData
                if data.isEmpty { break }
                lines.append(data)
            }
            lines.finish()
        }
    }

    /// Sends one raw line (no newline added when `terminator` is empty).
    func send(_ line: String, terminator: String = "\n") {
        record("->", line)
        // A socat that exited (the agent closed the connection) makes this fail; the reads then tell.
        try? stdin.fileHandleForWriting.write(contentsOf: Data((line + terminator).utf8))
    }

    /// The next line from the agent, recorded in the transcript.
    func nextLine(timeout: Duration = .seconds(10)) -> String? {
        guard let line = lines.next(timeout: timeout) else { return nil }
        record("<-", line)
        return line
    }

    /// The next message, parsed.
    func next(timeout: Duration = .seconds(10)) -> JSONObject? {
        nextLine(timeout: timeout).flatMap(parseJSON)
    }

    /// Sends a request and returns its reply; events read meanwhile are kept in `events`.
    @discardableResult
    func call(_ method: String, _ params: JSONObject? = nil, sourceLocation: SourceLocation = #_sourceLocation) -> JSONObject {
        let id = nextID
        nextID += 1
        var request: JSONObject = ["jsonrpc": "2.0", "id": id, "method": method]
        if let params { request["params"] = params }
        send(jsonLine(request))
        return reply(to: id, sourceLocation: sourceLocation)
    }

    /// Reads until the reply with `id` (an integer or a string) arrives.
    func reply(to id: Any, sourceLocation: SourceLocation = #_sourceLocation) -> JSONObject {
        while let message = next() {
            if message["method"] != nil {
                events.append(message)
                continue
            }
            if "\(message["id"] ?? "null")" == "\(id)" { return message }
            Issue.record("\(name): unexpected reply \(message)", sourceLocation: sourceLocation)
        }
        Issue.record("\(name): no reply to \(id)", sourceLocation: sourceLocation)
        return [:]
    }

    /// The handshake: reads `hello`, negotiates version 1.
    func negotiate(sourceLocation: SourceLocation = #_sourceLocation) {
        let hello = next()
        #expect(hello?.string("method") == "hello", sourceLocation: sourceLocation)
        let reply = call("session.negotiate", ["client": "integration-test/\(name)", "version": 1])
        #expect(reply.int("result.version") == 1, sourceLocation: sourceLocation)
    }

    /// Takes the events read so far with the given name.
    func takeEvents(_ name: String) -> [JSONObject] {
        let matching = events.filter { $0.string("method") == name }
        events.removeAll { $0.string("method") == name }
        return matching
    }

    /// Closes stdin (socat half-closes the socket) and waits for socat to exit.
    func close() {
        try? stdin.fileHandleForWriting.close()
        startReading()
        while nextLine(timeout: .seconds(5)) != nil {}
        process.waitUntilExit()
        try? transcript.close()
    }

    /// socat's pid (also behind a launcher that execs it, like setpriv).
    var pid: Int32 { process.processIdentifier }

    /// Whether the agent closed the connection (socat saw EOF and exited).
    var isClosedByPeer: Bool { lines.isFinished }

    /// The lines that still arrive until the agent closes the connection, waiting at most `timeout`;
    /// `isClosedByPeer` then says whether it did. socat passes the socket's EOF on only when it exits, its `-t`
    /// (5 s) after that EOF, so the wait must be longer than that: a wait of 5 s raced socat's and lost on a loaded
    /// machine.
    func linesUntilClosed(timeout: Duration = .seconds(15)) -> [String] {
        let deadline = ContinuousClock.now + timeout
        var arrived: [String] = []
        while ContinuousClock.now < deadline, let line = nextLine(timeout: deadline - ContinuousClock.now) {
            arrived.append(line)
        }
        return arrived
    }

    private func record(_ dir: String, _ line: String) {
        try? transcript.write(contentsOf: Data((jsonLine(["dir": dir, "line": line]) + "\n").utf8))
    }

    deinit {
        process.end()
    }
}
