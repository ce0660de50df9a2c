import Foundation
import IntegrationSupport
import Testing

/// A client on a plain `AF_UNIX` socket, for what socat cannot do from a test: bytes that are not UTF-8, a 100 MB
/// line written as fast as the agent reads it, a close in the middle of a line or right after a request.
///
/// Replies are read with `poll`, so a silent agent makes `nextLine` return nil after its timeout. Lines received
/// (and short, valid UTF-8 lines sent) go to a transcript that `ConsentdProcess.finish` validates.
final class RawSocketClient {
    private(set) var fd: Int32
    private var buffer: [UInt8] = []
    private let transcript: FileHandle
    private var nextID = 1

    init(socket path: String, transcript: URL) throws {
        _ = FileManager.default.createFile(atPath: transcript.path, contents: nil)
        self.transcript = try FileHandle(forWritingTo: transcript)
        fd = try Self.connect(path)
    }

    /// Connects without a transcript or any reading: for opening many connections.
    static func connect(_ path: String) throws -> Int32 {
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(path.utf8)
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            for (i, byte) in bytes.prefix(raw.count - 1).enumerated() { raw[i] = byte }
        }
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                Glibc.connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
            }
        }
        guard result == 0 else {
            let code = errno
            Glibc.close(fd)
            throw POSIXError(POSIXErrorCode(rawValue: code) ?? .EIO)
        }
        return fd
    }

    /// Writes all of `bytes`; false when the agent closed the connection.
    @discardableResult
    func send(_ bytes: [UInt8]) -> Bool {
        if bytes.count < 4096, let text = String(validating: bytes, as: UTF8.self) {
            record("->", text.trimmingCharacters(in: .newlines))
        }
        var written = 0
        while written < bytes.count {
            let n = bytes.withUnsafeBytes { Glibc.send(fd, $0.baseAddress! + written, bytes.count - written, Int32(MSG_NOSIGNAL)) }
            if n < 0 && errno == EINTR { continue }
            guard n > 0 else { return false }
            written += n
        }
        return true
    }

    @discardableResult
    func send(line: String) -> Bool { send(Array((line + "\n").utf8)) }

    /// The next line from the agent (without its `\n`), or nil on timeout or EOF.
    func nextLine(timeout: Duration = .seconds(10)) -> String? {
        let deadline = ContinuousClock.now + timeout
        while true {
            if let newline = buffer.firstIndex(of: UInt8(ascii: "\n")) {
                let line = String(decoding: buffer[..<newline], as: UTF8.self)
                buffer.removeSubrange(...newline)
                record("<-", line)
                return line
            }
            let left = deadline - ContinuousClock.now
            guard left > .zero else { return nil }
            var poller = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            let ms = Int32(left.components.seconds * 1000 + left.components.attoseconds / 1_000_000_000_000_000)
            guard poll(&poller, 1, max(1, ms)) > 0 else { continue }
            var chunk = [UInt8](repeating: 0, count: 65536)
            let n = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if n < 0 && errno == EINTR { continue }
            guard n > 0 else { return nil }
            buffer += chunk[..<n]
        }
    }

    func next(timeout: Duration = .seconds(10)) -> JSONObject? { nextLine(timeout: timeout).flatMap(parseJSON) }

    /// Reads `hello`, negotiates version 1.
    func negotiate(sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(next()?.string("method") == "hello", sourceLocation: sourceLocation)
        #expect(call("session.negotiate", ["client": "integration-test/raw", "version": 1]).int("result.version") == 1,
            sourceLocation: sourceLocation)
    }

    /// Sends a request and reads until its reply (events are skipped).
    @discardableResult
    func call(_ method: String, _ params: JSONObject? = nil) -> JSONObject {
        let id = "raw-\(nextID)"
        nextID += 1
        var request: JSONObject = ["jsonrpc": "2.0", "id": id, "method": method]
        if let params { request["params"] = params }
        send(line: jsonLine(request))
        return reply(to: id)
    }

    /// Reads until the reply with `id` (a string) arrives; events are skipped; [:] on timeout or EOF.
    func reply(to id: String, timeout: Duration = .seconds(10)) -> JSONObject {
        while let message = next(timeout: timeout) {
            if message["method"] == nil, message["id"] as? String == id { return message }
        }
        return [:]
    }

    /// Whether the agent closed the connection: EOF within `timeout` (lines still arriving are consumed).
    func isClosedByPeer(within timeout: Duration) -> Bool {
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline {
            var poller = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            guard poll(&poller, 1, 100) > 0 else { continue }
            var chunk = [UInt8](repeating: 0, count: 65536)
            let n = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if n == 0 || (n < 0 && errno != EINTR) { return true }
        }
        return false
    }

    func close() {
        guard fd >= 0 else { return }
        Glibc.close(fd)
        fd = -1
        try? transcript.close()
    }

    private func record(_ dir: String, _ line: String) {
        try? transcript.write(contentsOf: Data((jsonLine(["dir": dir, "line": line]) + "\n").utf8))
    }

    deinit { close() }
}

/// consentd's memory and descriptors, from /proc.
enum ProcStatus {
    /// A `kB` field of /proc/PID/status (`VmRSS`, `VmHWM`), in bytes.
    static func bytes(_ field: String, pid: Int32) -> Int? {
        guard let text = fileText("/proc/\(pid)/status") else { return nil }
        for line in text.split(separator: "\n") where line.hasPrefix(field + ":") {
            let number = line.dropFirst(field.count + 1).split(whereSeparator: { $0 == " " || $0 == "\t" }).first
            return number.flatMap { Int($0) }.map { $0 * 1024 }
        }
        return nil
    }

    static func openDescriptors(pid: Int32) -> Int {
        (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/fd").count) ?? -1
    }
}
