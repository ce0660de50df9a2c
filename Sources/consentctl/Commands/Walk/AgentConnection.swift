import LocalSocket
import FileBytes
import Foundation
import JSON

#if canImport(Glibc)
import Glibc
#endif

/// A blocking JSON-RPC client on consentd's UNIX socket, for one interactive `consentctl walk`.
///
/// Blocking is enough here: the walk does one thing at a time, and events that arrive meanwhile (ink while the
/// participant signs) wait in the socket until the next reply is read; they are kept in `events` for the walk.
/// Messages are `JSONValue` trees (the JSON module), because the walk must show view models of steps it does not
/// know; requests go out in the wire's form, as consentd writes its own lines.
final class AgentConnection {
    /// A JSON-RPC error reply: `data.type` and the message, as the agent sent them.
    struct Refusal: Error, CustomStringConvertible {
        var type: String
        var message: String
        var description: String { "\(type): \(message)" }
    }

    struct ConnectionFailure: Error, CustomStringConvertible {
        var description: String
    }

    private let fd: Int32
    private var buffer: [UInt8] = []
    private var nextID = 1
    /// Notifications received while waiting for replies (`ink.points`, `flow.changed`, …), oldest first.
    private(set) var events: [JSONValue] = []

    init(path: String) throws {
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw ConnectionFailure(description: "cannot create a socket (errno \(errno))") }
        let failure = LocalSocket.connect(fd, to: path)
        guard failure == 0 else {
            close(fd)
            if failure == ENAMETOOLONG { throw ConnectionFailure(description: "\(path): the socket path is too long") }
            let reason = String(cString: strerror(failure))
            throw ConnectionFailure(description: "\(path): cannot connect to consentd (\(reason)); is it running?")
        }
        self.fd = fd
    }

    deinit { close(fd) }

    /// Reads the greeting and negotiates version 1.
    func negotiate(client: String) throws {
        guard let hello = try readMessage(), hello["method"] == "hello" else {
            throw ConnectionFailure(description: "the agent did not greet with hello")
        }
        _ = try call("session.negotiate", ["client": .string(client), "version": 1])
    }

    /// Sends a request and waits for its reply; notifications in between go to `events`.
    ///
    /// - Throws: `Refusal` for an error reply, `ConnectionFailure` when the agent goes away.
    /// - Returns: the reply's `result` object (an empty object when it is none).
    func call(_ method: String, _ params: [String: JSONValue] = [:]) throws -> JSONValue {
        let id = nextID
        nextID += 1
        let request: JSONValue = ["jsonrpc": "2.0", "id": .integer(Int64(id)), "method": .string(method), "params": .object(params)]
        var line = JSONValueWriter(style: .wire, capacity: 512)
        try? line.write(request)  // the wire's form never fails
        line.append(0x0A)
        try send(line.bytes)
        while let message = try readMessage() {
            guard let replyID = message["id"]?.intValue, replyID == id else {
                if message["method"] != nil { events.append(message) }
                continue
            }
            if let error = message["error"]?.asObject {
                let data = error["data"]?.asObject
                throw Refusal(
                    type: data?["type"]?.stringValue ?? "Error", message: error["message"]?.stringValue ?? "(no message)")
            }
            return message["result"]?.asObject ?? [:]
        }
        throw ConnectionFailure(description: "the agent closed the connection during \(method)")
    }

    /// The socket, for `poll` beside stdin while the participant signs.
    var fileDescriptor: Int32 { fd }

    /// Reads what has arrived (call when `fileDescriptor` is readable) and keeps the complete notifications.
    ///
    /// - Throws: `ConnectionFailure` when the agent closed the connection.
    func pump() throws {
        guard try readChunk() else { throw ConnectionFailure(description: "the agent closed the connection") }
        try collectBuffered()
    }

    /// Moves the notifications already read (behind the last reply, in the same read) to `events`, so nothing
    /// waits unseen in the buffer while `poll` only watches the socket.
    func collectBuffered() throws {
        while let message = try nextBufferedMessage() {
            if message["method"] != nil { events.append(message) }
        }
    }

    /// Hands over the events received so far and forgets them.
    func takeEvents() -> [JSONValue] {
        defer { events.removeAll() }
        return events
    }

    private func send(_ data: [UInt8]) throws {
        try data.withUnsafeBytes { raw in
            guard let base = raw.baseAddress else { return }
            var offset = 0
            while offset < raw.count {
                let written = FileBytes.retryingEINTR { write(fd, base + offset, raw.count - offset) }
                guard written > 0 else { throw ConnectionFailure(description: "the agent closed the connection") }
                offset += written
            }
        }
    }

    /// The next JSON object line, nil at end of stream.
    private func readMessage() throws -> JSONValue? {
        while true {
            if let message = try nextBufferedMessage() { return message }
            guard try readChunk() else { return nil }
        }
    }

    /// A complete line already received, parsed; nil when no complete line is buffered.
    private func nextBufferedMessage() throws -> JSONValue? {
        while let newline = buffer.firstIndex(of: 0x0A) {
            let line = Array(buffer[..<newline])
            buffer.removeSubrange(...newline)
            guard !line.isEmpty else { continue }
            guard let object = (try? JSONParser.parse(line))?.asObject else {
                throw ConnectionFailure(description: "the agent sent a line that is not a JSON object")
            }
            return object
        }
        return nil
    }

    /// One read into the buffer; false at end of stream.
    private func readChunk() throws -> Bool {
        var chunk = [UInt8](repeating: 0, count: 65536)
        let count = chunk.withUnsafeMutableBytes { raw in FileBytes.retryingEINTR { read(fd, raw.baseAddress, raw.count) } }
        guard count > 0 else { return false }
        buffer.append(contentsOf: chunk[..<count])
        return true
    }
}
