import Foundation
import HexText
import NIOCore

/// Why consentweb refuses to start; each case's description is the sentence it prints before exiting non-zero.
public enum BridgeConfigurationError: Error, CustomStringConvertible, Equatable {
    case malformedListen(String)
    case notLoopback(String)
    /// `option` is the flag that named the file (`--token-file`, `--staff-token-file`).
    case tokenFileUnreadable(String, option: String = "--token-file")
    case tokenFileTooOpen(path: String, mode: String, option: String = "--token-file")
    case tokenFileMalformed(String, option: String = "--token-file")
    case sameTokens
    case uiFolderMissing(String)
    case malformedMaxConnections(Int)

    public var description: String {
        switch self {
        case .malformedListen(let value):
            return "--listen \(value): expected HOST:PORT, such as 127.0.0.1:8080 or [::1]:8080"
        case .notLoopback(let host):
            return "--listen: \(host) is not a loopback address; consentweb listens only on 127.0.0.1 or ::1 "
                + "(the kiosk's browser runs on the same machine, and nothing else may reach the agent)"
        case .tokenFileUnreadable(let path, let option):
            return "\(option) \(path): cannot be read"
        case .tokenFileTooOpen(let path, let mode, let option):
            return "\(option) \(path): mode \(mode) lets others read it; make it 0600 (chmod 600 \(path))"
        case .tokenFileMalformed(let path, let option):
            return "\(option) \(path): expected one line of at least 16 characters from A-Z a-z 0-9 - _"
        case .sameTokens:
            return "--staff-token-file holds the same token as --token-file; the staff page needs a token of its own"
        case .uiFolderMissing(let path):
            return "--ui \(path): not a folder holding index.html"
        case .malformedMaxConnections(let value):
            return "--max-connections \(value): expected a whole number of at least 1"
        }
    }
}

/// `--listen HOST:PORT`, loopback only: `127.0.0.1:8080`, `[::1]:8080`, `localhost:8080` (taken as 127.0.0.1).
public struct ListenAddress: Equatable, Sendable {
    /// The numeric address bound: `127.0.0.1` or `::1`.
    public let host: String
    /// 0 lets the kernel choose one (the URL printed at start says which).
    public let port: Int

    public init(parsing value: String) throws {
        let hostPart: String
        let portPart: Substring
        if value.hasPrefix("[") {
            guard let close = value.firstIndex(of: "]"), value[value.index(after: close)...].hasPrefix(":") else {
                throw BridgeConfigurationError.malformedListen(value)
            }
            hostPart = String(value[value.index(after: value.startIndex)..<close])
            portPart = value[value.index(close, offsetBy: 2)...]
        } else {
            guard let colon = value.lastIndex(of: ":"), !value[..<colon].contains(":") else {
                throw BridgeConfigurationError.malformedListen(value)
            }
            hostPart = String(value[..<colon])
            portPart = value[value.index(after: colon)...]
        }
        guard let port = Int(portPart), (0...65535).contains(port), !hostPart.isEmpty else {
            throw BridgeConfigurationError.malformedListen(value)
        }
        switch hostPart.lowercased() {
        case "127.0.0.1", "localhost": host = "127.0.0.1"
        case "::1", "0:0:0:0:0:0:0:1": host = "::1"
        default: throw BridgeConfigurationError.notLoopback(hostPart)
        }
        self.port = port
    }
}

/// The secret a page must present to open `/rpc`: random per start, or read from a `0600` file.
public struct BridgeToken: Sendable, Equatable {
    public let value: String

    /// 32 random bytes from the system's CSPRNG (getrandom), as 64 hex digits.
    public static func random() -> BridgeToken {
        var generator = SystemRandomNumberGenerator()
        let bytes = (0..<32).map { _ in UInt8.random(in: 0...255, using: &generator) }
        return BridgeToken(unchecked: HexText.lowercase(bytes))
    }

    /// Reads the token from a file only its owner may read (mode 0600 or stricter); `option` names the flag in errors.
    public static func read(from path: String, option: String = "--token-file") throws -> BridgeToken {
        var status = stat()
        guard stat(path, &status) == 0, (status.st_mode & S_IFMT) == S_IFREG else {
            throw BridgeConfigurationError.tokenFileUnreadable(path, option: option)
        }
        guard status.st_mode & 0o077 == 0 else {
            throw BridgeConfigurationError.tokenFileTooOpen(
                path: path, mode: String(status.st_mode & 0o777, radix: 8), option: option)
        }
        guard let text = try? String(contentsOfFile: path, encoding: .utf8) else {
            throw BridgeConfigurationError.tokenFileUnreadable(path, option: option)
        }
        let value = text.trimmingCharacters(in: .whitespacesAndNewlines)
        let allowed = Set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_")
        guard value.count >= 16, value.allSatisfy(allowed.contains) else {
            throw BridgeConfigurationError.tokenFileMalformed(path, option: option)
        }
        return BridgeToken(unchecked: value)
    }

    init(unchecked value: String) { self.value = value }

    /// Compares without an early exit, so the time taken says nothing about how much of a guess was right.
    public func matches(_ candidate: String) -> Bool {
        let a = Array(value.utf8)
        let b = Array(candidate.utf8)
        var difference = UInt8(a.count == b.count ? 0 : 1)
        for i in 0..<a.count { difference |= a[i] ^ (i < b.count ? b[i] : 0) }
        return difference == 0
    }
}

/// Everything the bridge needs to run.
public struct BridgeConfiguration: Sendable {
    public var socketPath: String
    public var listen: ListenAddress
    public var token: BridgeToken
    /// The staff page's secret (`/staff`, `/staff/rpc`), never the kiosk's: `--staff-token-file`, or random.
    public var staffToken: BridgeToken
    /// The UI's files (index.html, staff.html, …).
    public var uiFolder: URL
    /// The cap on a browser's frame until the agent's `hello` says its `limits.maxLineBytes`.
    public var defaultMaxLineBytes: Int = 1 << 20
    /// How long to wait for the agent's first line (socket activation may start it) before answering 504.
    public var agentHelloTimeout: TimeAmount = .seconds(15)
    /// How long an HTTP connection may take to send a whole request (after it opens, or after the last
    /// response) before it is closed; WebSockets, once open, have no such limit.
    public var handshakeTimeout: TimeAmount = .seconds(5)
    /// The longest line accepted from the agent (its view models carry whole consent documents).
    public var maxAgentLineBytes: Int = 64 << 20
    /// At most this many connections at once (`--max-connections`); one more is closed as it is accepted.
    public var maxConnections: Int = 512
    /// At most one log line per this interval for refused upgrades and connections (a summary with the counts).
    public var refusalLogInterval: TimeAmount = .seconds(10)

    /// The default `maxConnections` for a process allowed `descriptorLimit` open files: a relay holds two
    /// descriptors (the browser's and the agent's), and a few stay free for the listener, the UI's files and logging.
    public static func defaultMaxConnections(descriptorLimit: Int) -> Int {
        max(1, (descriptorLimit - 16) / 2)
    }

    public init(
        socketPath: String, listen: ListenAddress, token: BridgeToken, staffToken: BridgeToken = .random(), uiFolder: URL
    ) {
        self.socketPath = socketPath
        self.listen = listen
        self.token = token
        self.staffToken = staffToken
        self.uiFolder = uiFolder
    }
}
