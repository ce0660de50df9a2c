import Foundation
import IntegrationSupport
import Testing

/// Where the built binaries are, found from this file so the tests run from any working directory.
enum BridgePaths {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    static func binary(_ name: String) -> URL {
        let bundle = Bundle.main.bundleURL
        for candidate in [
            bundle.appendingPathComponent(name), bundle.deletingLastPathComponent().appendingPathComponent(name),
            root.appendingPathComponent(".build/debug/\(name)"),
        ] where FileManager.default.isExecutableFile(atPath: candidate.path) {
            return candidate
        }
        return root.appendingPathComponent(".build/debug/\(name)")
    }
}

/// A consentd on the sample study and a consentweb in front of it, each in its own temporary folder, stopped at
/// the end with SIGTERM.
final class BridgeFixture {
    let directory: URL
    let socket: String
    let consentd = Process()
    let consentweb = Process()
    let webLog: URL
    private(set) var url = ""
    private(set) var port: UInt16 = 0
    private(set) var token = ""
    /// The staff page's address and token: consentweb's second line on stdout.
    private(set) var staffURL = ""
    private(set) var staffToken = ""

    init(
        consentwebArguments: [String] = [], consentdArguments: [String] = [],
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        signal(SIGPIPE, SIG_IGN)
        directory = URL(fileURLWithPath: "/tmp").appendingPathComponent("cwi-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        socket = directory.appendingPathComponent("run/consentd.sock").path
        let agentLog = directory.appendingPathComponent("consentd.log")
        _ = FileManager.default.createFile(atPath: agentLog.path, contents: nil)
        consentd.executableURL = BridgePaths.binary("consentd")
        consentd.arguments = ["--socket", socket, "--state-dir", directory.appendingPathComponent("state").path, "--no-pads"] + consentdArguments
        consentd.standardError = try FileHandle(forWritingTo: agentLog)
        consentd.standardOutput = FileHandle.nullDevice
        try consentd.run()
        let deadline = ContinuousClock.now + .seconds(20)
        while ContinuousClock.now < deadline {
            if let log = fileText(agentLog.path), log.contains("listening"),
                FileManager.default.fileExists(atPath: socket)
            { break }
            usleep(20_000)
        }

        webLog = directory.appendingPathComponent("consentweb.log")
        _ = FileManager.default.createFile(atPath: webLog.path, contents: nil)
        consentweb.executableURL = BridgePaths.binary("consentweb")
        consentweb.arguments = ["--socket", socket, "--listen", "127.0.0.1:0"] + consentwebArguments
        let output = Pipe()
        consentweb.standardOutput = output
        consentweb.standardError = try FileHandle(forWritingTo: webLog)
        try consentweb.run()
        // The contract: the first line on stdout is the URL to open.
        let line = Self.readLine(output.fileHandleForReading)
        url = line
        if let components = URLComponents(string: line) {
            port = UInt16(components.port ?? 0)
            token = components.queryItems?.first { $0.name == "token" }?.value ?? ""
        }
        staffURL = Self.readLine(output.fileHandleForReading)
        staffToken = URLComponents(string: staffURL)?.queryItems?.first { $0.name == "token" }?.value ?? ""
        // A token from a file is not printed: the test reads it where the kiosk's browser would.
        if let index = consentwebArguments.firstIndex(of: "--token-file"), index + 1 < consentwebArguments.count {
            token = (fileText(consentwebArguments[index + 1]) ?? "").trimmingCharacters(in: .whitespacesAndNewlines)
        }
        guard port != 0 else {
            Issue.record("consentweb printed no URL; log:\n\(log)", sourceLocation: sourceLocation)
            throw CancellationError()
        }
    }

    var log: String { fileText(webLog.path) ?? "" }
    var host: String { "127.0.0.1:\(port)" }

    static func readLine(_ handle: FileHandle) -> String {
        var bytes: [UInt8] = []
        while true {
            let data = handle.readData(ofLength: 1)
            guard let byte = data.first, byte != UInt8(ascii: "\n") else { break }
            bytes.append(byte)
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Stops both (consentweb first) and removes the folder; consentweb must exit 0 on SIGTERM.
    func finish(sourceLocation: SourceLocation = #_sourceLocation) {
        if consentweb.isRunning {
            kill(consentweb.processIdentifier, SIGTERM)
            if consentweb.waitForExit(within: .seconds(20)) {
                #expect(consentweb.terminationStatus == 0, "consentweb exit status; log:\n\(log)", sourceLocation: sourceLocation)
            } else {
                Issue.record("consentweb did not stop within 20 s of SIGTERM; log:\n\(log)", sourceLocation: sourceLocation)
                kill(consentweb.processIdentifier, SIGKILL)
                consentweb.waitUntilExit()
            }
        }
        stopAgent()
        try? FileManager.default.removeItem(at: directory)
    }

    func stopAgent() {
        guard consentd.isRunning else { return }
        kill(consentd.processIdentifier, SIGTERM)
        consentd.waitUntilExit()
    }

    deinit {
        consentweb.end()
        consentd.end()
    }
}

/// A TCP client speaking just enough HTTP/1.1 and WebSocket (RFC 6455) to check what the bridge answers.
final class TCPClient {
    let fd: Int32
    private var buffer: [UInt8] = []

    init(port: UInt16) throws {
        fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard result == 0 else { throw POSIXError(.ECONNREFUSED) }
    }

    deinit { close(fd) }

    @discardableResult
    func send(_ bytes: [UInt8]) -> Bool {
        var written = 0
        while written < bytes.count {
            let n = bytes.withUnsafeBytes { Glibc.send(fd, $0.baseAddress! + written, bytes.count - written, Int32(MSG_NOSIGNAL)) }
            if n < 0 && errno == EINTR { continue }
            guard n > 0 else { return false }
            written += n
        }
        return true
    }

    /// Reads until `enough` says the buffer holds what is wanted, EOF, or the timeout.
    private func fill(timeout: Duration, until enough: ([UInt8]) -> Bool) -> Bool {
        let deadline = ContinuousClock.now + timeout
        while !enough(buffer) {
            let left = deadline - ContinuousClock.now
            guard left > .zero else { return false }
            var poller = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            guard poll(&poller, 1, Int32(max(1, left.components.seconds * 1000 + 1))) > 0 else { continue }
            var chunk = [UInt8](repeating: 0, count: 65536)
            let n = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if n < 0 && errno == EINTR { continue }
            guard n > 0 else { return enough(buffer) }
            buffer.append(contentsOf: chunk[..<n])
        }
        return true
    }

    struct Response {
        let status: Int
        let headers: [(String, String)]
        let body: String
        func header(_ name: String) -> String? { headers.first { $0.0.lowercased() == name.lowercased() }?.1 }
    }

    /// Sends a request and reads the response head, and its body by Content-Length.
    func request(_ target: String, method: String = "GET", headers: [(String, String)]) -> Response? {
        var text = "\(method) \(target) HTTP/1.1\r\n"
        for (name, value) in headers { text += "\(name): \(value)\r\n" }
        send(Array((text + "\r\n").utf8))
        let separator = Array("\r\n\r\n".utf8)
        guard fill(timeout: .seconds(10), until: { $0.firstRange(of: separator) != nil }),
            let end = buffer.firstRange(of: separator)
        else { return nil }
        let head = String(decoding: buffer[..<end.lowerBound], as: UTF8.self)
        buffer.removeSubrange(..<end.upperBound)
        var lines = head.components(separatedBy: "\r\n")
        let statusLine = lines.removeFirst().split(separator: " ")
        let status = statusLine.count > 1 ? Int(statusLine[1]) ?? 0 : 0
        let parsed = lines.compactMap { line -> (String, String)? in
            guard let colon = line.firstIndex(of: ":") else { return nil }
            return (String(line[..<colon]), line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces))
        }
        let length = parsed.first { $0.0.lowercased() == "content-length" }.flatMap { Int($0.1) } ?? 0
        _ = fill(timeout: .seconds(10)) { $0.count >= length }
        let body = String(decoding: buffer.prefix(length), as: UTF8.self)
        buffer.removeFirst(min(length, buffer.count))
        return Response(status: status, headers: parsed, body: body)
    }

    // MARK: WebSocket

    /// Sends one frame, masked as a browser must (`masked: false` and `rsv` bits, to test refusals).
    func sendFrame(opcode: UInt8, payload: [UInt8], fin: Bool = true, masked: Bool = true, rsv: UInt8 = 0) {
        var frame: [UInt8] = [(fin ? 0x80 : 0) | (rsv & 0x7) << 4 | opcode]
        let maskBit: UInt8 = masked ? 0x80 : 0
        if payload.count < 126 {
            frame.append(maskBit | UInt8(payload.count))
        } else if payload.count <= 0xFFFF {
            frame.append(maskBit | 126)
            frame += [UInt8(payload.count >> 8), UInt8(payload.count & 0xFF)]
        } else {
            frame.append(maskBit | 127)
            frame += (0..<8).reversed().map { UInt8((UInt64(payload.count) >> (UInt64($0) * 8)) & 0xFF) }
        }
        guard masked else {
            send(frame + payload)
            return
        }
        let mask: [UInt8] = [0x12, 0x34, 0x56, 0x78]
        frame += mask
        frame += payload.enumerated().map { $0.element ^ mask[$0.offset % 4] }
        send(frame)
    }

    /// The code of the server's close frame, skipping text frames before it; nil if none comes.
    func closeCode(timeout: Duration = .seconds(10)) -> Int? {
        while let frame = nextFrame(timeout: timeout) {
            if frame.opcode == 0x8 {
                return frame.payload.count >= 2 ? Int(frame.payload[0]) << 8 | Int(frame.payload[1]) : 1005
            }
        }
        return nil
    }

    func sendText(_ text: String) { sendFrame(opcode: 0x1, payload: Array(text.utf8)) }

    /// A masked text frame's bytes (for writing many without blocking).
    static func textFrame(_ text: String) -> [UInt8] {
        let payload = Array(text.utf8)
        precondition(payload.count <= 0xFFFF)
        var frame: [UInt8] = [0x81]
        if payload.count < 126 { frame.append(0x80 | UInt8(payload.count)) } else {
            frame += [0x80 | 126, UInt8(payload.count >> 8), UInt8(payload.count & 0xFF)]
        }
        let mask: [UInt8] = [1, 2, 3, 4]
        return frame + mask + payload.enumerated().map { $0.element ^ mask[$0.offset % 4] }
    }

    /// Whether a send found the connection closed by the peer (EPIPE or ECONNRESET).
    private(set) var broken = false

    /// Writes as much of `bytes` as the peer takes within `duration` without ever blocking; returns how much.
    func sendWhileAccepted(_ bytes: [UInt8], for duration: Duration) -> Int {
        let flags = fcntl(fd, F_GETFL)
        _ = fcntl(fd, F_SETFL, flags | O_NONBLOCK)
        defer { _ = fcntl(fd, F_SETFL, flags) }
        let deadline = ContinuousClock.now + duration
        var written = 0
        while written < bytes.count, ContinuousClock.now < deadline, !broken {
            let n = bytes.withUnsafeBytes { Glibc.send(fd, $0.baseAddress! + written, bytes.count - written, Int32(MSG_NOSIGNAL)) }
            if n > 0 {
                written += n
            } else if n < 0 && (errno == EPIPE || errno == ECONNRESET) {
                broken = true
            } else {
                usleep(10_000)
            }
        }
        return written
    }

    /// The status line of the next response ("HTTP/1.1 101 Switching Protocols"), or nil.
    func responseStatusLine(timeout: Duration = .seconds(10)) -> String? {
        let lineEnd = Array("\r\n".utf8)
        guard fill(timeout: timeout, until: { $0.firstRange(of: lineEnd) != nil }), let end = buffer.firstRange(of: lineEnd) else {
            return nil
        }
        let line = String(decoding: buffer[..<end.lowerBound], as: UTF8.self)
        buffer.removeAll()
        return line
    }

    /// The next frame from the server (servers do not mask), or nil on timeout or EOF.
    func nextFrame(timeout: Duration = .seconds(10)) -> (opcode: UInt8, payload: [UInt8])? {
        var parsed: (opcode: UInt8, payload: [UInt8], size: Int)?
        _ = fill(timeout: timeout) { bytes in
            parsed = Self.parseFrame(bytes)
            return parsed != nil
        }
        guard let parsed else { return nil }
        buffer.removeFirst(parsed.size)
        return (parsed.opcode, parsed.payload)
    }

    private static func parseFrame(_ bytes: [UInt8]) -> (opcode: UInt8, payload: [UInt8], size: Int)? {
        guard bytes.count >= 2 else { return nil }
        var length = Int(bytes[1] & 0x7F)
        var offset = 2
        if length == 126 {
            guard bytes.count >= 4 else { return nil }
            length = Int(bytes[2]) << 8 | Int(bytes[3])
            offset = 4
        } else if length == 127 {
            guard bytes.count >= 10 else { return nil }
            length = bytes[2..<10].reduce(0) { $0 << 8 | Int($1) }
            offset = 10
        }
        guard bytes.count >= offset + length else { return nil }
        return (bytes[0] & 0x0F, Array(bytes[offset..<(offset + length)]), offset + length)
    }

    func nextText(timeout: Duration = .seconds(10)) -> String? {
        while let frame = nextFrame(timeout: timeout) {
            if frame.opcode == 0x1 { return String(decoding: frame.payload, as: UTF8.self) }
            if frame.opcode == 0x8 { return nil }
        }
        return nil
    }

    /// True once the server has closed the TCP connection.
    func isClosed(timeout: Duration = .seconds(10)) -> Bool {
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline {
            var poller = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            guard poll(&poller, 1, 100) > 0 else { continue }
            var chunk = [UInt8](repeating: 0, count: 65536)
            let n = recv(fd, &chunk, chunk.count, 0)
            if n == 0 { return true }
            if n < 0 && errno != EINTR { return true }
        }
        return false
    }
}
