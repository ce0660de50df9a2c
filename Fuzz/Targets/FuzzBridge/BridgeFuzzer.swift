// The harness is compiled in debug builds only: the bridge's handlers are internal to KioskBridge and reached with
// `@testable import`, which needs `-enable-testing` (SwiftPM passes it, and defines DEBUG, in the debug
// configuration). A release build of the package gets the stub of Entry.swift.
#if DEBUG
import AgentProtocol
import Foundation
import FuzzSupport
import Logging
import NIOConcurrencyHelpers
import NIOCore
import NIOEmbedded

@testable import KioskBridge

/// Drives consentweb's own pipeline for one browser connection (`BridgePipeline.configure`, what `BridgeServer`
/// builds for every accepted connection) on an embedded channel, in process: HTTP requests, WebSocket frames and the
/// agent's lines, under every interleaving of who writes, who reads and when time passes. The agent's side of a relay
/// is an embedded channel too, with the handlers `BridgeServer.connectAgent` gives a real one, and the same wait for
/// its first line (and the same timeout).
///
/// Each side's socket is `SocketModel`, first in its pipeline: it takes a `read()` as the kernel would (bytes the
/// peer wrote are handed over only when one is pending, and reading again after each read is NIO's auto-read), and
/// keeps what the bridge writes until the peer reads it, with NIO's writability from water marks. The marks are
/// 512 B and 2 KiB instead of the server's 64 and 256 KiB, so that a short input reaches them; the handlers only see
/// the writability flag change.
///
/// Input layout: byte 0 is the agent (bits 0-1: it answers with a `hello` allowing 200-byte lines; with one allowing
/// 4096; with a first line that is no `hello`, so the bridge keeps its default; it cannot be reached). Then operations
/// of one byte (modulo `Op.allCases.count`) with their argument bytes (`Op` says which); an argument past the end reads
/// as 0. At the end the peers read everything that is left, the browser goes away, the agent's hello timeout passes,
/// and the checks below run on everything written.
///
/// Checks beyond crashes:
/// - a read reaches the browser's socket only while the browser can take writes (`ReadWhileWritable`), and the
///   agent's only while the browser can take what it relays (once paired);
/// - at most `StaticHTTPHandler.maximumUnsentResponses` answers wait in the socket (one more: NIO's own `400`, or the
///   `101`), and the bytes waiting on either side stay within the high water mark plus what one read can cause;
/// - HTTP status codes are among those the bridge answers; after a `101`, every frame the bridge sends is final,
///   unmasked, without RSV bits, text, pong or close; a close frame is the last, at most one, its code one an endpoint
///   may send (RFC 6455 section 7.4) and its reason UTF-8;
/// - the text frames are the agent's lines, in order and unchanged;
/// - every line the agent gets is UTF-8 without a newline inside and one JSON value, and, read as the agent reads its
///   socket (its own line decoder, which drops a byte-order mark at the start, and parser), a `session.negotiate`
///   among them asks for no capability beyond the page's ceiling (`CapabilityCeiling`), nor for all by naming none;
/// - once the browser is gone, no agent connection is left open.
final class BridgeFuzzer: Sendable {
    enum Op: UInt8, CaseIterable {
        /// arg: which of `requests`. The browser writes an HTTP request.
        case request
        /// arg: a length n < 64, then n bytes: the browser writes them as they are.
        case browserRaw
        /// args: the frame's first byte as sent (FIN, RSV1-3, opcode), a flags byte (bit 7: masked; bits 5-6: the
        /// length's form, 7-bit, 16-bit or 64-bit; bits 0-4: the payload, one of `messages` (0-8) or `closePayloads`
        /// (9-20), or n < 128 raw bytes whose n is the next byte). The browser writes one WebSocket frame.
        case frame
        /// arg: how many bytes (0: all). The browser's kernel hands its bytes to the bridge, if it reads.
        case browserDeliver
        /// arg: how many bytes, in 16s (0: all). The browser reads what the bridge wrote to it.
        case browserTake
        /// arg: which of `agentLines`. The agent writes a line.
        case agentLine
        /// arg: a length n < 64, then n bytes: the agent writes them as they are.
        case agentRaw
        /// arg: how many bytes (0: all). The agent's kernel hands its bytes to the bridge, if it reads.
        case agentDeliver
        /// arg: how many bytes, in 16s (0: all). The agent reads what the bridge wrote to it.
        case agentTake
        /// arg: seconds, 0-7. Time passes (the request deadline is 5 s, the agent's hello timeout 15 s).
        case wait
        /// The browser goes away.
        case browserClose
        /// The agent goes away (stopped, restarted).
        case agentClose
    }

