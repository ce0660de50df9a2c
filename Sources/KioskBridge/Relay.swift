import AgentProtocol
import NIOCore
import NIOWebSocket

/// The agent's side of one relay: one UNIX-socket connection to consentd. Both sides of a relay live on the same
/// event loop, so they call each other directly. Each side reads only while the other can take what it reads
/// (NIO's writability, from the channel's write-buffer water marks), so neither a slow browser nor a slow agent
/// makes the bridge buffer more than one read.
///
/// The agent's output is split into lines by the protocol's one line decoder, `JSONLineFrameDecoder` (`lineDecoder`),
/// capped at `BridgeConfiguration.maxAgentLineBytes` so a runaway peer cannot grow the bridge's memory: a longer line
/// ends the relay.
final class AgentSideHandler: ChannelDuplexHandler {
    typealias InboundIn = JSONLineFrameDecoder.Frame
    typealias OutboundIn = ByteBuffer
    typealias OutboundOut = ByteBuffer

    private var context: ChannelHandlerContext?
    private var browser: BrowserSideHandler?
    /// Lines read before the browser's side exists: the agent's first line (`hello`, or a `PeerRefused` error).
    private var held: [ByteBuffer] = []
    private var hello: EventLoopPromise<Int>?
    private let defaultMaxLineBytes: Int
    private var readPending = false

    init(hello: EventLoopPromise<Int>, defaultMaxLineBytes: Int) {
        self.hello = hello
        self.defaultMaxLineBytes = defaultMaxLineBytes
    }

    func handlerAdded(context: ChannelHandlerContext) { self.context = context }
    func handlerRemoved(context: ChannelHandlerContext) { self.context = nil }

    var isWritable: Bool { context?.channel.isWritable ?? false }

    /// The decoder in front of this handler: the agent's lines, at most `maximum` bytes each.
    static func lineDecoder(maximum: Int) -> ByteToMessageHandler<JSONLineFrameDecoder> {
        ByteToMessageHandler(JSONLineFrameDecoder(maximumLineBytes: maximum))
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard case .line(let line) = unwrapInboundIn(data) else {
            // A line longer than the bridge takes from an agent: the agent is running away; the relay ends.
            context.close(promise: nil)
            return
        }
        if let browser {
            browser.send(line: line)
            return
        }
        held.append(line)
        if let hello {
            self.hello = nil
            hello.succeed(Self.maxLineBytes(inHello: line) ?? defaultMaxLineBytes)
        }
    }

    func channelReadComplete(context: ChannelHandlerContext) { browser?.flush() }

    /// Reading waits while the browser cannot take more; before pairing, only the first line is read.
    func read(context: ChannelHandlerContext) {
        let mayRead = browser.map { $0.isWritable } ?? held.isEmpty
        if mayRead { context.read() } else { readPending = true }
    }

    func channelWritabilityChanged(context: ChannelHandlerContext) {
        browser?.agentWritabilityChanged(isWritable: context.channel.isWritable)
        context.fireChannelWritabilityChanged()
    }

    func channelInactive(context: ChannelHandlerContext) {
        hello?.fail(ChannelError.inputClosed)
        hello = nil
        let browser = self.browser
        self.browser = nil
        browser?.agentClosed()
        context.fireChannelInactive()
    }

    func errorCaught(context: ChannelHandlerContext, error: Error) {
        context.close(promise: nil)
    }

    // MARK: Called by the browser's side

    func pair(with browser: BrowserSideHandler) {
        self.browser = browser
        for line in held { browser.send(line: line) }
        held.removeAll()
        browser.flush()
        browserWritabilityChanged(isWritable: browser.isWritable)
    }

    func write(line: ByteBuffer) {
        guard let context else { return }
        context.write(wrapOutboundOut(line), promise: nil)
        context.write(wrapOutboundOut(ByteBuffer(integer: UInt8(ascii: "\n"))), promise: nil)
    }

    func flush() { context?.flush() }

    func browserWritabilityChanged(isWritable: Bool) {
        guard isWritable, readPending, let context else { return }
        readPending = false
        context.read()
    }

    func browserClosed() {
        browser = nil
        context?.close(promise: nil)
    }

    /// `hello.params.limits.maxLineBytes`, the longest line the agent accepts, read with the agent's own JSON reader
    /// (the one `CapabilityCeiling` uses too); at most 4 GiB - 1, the largest frame NIO's WebSocket decoder takes
    /// (it traps on a larger cap), whatever an agent's configuration says.
    static func maxLineBytes(inHello line: ByteBuffer) -> Int? {
        guard let hello = try? RPCValue.parse(line.readableBytesView), hello["method"]?.stringValue == "hello",
            let maximum = hello["params"]?["limits"]?["maxLineBytes"]?.integerValue, maximum > 0
        else { return nil }
        return Int(clamping: min(maximum, Int64(UInt32.max)))
    }
}

