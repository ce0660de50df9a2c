import NIOCore
import NIOHTTP1

/// Answers every HTTP request that is not a WebSocket upgrade the bridge accepted: the UI's files, and the
/// refusals (`403` with the reason in words, `502` when the agent is not reachable, `426` for a plain GET of `/rpc`).
final class StaticHTTPHandler: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias OutboundOut = HTTPServerResponsePart

    /// How many answers one connection may have waiting to reach its socket. A browser asks for one file at a time
    /// per connection (none pipelines); a client past this many is pipelining without reading, and is closed
    /// rather than given more memory. `ReadWhileWritable` stops reading it sooner; this bounds what one read held.
    static let maximumUnsentResponses = 16

    private let files: StaticFiles
    private let gate: RequestGate
    private let state: NIOLoopBound<ConnectionState>
    private var head: HTTPRequestHead?
    /// Answers written but not yet taken by the socket.
    private var unsentResponses = 0

    init(files: StaticFiles, gate: RequestGate, state: NIOLoopBound<ConnectionState>) {
        self.files = files
        self.gate = gate
        self.state = state
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head(let head): self.head = head
        case .body: break  // no request here has a body; it is discarded
        case .end:
            guard let head else { return }
            self.head = nil
            guard unsentResponses < Self.maximumUnsentResponses else {
                context.close(promise: nil)
                return
            }
            respond(context: context, to: head)
        }
    }

    func channelInactive(context: ChannelHandlerContext) {
        // An agent connection made for an upgrade that never completed.
        state.value.agent?.0.close(promise: nil)
        state.value.agent = nil
        context.fireChannelInactive()
    }

    private func respond(context: ChannelHandlerContext, to head: HTTPRequestHead) {
        guard head.method == .GET || head.method == .HEAD else {
            return send(context, head, .methodNotAllowed, text: "Only GET is served here.\n", extra: [("Allow", "GET, HEAD")])
        }
        if let refusal = gate.checkHost(head) {
            return send(context, head, .forbidden, text: "Refused: \(refusal).\n")
        }
        guard let path = StaticFiles.normalise(head.uri) else {
            return send(context, head, .badRequest, text: "Refused: bad path.\n")
        }
        if let role = PageRole.of(endpoint: path) {
            let state = self.state.value
            if let refusal = state.refusal ?? gate.checkWebSocket(head, role: role) {
                state.refusal = nil
                return send(context, head, .forbidden, text: "Refused: \(refusal).\n")
            }
            if state.agentUnreachable {
                state.agentUnreachable = false
                return send(context, head, .badGateway, text: "The agent (consentd) is not reachable.\n")
            }
            return send(context, head, .upgradeRequired, text: "Open \(role.endpoint) as a WebSocket (GET, HTTP/1.1).\n")
        }
        guard let file = files.file(forRequestPath: path) else {
            return send(context, head, .notFound, text: "Not found.\n")
        }
        var extra: [(String, String)] = []
        if file.contentType.hasPrefix("text/html") {
            // The staff page takes the staff token; every other page the kiosk's.
            let role: PageRole = path == "/staff" ? .staff : .participant
            switch gate.pageTokenState(head, role: role) {
            case .wrong: return send(context, head, .forbidden, text: "Refused: wrong token.\n")
            case .valid: extra.append(("Set-Cookie", gate.setCookieValue(role)))
            case .absent: break
            }
        }
        send(context, head, .ok, contentType: file.contentType, body: file.bytes, extra: extra)
    }

    private func send(
        _ context: ChannelHandlerContext, _ head: HTTPRequestHead, _ status: HTTPResponseStatus, text: String,
        extra: [(String, String)] = []
    ) {
        send(context, head, status, contentType: "text/plain; charset=utf-8", body: ByteBuffer(string: text), extra: extra)
    }

    private func send(
        _ context: ChannelHandlerContext, _ head: HTTPRequestHead, _ status: HTTPResponseStatus, contentType: String,
        body: ByteBuffer, extra: [(String, String)]
    ) {
        let host = head.headers["host"].first ?? ""
        var headers = HTTPHeaders([
            ("Content-Type", contentType),
            ("Content-Length", "\(body.readableBytes)"),
            ("Cache-Control", "no-store"),
            ("X-Content-Type-Options", "nosniff"),
            ("Referrer-Policy", "no-referrer"),
            ("X-Frame-Options", "DENY"),
            ("Cross-Origin-Opener-Policy", "same-origin"),
            ("Cross-Origin-Resource-Policy", "same-origin"),
            ("Content-Security-Policy", Self.contentSecurityPolicy(host: status == .ok ? host : nil)),
        ])
        headers.add(contentsOf: extra)
        let keepAlive = head.isKeepAlive && status == .ok
        headers.add(name: "Connection", value: keepAlive ? "keep-alive" : "close")
        context.write(wrapOutboundOut(.head(HTTPResponseHead(version: head.version, status: status, headers: headers))), promise: nil)
        if head.method != .HEAD { context.write(wrapOutboundOut(.body(.byteBuffer(body))), promise: nil) }
        unsentResponses += 1
        let sent = context.writeAndFlush(wrapOutboundOut(.end(nil)))
        let channel = context.channel
        // The handler and the write's completion share the channel's event loop.
        let handler = NIOLoopBound(self, eventLoop: context.eventLoop)
        sent.whenComplete { _ in
            handler.value.unsentResponses -= 1
            if !keepAlive { channel.close(promise: nil) }
        }
    }

    /// Only this origin's files run or load: study HTML, rendered as inert DOM by the UI, can neither run inline
    /// script or event attributes nor load anything remote. `host` is a validated `Host`. Images and read-aloud's
    /// audio come from the agent as `data:` URLs (`study.asset`, `speech.get`), so those two may load them.
    static func contentSecurityPolicy(host: String?) -> String {
        let connect = host.map { "'self' ws://\($0)" } ?? "'self'"
        return "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; media-src data:; font-src 'self'; "
            + "connect-src \(connect); frame-src 'none'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'"
    }
}