    /// `Op.allCases.count`, once: `allCases` builds its array at each call.
    static let opCount = UInt8(Op.allCases.count)
    static let port = 8080
    static let host = "127.0.0.1:\(port)"
    static let token = "kiosk-token-0123456789"
    static let staffToken = "staff-token-0123456789"
    static let lowWater = 512
    static let highWater = 2048
    /// What one read may add to what waits in a socket on top of the high water mark: 17 answers of at most 1 KiB
    /// (the harness's files are small), or frames for what one read brought (at most `-max_len`, 4096; a frame's
    /// header is at most 10 bytes, for a line of at least 1).
    static let oneReadBound = 17 * 1024 + 11 * 4096

    static let upgradeHeaders =
        "Upgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n"
        + "Sec-WebSocket-Version: 13\r\n"
    static let origin = "Origin: http://\(host)\r\n"

    /// The browser's requests: the pages, files and refusals, and upgrades that are valid or wrong in one way each.
    static let requests: [[UInt8]] = [
        "GET / HTTP/1.1\r\nHost: \(host)\r\n\r\n",
        "GET /?token=\(token) HTTP/1.1\r\nHost: \(host)\r\n\r\n",
        "GET /staff?token=\(staffToken) HTTP/1.1\r\nHost: \(host)\r\n\r\n",
        "GET /app.js HTTP/1.1\r\nHost: \(host)\r\nConnection: keep-alive\r\n\r\n",
        "HEAD /style.css HTTP/1.1\r\nHost: \(host)\r\n\r\n",
        "GET /rpc?token=\(token) HTTP/1.1\r\nHost: \(host)\r\n\(origin)\(upgradeHeaders)\r\n",
        "GET /staff/rpc HTTP/1.1\r\nHost: \(host)\r\n\(origin)Cookie: consentweb_staff_token=\(staffToken)\r\n\(upgradeHeaders)\r\n",
        "GET /rpc?token=wrong HTTP/1.1\r\nHost: \(host)\r\n\(origin)\(upgradeHeaders)\r\n",
        "GET /rpc?token=\(token) HTTP/1.1\r\nHost: \(host)\r\nOrigin: http://evil.example\r\n\(upgradeHeaders)\r\n",
        "GET /rpc?token=\(token) HTTP/1.1\r\nHost: evil.example:\(port)\r\n\(origin)\(upgradeHeaders)\r\n",
        "POST /rpc?token=\(token) HTTP/1.1\r\nHost: \(host)\r\n\(origin)\(upgradeHeaders)Content-Length: 2\r\n\r\n{}",
        "GET /rpc?token=\(token) HTTP/1.0\r\nHost: \(host)\r\n\(origin)\(upgradeHeaders)\r\n",
        "GET /rpc HTTP/1.1\r\nHost: \(host)\r\n\r\n",
        "GET /../etc/passwd HTTP/1.1\r\nHost: \(host)\r\n\r\n",
        "GET / HTTP/1.1\r\nHost: \(host)\r\nConnection: close\r\n\r\n",
        "GET /staff/rpc?token=\(token) HTTP/1.1\r\nHost: \(host)\r\n\(origin)\(upgradeHeaders)\r\n",
    ].map { Array($0.utf8) }

    /// Text the browser may send: negotiations asking for more than a page may hold, spelled plainly or with an escape.
    static let messages: [[UInt8]] = [
        #"{"jsonrpc":"2.0","id":1,"method":"session.negotiate","params":{"client":"fuzz/1","version":1,"capabilities":["events","records","ink-stream","ui-strokes","x"]}}"#,
        #"{"jsonrpc":"2.0","id":1,"method":"session.negotiate","params":{"client":"fuzz/1","version":1}}"#,
        #"{"jsonrpc":"2.0","id":1,"method":"session.negotiate","params":{"version":1,"capabilities":"records"}}"#,
        #"{"jsonrpc":"2.0","id":1,"method":"session.\u006eegotiate","params":{"version":1,"capabilities":["records"]}}"#,
        #"{"jsonrpc":"2.0","id":2,"method":"session.sync"}"#,
        "{\"jsonrpc\":\"2.0\",\n\"id\":3}",
        "{\"bad\":\"\u{FF}\"}",
        "",
    ].map { Array($0.utf8) } + [[0x7B, 0xC3, 0x28, 0x7D]]