/// The browser's side of one relay: the WebSocket, after the upgrade. Text frame in → one line to the agent, read as
/// the agent will read it (`PageLines`); one line from the agent → one text frame out; nothing is changed on the way
/// but a `session.negotiate`'s capabilities, held to the page's ceiling (`CapabilityCeiling`), and what the agent's
/// line decoder drops (a byte-order mark first, a `\r` last). A message that is not one JSON value closes the relay.
final class BrowserSideHandler: ChannelDuplexHandler {
    typealias InboundIn = WebSocketFrame
    typealias OutboundIn = WebSocketFrame
    typealias OutboundOut = WebSocketFrame

    private var context: ChannelHandlerContext?
    private var agent: AgentSideHandler?
    private let maxLineBytes: Int
    private var lines: PageLines
    private var readPending = false
    private var closing = false

    init(agent: AgentSideHandler, maxLineBytes: Int, ceiling: CapabilityCeiling) {
        self.agent = agent
        self.maxLineBytes = maxLineBytes
        self.lines = PageLines(ceiling: ceiling, maximumLineBytes: maxLineBytes)
    }

    /// Internal, not private, so the FuzzBridge harness can check what reaches the agent against it.
    var ceiling: CapabilityCeiling { lines.ceiling }

    func handlerAdded(context: ChannelHandlerContext) {
        self.context = context
        agent?.pair(with: self)
    }

    func handlerRemoved(context: ChannelHandlerContext) { self.context = nil }

    var isWritable: Bool { context?.channel.isWritable ?? false }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let frame = unwrapInboundIn(data)
        switch frame.opcode {
        case .text:
            let line = frame.unmaskedData
            guard line.readableBytes <= maxLineBytes else {
                return close(code: .messageTooLarge, reason: "frame longer than the agent's maxLineBytes")
            }
            guard WebSocketFrameCheck.isUTF8(line) else {
                return close(code: WebSocketViolation.invalidUTF8.closeCode, reason: "a text message must be UTF-8")
            }
            switch lines.line(for: line) {
            case .send(let out): agent?.write(line: out)
            case .skip: break
            case .refuse(let code, let reason): close(code: code, reason: reason)
            }
        case .binary:
            close(code: .unacceptableData, reason: "text frames only")
        case .ping:
            guard !closing else { return }
            context.writeAndFlush(
                wrapOutboundOut(WebSocketFrame(fin: true, opcode: .pong, data: frame.unmaskedData)), promise: nil)
        case .connectionClose:
            // The browser is leaving: answer its close (with its own code when that is valid, RFC 6455 section 7.4),
            // then let the agent's connection go too.
            switch WebSocketFrameCheck.reply(toClose: frame.unmaskedData) {
            case .success(let code): close(code: code, reason: nil)
            case .failure(let violation): close(code: violation.closeCode, reason: "invalid close frame")
            }
        default:
            break
        }
    }

    func channelReadComplete(context: ChannelHandlerContext) { agent?.flush() }

    func read(context: ChannelHandlerContext) {
        if agent?.isWritable ?? false { context.read() } else { readPending = true }
    }

    func channelWritabilityChanged(context: ChannelHandlerContext) {
        agent?.browserWritabilityChanged(isWritable: context.channel.isWritable)
        context.fireChannelWritabilityChanged()
    }

    func channelInactive(context: ChannelHandlerContext) {
        let agent = self.agent
        self.agent = nil
        agent?.browserClosed()
        context.fireChannelInactive()
    }

    func errorCaught(context: ChannelHandlerContext, error: Error) {
        switch error {
        case let violation as WebSocketViolation:
            close(code: violation.closeCode, reason: "RFC 6455: \(violation)")
        case NIOWebSocketFrameAggregator.Error.accumulatedFrameSizeIsTooLarge:
            close(code: .messageTooLarge, reason: "message longer than the agent's maxLineBytes")
        default:
            close(code: .protocolError, reason: "WebSocket protocol error")
        }
    }

    // MARK: Called by the agent's side

    func send(line: ByteBuffer) {
        guard let context, !closing else { return }
        context.write(wrapOutboundOut(WebSocketFrame(fin: true, opcode: .text, data: line)), promise: nil)
    }

    func flush() { context?.flush() }

    func agentWritabilityChanged(isWritable: Bool) {
        guard isWritable, readPending, let context else { return }
        readPending = false
        context.read()
    }

    /// The agent closed its connection (stopped, restarted, refused the peer): say so with 1001 after the lines
    /// already relayed, then close.
    func agentClosed() {
        agent = nil
        close(code: .goingAway, reason: "the agent closed the connection")
    }

    private func close(code: WebSocketErrorCode, reason: String?) {
        guard let context, !closing else { return }
        closing = true
        var data = context.channel.allocator.buffer(capacity: 2 + (reason?.utf8.count ?? 0))
        data.write(webSocketErrorCode: code)
        if let reason { data.writeString(reason) }
        let frame = WebSocketFrame(fin: true, opcode: .connectionClose, data: data)
        let channel = context.channel
        context.writeAndFlush(wrapOutboundOut(frame)).whenComplete { _ in channel.close(promise: nil) }
        let agent = self.agent
        self.agent = nil
        agent?.browserClosed()
    }
}