    /// Close frames' payloads: valid codes, codes no endpoint may send, one byte, a reason that is no UTF-8.
    static let closePayloads: [[UInt8]] = [
        [], [0x03, 0xE8], [0x03, 0xE9], [0x03, 0xED], [0x03, 0xEE], [0x03, 0xF7], [0x0B, 0xB8], [0x13, 0x88],
        [0x03], [0x03, 0xE8, 0xC3, 0x28], [0x03, 0xE8] + Array("bye".utf8), [0x00, 0x00],
    ]

    /// The agent's lines (each sent with its newline): hellos, a reply, an event, a refusal, a line longer than the
    /// bridge's cap (512 bytes in the harness), one that is no UTF-8.
    static let agentLines: [[UInt8]] = [
        #"{"jsonrpc":"2.0","method":"hello","params":{"protocol":"consent-kiosk-agent","versions":[1],"limits":{"maxLineBytes":200}}}"#,
        #"{"jsonrpc":"2.0","method":"hello","params":{"protocol":"consent-kiosk-agent","versions":[1],"limits":{"maxLineBytes":4096}}}"#,
        #"{"jsonrpc":"2.0","id":1,"result":{"version":1,"capabilities":["events"]}}"#,
        #"{"jsonrpc":"2.0","method":"flow.changed","params":{"seq":1,"data":{}}}"#,
        #"{"jsonrpc":"2.0","id":null,"error":{"code":-32001,"message":"refused","data":{"type":"PeerRefused"}}}"#,
        String(repeating: "x", count: 600),
        "",
    ].map { Array($0.utf8) } + [[0xFF, 0xFE, 0x41]]

    /// The agent's first line per setting of byte 0, `nil` when it cannot be reached.
    static let firstLines: [[UInt8]?] = [agentLines[0], agentLines[1], agentLines[3], nil]

    static let maskKey: [UInt8] = [0x37, 0xFA, 0x21, 0x3D]
    static let maxAgentLineBytes = 512
    static let defaultMaxLineBytes = 300
    /// The status codes the bridge answers (`StaticHTTPHandler`, the upgrader) and NIO's own `400` for a request it
    /// cannot parse.
    static let statuses: Set<Int> = [101, 200, 400, 403, 404, 405, 426, 502]

    let files: StaticFiles
    let configuration: BridgeConfiguration
    /// Made once: every input would otherwise parse the same addresses and make the same logger.
    let shared: BridgeRun.Shared

    /// Writes a small UI folder of its own (the pages and files the bridge serves; their content does not matter to
    /// it, their sizes keep each answer within 1 KiB).
    init() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("FuzzBridge-ui-\(getpid())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let pages = [
            "index.html": "<!doctype html><title>kiosk</title><script src=app.js></script>",
            "staff.html": "<!doctype html><title>staff</title><script src=staff.js></script>",
            "app.js": "export const kiosk = 1;\n", "staff.js": "export const staff = 1;\n", "style.css": "body{}\n",
        ]
        for (name, text) in pages {
            try Data(text.utf8).write(to: folder.appendingPathComponent(name))
        }
        files = try StaticFiles(folder: folder)
        try? FileManager.default.removeItem(at: folder)
        var configuration = BridgeConfiguration(
            socketPath: "/nonexistent/consentd.sock", listen: try ListenAddress(parsing: Self.host),
            token: BridgeToken(unchecked: Self.token), staffToken: BridgeToken(unchecked: Self.staffToken),
            uiFolder: folder)
        configuration.maxAgentLineBytes = Self.maxAgentLineBytes
        configuration.defaultMaxLineBytes = Self.defaultMaxLineBytes
        self.configuration = configuration
        shared = BridgeRun.Shared(
            browserAddress: try SocketAddress(ipAddress: "127.0.0.1", port: 40000),
            agentAddress: try SocketAddress(ipAddress: "127.0.0.1", port: 40001),
            logger: Logger(label: "FuzzBridge", factory: { _ in SwiftLogNoOpLogHandler() }))
    }

    func run(_ input: [UInt8]) {
        var reader = FuzzByteReader(bytes: input)
        let first = Self.firstLines[Int(reader.arg() & 3)]
        let run = BridgeRun(files: files, configuration: configuration, shared: shared, agentFirstLine: first)
        while let byte = reader.byte() {
            guard let op = Op(rawValue: byte % Self.opCount) else { continue }
            run.perform(op, &reader)
            run.checkBounds()
        }
        run.finish()
    }
}

/// One input's connection: the browser's channel with the bridge's pipeline, the agent connections it made, and what
/// each peer has written and read. Everything runs on the fuzzer's thread, on one `EmbeddedEventLoop` that both sides
/// share as the server's relays share their event loop; `@unchecked Sendable` only because the bridge's agent
/// connector is a `@Sendable` closure.
final class BridgeRun: @unchecked Sendable {
    let loop: EmbeddedEventLoop
    let browser: EmbeddedChannel
    let browserSocket: SocketModel
    /// What the browser wrote that the bridge has not read yet.
    var browserInbound: [UInt8] = []
    var agents: [AgentEnd] = []
    let agentFirstLine: [UInt8]?
    /// The ceiling of the page the upgrade was for, once the relay exists.
    var ceiling: CapabilityCeiling?
    let shared: Shared

    struct Shared: Sendable {
        let browserAddress: SocketAddress
        let agentAddress: SocketAddress
        let logger: Logger
    }

    final class AgentEnd {
        let channel: EmbeddedChannel
        let socket: SocketModel
        /// What the agent wrote that the bridge has not read yet, and everything it has read.
        var inbound: [UInt8] = []
        var delivered: [UInt8] = []

        init(channel: EmbeddedChannel, socket: SocketModel) {
            self.channel = channel
            self.socket = socket
        }
    }

    init(files: StaticFiles, configuration: BridgeConfiguration, shared: Shared, agentFirstLine: [UInt8]?) {
        self.agentFirstLine = agentFirstLine
        self.shared = shared
        let loop = EmbeddedEventLoop()
        self.loop = loop
        browser = EmbeddedChannel(loop: loop)
        browserSocket = SocketModel(low: BridgeFuzzer.lowWater, high: BridgeFuzzer.highWater)
        let pipeline = BridgePipeline(
            files: files, configuration: configuration, logger: shared.logger,
            connections: ManagedAtomicCounter(),
            logRefusal: { _ in },
            connectAgent: { [unowned self] eventLoop in self.connectAgent(on: eventLoop, configuration: configuration) })
        browserSocket.readAllowed = { [unowned self] in self.browser.isWritable }
        do {
            try browser.pipeline.syncOperations.addHandler(browserSocket)
            try pipeline.configure(browser)
            browser.connect(to: shared.browserAddress, promise: nil)
        } catch {
            fatalError("FuzzBridge cannot build the pipeline: \(error)")
        }
        // NIO's auto-read asks for the first read once the channel is active.
        browser.read()
    }

    /// `BridgeServer.connectAgent` without the socket: the same handlers, ready once the agent's first line has come,
    /// failing after `agentHelloTimeout` without one.
    func connectAgent(on eventLoop: EventLoop, configuration: BridgeConfiguration) -> EventLoopFuture<(Channel, Int)> {
        guard let firstLine = agentFirstLine else {
            // No agent: the connect fails, as it does when consentd's socket is missing or refuses.
            return eventLoop.makeFailedFuture(ChannelError.connectTimeout(.seconds(0)))
        }
        let hello = eventLoop.makePromise(of: Int.self)
        let timeout = eventLoop.scheduleTask(in: configuration.agentHelloTimeout) {
            hello.fail(ChannelError.connectTimeout(configuration.agentHelloTimeout))
        }
        hello.futureResult.whenComplete { _ in timeout.cancel() }
        let channel = EmbeddedChannel(loop: loop)
        let socket = SocketModel(low: BridgeFuzzer.lowWater, high: BridgeFuzzer.highWater)
        socket.readAllowed = { [unowned self] in !self.isPaired || self.browser.isWritable }
        do {
            try channel.pipeline.syncOperations.addHandlers([
                socket, AgentSideHandler.lineDecoder(maximum: configuration.maxAgentLineBytes),
                AgentSideHandler(hello: hello, defaultMaxLineBytes: configuration.defaultMaxLineBytes),
            ])
            channel.connect(to: shared.agentAddress, promise: nil)
        } catch {
            fatalError("FuzzBridge cannot build the agent's pipeline: \(error)")
        }
        let agent = AgentEnd(channel: channel, socket: socket)
        // The agent greets first, as consentd does; when its kernel hands the line over is up to the input.
        agent.inbound = firstLine + [0x0A]
        agents.append(agent)
        channel.read()
        return hello.futureResult.map { (channel as Channel, $0) }.flatMapErrorThrowing { error in
            channel.close(promise: nil)
            throw error
        }
    }

    /// Whether the browser's pipeline holds the relay (the upgrade completed and the channel is open). Looked up only
    /// once the `101` is written: a lookup that fails throws, which allocates an error at every step before an upgrade.
    var isPaired: Bool {
        browserSocket.wroteUpgrade && (try? browser.pipeline.syncOperations.handler(type: BrowserSideHandler.self)) != nil
    }

    func perform(_ op: BridgeFuzzer.Op, _ reader: inout FuzzByteReader) {
        switch op {
        case .request:
            let requests = BridgeFuzzer.requests
            browserInbound += requests[Int(reader.arg()) % requests.count]
        case .browserRaw:
            let count = Int(reader.arg() & 63)
            browserInbound += reader.bytes(upTo: count)
        case .frame:
            browserInbound += Self.frame(&reader)
        case .browserDeliver:
            deliverToBrowser(count: Int(reader.arg()))
        case .browserTake:
            browserSocket.take(upTo: Self.takeCount(reader.arg()))
        case .agentLine:
            let lines = BridgeFuzzer.agentLines
            agents.last?.inbound += lines[Int(reader.arg()) % lines.count] + [0x0A]
        case .agentRaw:
            let count = Int(reader.arg() & 63)
            let bytes = reader.bytes(upTo: count)
            agents.last?.inbound += bytes
        case .agentDeliver:
            let count = Int(reader.arg())
            if let agent = agents.last { deliver(to: agent, count: count) }
        case .agentTake:
            agents.last?.socket.take(upTo: Self.takeCount(reader.arg()))
        case .wait:
            loop.advanceTime(by: .seconds(Int64(reader.arg() & 7)))
        case .browserClose:
            if browser.isActive { browser.close(promise: nil) }
        case .agentClose:
            if let agent = agents.last, agent.channel.isActive { agent.channel.close(promise: nil) }
        }
        loop.run()
        if ceiling == nil, browserSocket.wroteUpgrade,
            let relay = try? browser.pipeline.syncOperations.handler(type: BrowserSideHandler.self)
        {
            ceiling = relay.ceiling
        }
    }

    static func takeCount(_ arg: UInt8) -> Int { arg == 0 ? Int.max : Int(arg) * 16 }

    /// The browser's kernel hands up to `count` (0: all) of its bytes to the bridge, if the bridge asked to read.
    func deliverToBrowser(count: Int) {
        guard browser.isActive, browserSocket.readRequested, !browserInbound.isEmpty else { return }
        let chunk = Self.cut(&browserInbound, count)
        hand(chunk, to: browser, socket: browserSocket)
    }

    /// The same for an agent's bytes.
    func deliver(to agent: AgentEnd, count: Int) {
        guard agent.channel.isActive, agent.socket.readRequested, !agent.inbound.isEmpty else { return }
        let chunk = Self.cut(&agent.inbound, count)
        // What an agent's kernel handed over is what the browser must get back as text frames, line by line.
        agent.delivered += chunk
        hand(chunk, to: agent.channel, socket: agent.socket)
    }

    static func cut(_ bytes: inout [UInt8], _ count: Int) -> [UInt8] {
        let n = count == 0 ? bytes.count : min(count, bytes.count)
        defer { bytes.removeFirst(n) }
        return Array(bytes.prefix(n))
    }

    /// One read: the bytes, the read's end, and NIO's auto-read asking for the next.
    func hand(_ chunk: [UInt8], to channel: EmbeddedChannel, socket: SocketModel) {
        socket.readRequested = false
        channel.pipeline.syncOperations.fireChannelRead(NIOAny(ByteBuffer(bytes: chunk)))
        channel.pipeline.syncOperations.fireChannelReadComplete()
        if channel.isActive { channel.read() }
    }

    /// One WebSocket frame as a browser (or a client that is not one) might write it.
    static func frame(_ reader: inout FuzzByteReader) -> [UInt8] {
        let first = reader.arg()
        let flags = reader.arg()
        let source = Int(flags & 31)
        var payload: [UInt8]
        let messages = BridgeFuzzer.messages, closes = BridgeFuzzer.closePayloads
        if source < messages.count {
            payload = messages[source]
        } else if source < messages.count + closes.count {
            payload = closes[source - messages.count]
        } else {
            let count = Int(reader.arg() & 127)
            payload = Array(reader.bytes(upTo: count))
        }
        let masked = flags & 0x80 != 0
        var frame: [UInt8] = [first]
        let maskBit: UInt8 = masked ? 0x80 : 0
        let form = (flags >> 5) & 3
        let count = payload.count
        // The form asked for, or the next longer one when the payload does not fit it (messages run to 160 bytes).
        if form != 1, form != 2, count <= 125 {
            frame.append(maskBit | UInt8(count))
        } else if form != 2, count <= 0xFFFF {
            frame += [maskBit | 126, UInt8(truncatingIfNeeded: count >> 8), UInt8(truncatingIfNeeded: count)]
        } else {
            frame.append(maskBit | 127)
            for shift in stride(from: 56, through: 0, by: -8) { frame.append(UInt8(truncatingIfNeeded: count >> shift)) }
        }
        if masked {
            frame += maskKey
            for index in payload.indices { payload[index] ^= maskKey[index % 4] }
        }
        return frame + payload
    }

    static let maskKey = BridgeFuzzer.maskKey

    /// What may wait in a socket at any time.
    func checkBounds() {
        let limit = BridgeFuzzer.highWater + BridgeFuzzer.oneReadBound
        precondition(browserSocket.bufferedBytes <= limit, "the browser's socket holds \(browserSocket.bufferedBytes) bytes")
        precondition(
            browserSocket.unsentResponses <= StaticHTTPHandler.maximumUnsentResponses + 1,
            "\(browserSocket.unsentResponses) answers wait in the browser's socket")
        for agent in agents {
            precondition(agent.socket.bufferedBytes <= limit, "the agent's socket holds \(agent.socket.bufferedBytes) bytes")
        }
    }

    /// The peers read what is left, the browser goes away, the agent's hello timeout passes; then the checks.
    func finish() {
        for _ in 0..<4 {
            browserSocket.take(upTo: Int.max)
            for agent in agents { agent.socket.take(upTo: Int.max) }
            deliverToBrowser(count: 0)
            for agent in agents { deliver(to: agent, count: 0) }
            loop.run()
            checkBounds()
        }
        browserSocket.take(upTo: Int.max)
        for agent in agents { agent.socket.take(upTo: Int.max) }
        checkBrowserOutput()
        checkAgentInput()

        if browser.isActive { browser.close(promise: nil) }
        loop.run()
        loop.advanceTime(by: .seconds(16))
        for agent in agents {
            precondition(!agent.channel.isActive, "an agent connection outlived its browser")
        }
        try? loop.syncShutdownGracefully()
    }

    /// The HTTP answers, then (after a `101`) the WebSocket frames, as the browser read them.
    func checkBrowserOutput() {
        let bytes = browserSocket.received
        var index = 0
        var upgraded = false
        // HTTP answers: each starts with its status line; bodies are skipped by searching for the next status line.
        let statusPrefix = Array("HTTP/1.".utf8)
        var start = 0
        while !upgraded, let found = Self.find(statusPrefix, in: bytes, from: start) {
            let codeStart = found + statusPrefix.count + 2
            guard codeStart + 3 <= bytes.count, let code = Int(String(decoding: bytes[codeStart..<codeStart + 3], as: UTF8.self))
            else { break }
            precondition(BridgeFuzzer.statuses.contains(code), "the bridge answered \(code)")
            start = codeStart + 3
            if code == 101 {
                upgraded = true
                guard let end = Self.find(Array("\r\n\r\n".utf8), in: bytes, from: start) else { return }
                index = end + 4
            }
        }
        guard upgraded else { return }
        // Only the last agent connection can be the relay's: the upgrade removes the HTTP handlers that make others.
        var agentLines = Self.relayedLines(in: agents.last?.delivered ?? []).makeIterator()
        var closed = false
        while index < bytes.count {
            precondition(!closed, "a frame after the close frame")
            guard bytes.count - index >= 2 else { return }
            let first = bytes[index], second = bytes[index + 1]
            precondition(first & 0x80 != 0, "a frame from the bridge that is not final")
            precondition(first & 0x70 == 0, "RSV bits in a frame from the bridge")
            precondition(second & 0x80 == 0, "a masked frame from the bridge")
            var length = Int(second & 0x7F)
            var header = 2
            if length == 126 {
                guard bytes.count - index >= 4 else { return }
                length = Int(bytes[index + 2]) << 8 | Int(bytes[index + 3])
                header = 4
            } else if length == 127 {
                guard bytes.count - index >= 10 else { return }
                length = (2..<10).reduce(0) { $0 << 8 | Int(bytes[index + $1]) }
                header = 10
            }
            precondition(length >= 0, "a frame from the bridge longer than any buffer")
            guard bytes.count - index - header >= length else { return }
            let payload = Array(bytes[(index + header)..<(index + header + length)])
            switch first & 0x0F {
            case 0x1:
                let line = agentLines.next()
                precondition(line == payload, "a text frame that is not the agent's next line")
            case 0xA:
                break
            case 0x8:
                closed = true
                if !payload.isEmpty {
                    precondition(payload.count >= 2, "a close frame with one byte")
                    let code = UInt16(payload[0]) << 8 | UInt16(payload[1])
                    precondition(WebSocketFrameCheck.isSendable(closeCode: code), "the bridge sent close code \(code)")
                    precondition(String(validating: payload.dropFirst(2), as: UTF8.self) != nil, "a close reason that is no UTF-8")
                }
            default:
                preconditionFailure("the bridge sent opcode \(first & 0x0F)")
            }
            index += header + length
        }
    }

    /// Every line an agent read from the bridge: as the bridge wrote them, then as the agent's decoder cuts them.
    func checkAgentInput() {
        let allowed = ceiling?.allowed ?? (PageRole.participant.ceiling.allowed + PageRole.staff.ceiling.allowed)
        for agent in agents {
            for line in Self.lines(in: agent.socket.received) {
                precondition(String(validating: line, as: UTF8.self) != nil, "a line to the agent that is no UTF-8")
                precondition((try? RPCValue.parse(line)) != nil, "a line to the agent that is no JSON")
            }
            for line in Self.agentLines(in: agent.socket.received) {
                guard case .success(let request) = RPCRequestParser.parse(line),
                    request.method == Method.sessionNegotiate.rawValue
                else { continue }
                // Read as the agent grants (`Capability.requested`): nil asks for every capability it has; a
                // negotiation it cannot read is refused, granting nothing.
                guard let reader = try? ParamsReader(request.params, allowed: Capability.negotiationParams),
                    case .success(let requested) = Self.requested(by: reader)
                else { continue }
                guard let wanted = requested else {
                    preconditionFailure("a negotiation passed on asking for every capability")
                }
                for raw in wanted {
                    guard let capability = Capability(rawValue: raw) else {
                        preconditionFailure("a negotiation passed on with a capability no page may hold")
                    }
                    precondition(allowed.contains(capability), "a negotiation passed on asking for \(raw)")
                }
            }
        }
    }

    /// `Capability.requested` as a value: `try?` would flatten its nil (every capability) into a refusal.
    static func requested(by reader: ParamsReader) -> Result<[String]?, RPCErrorObject> {
        do throws(RPCErrorObject) { return .success(try Capability.requested(by: reader)) } catch { return .failure(error) }
    }

    /// The lines the bridge relays of what the agent wrote, as the protocol's line decoder (`JSONLineFrameDecoder`)
    /// splits them: a byte-order mark at the stream's start dropped, a `\r` before a `\n` dropped, blank and `#`
    /// comment lines skipped; and last the unterminated rest, which is a line once the agent's end closes.
    static func relayedLines(in bytes: [UInt8]) -> [[UInt8]] {
        var stream = bytes[...]
        if stream.starts(with: [0xEF, 0xBB, 0xBF]) { stream = stream.dropFirst(3) }
        return stream.split(separator: 0x0A, omittingEmptySubsequences: false).compactMap { piece in
            var line = Array(piece)
            if line.last == 0x0D { line.removeLast() }
            let content = line.drop { $0 == 0x20 || $0 == 0x09 }
            return content.isEmpty || content.first == UInt8(ascii: "#") ? nil : line
        }
    }

    /// The lines consentd reads of `bytes`: its own decoder (`JSONLineFrameDecoder`, as `AgentService` installs it),
    /// over the whole stream.
    static func agentLines(in bytes: [UInt8]) -> [ByteBuffer] {
        var decoder = JSONLineFrameDecoder(maximumLineBytes: 1 << 20)
        var stream = ByteBuffer(bytes: bytes)
        var lines: [ByteBuffer] = []
        while let frame = try? decoder.decode(buffer: &stream) {
            if case .line(let line) = frame { lines.append(line) }
        }
        return lines
    }

    /// The complete lines in `bytes` (without their newlines).
    static func lines(in bytes: [UInt8]) -> [[UInt8]] {
        var lines: [[UInt8]] = []
        var current: [UInt8] = []
        for byte in bytes {
            if byte == 0x0A {
                lines.append(current)
                current = []
            } else {
                current.append(byte)
            }
        }
        return lines
    }

    static func find(_ needle: [UInt8], in haystack: [UInt8], from start: Int) -> Int? {
        guard needle.count <= haystack.count, start <= haystack.count - needle.count else { return nil }
        for index in start...(haystack.count - needle.count) where haystack[index..<(index + needle.count)].elementsEqual(needle) {
            return index
        }
        return nil
    }
}

/// One side's socket and kernel, first in the channel's pipeline (nearest the socket): it holds the `read()` the
/// pipeline asks for until the harness hands bytes over, keeps what the bridge writes until the peer takes it
/// (succeeding the write's promise then, as NIO does once bytes reach the kernel), and turns the channel unwritable
/// above the high water mark and writable again below the low one, as NIO's pending-writes bookkeeping does.
final class SocketModel: ChannelDuplexHandler {
    typealias InboundIn = ByteBuffer
    typealias OutboundIn = IOData
    typealias OutboundOut = IOData

    private struct Write {
        var bytes: ByteBuffer
        let promise: EventLoopPromise<Void>?
        let isResponseHead: Bool
    }

    private let low: Int
    private let high: Int
    /// Whether the bridge may ask to read now; a read asked for otherwise is a broken invariant.
    var readAllowed: () -> Bool = { true }
    var readRequested = false
    /// Whether a `101` went out (the browser's side).
    private(set) var wroteUpgrade = false
    private(set) var bufferedBytes = 0
    /// Everything the peer has taken, in order.
    private(set) var received: [UInt8] = []
    private var writes: [Write] = []
    private var flushedCount = 0
    private var closed = false
    private var context: ChannelHandlerContext?

    init(low: Int, high: Int) {
        self.low = low
        self.high = high
    }

    /// HTTP answers written and not yet taken by the peer.
    private(set) var unsentResponses = 0

    func handlerAdded(context: ChannelHandlerContext) { self.context = context }
    func handlerRemoved(context: ChannelHandlerContext) { self.context = nil }

    func read(context: ChannelHandlerContext) {
        precondition(readAllowed(), "the bridge read while what it would write could not be taken")
        readRequested = true
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        guard !closed, case .byteBuffer(let buffer) = unwrapOutboundIn(data) else {
            promise?.fail(ChannelError.ioOnClosedChannel)
            return
        }
        let isHead = buffer.readableBytesView.starts(with: "HTTP/1.".utf8)
        if isHead, buffer.readableBytesView.dropFirst(8).starts(with: " 101".utf8) { wroteUpgrade = true }
        writes.append(Write(bytes: buffer, promise: promise, isResponseHead: isHead))
        if isHead { unsentResponses += 1 }
        bufferedBytes += buffer.readableBytes
        if bufferedBytes > high { setWritable(false) }
    }

    func flush(context: ChannelHandlerContext) { flushedCount = writes.count }

    func close(context: ChannelHandlerContext, mode: CloseMode, promise: EventLoopPromise<Void>?) {
        if mode == .all, !closed {
            closed = true
            let failed = writes
            writes = []
            flushedCount = 0
            bufferedBytes = 0
            unsentResponses = 0
            for write in failed { write.promise?.fail(ChannelError.ioOnClosedChannel) }
        }
        context.close(mode: mode, promise: promise)
    }

    /// The peer reads up to `limit` bytes of what was flushed.
    func take(upTo limit: Int) {
        var budget = limit
        while flushedCount > 0, let first = writes.first, budget > 0 || first.bytes.readableBytes == 0 {
            var write = first
            let n = min(budget, write.bytes.readableBytes)
            if let slice = write.bytes.readBytes(length: n) { received += slice }
            budget -= n
            bufferedBytes -= n
            if write.bytes.readableBytes == 0 {
                writes.removeFirst()
                flushedCount -= 1
                if write.isResponseHead { unsentResponses -= 1 }
                write.promise?.succeed(())
            } else {
                writes[0] = write
            }
        }
        if bufferedBytes < low { setWritable(true) }
    }

    private func setWritable(_ writable: Bool) {
        guard let context, let channel = context.channel as? EmbeddedChannel, channel.isWritable != writable else { return }
        channel.isWritable = writable
        context.fireChannelWritabilityChanged()
    }
}
#endif
