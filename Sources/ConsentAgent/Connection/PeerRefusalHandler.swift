import AgentProtocol
import NIOCore

/// The whole pipeline of a refused peer: one `PeerRefused` error line, then the close. It reads nothing, so
/// whatever the peer sends is never parsed. A connection over the cap (`maxConnections`) gets the same treatment
/// with an `Overloaded` line.
final class PeerRefusalHandler: ChannelInboundHandler {
    typealias InboundIn = ByteBuffer
    typealias OutboundOut = ByteBuffer

    private let line: ByteBuffer
    private var hasAnswered = false

    /// Any other refusal on connect (the connection cap's `Overloaded`): the same one line, then the close.
    init(refusal: RPCErrorObject) {
        self.line = RPCMessage.error(id: nil, refusal).jsonLine
    }

    init(credentials: PeerCredentials?) {
        var details: [String: RPCValue] = [:]
        if let credentials {
            details["uid"] = .integer(Int64(credentials.uid))
            details["gid"] = .integer(Int64(credentials.gid))
        }
        let who = credentials.map { "uid \($0.uid) (gid \($0.gid))" } ?? "a peer whose credentials cannot be read"
        let error = RPCErrorObject.domain(
            .peerRefused, "\(who) may not use this agent: it is not in allowedPeers of the agent's configuration",
            details: details)
        self.line = RPCMessage.error(id: nil, error).jsonLine
    }

    func handlerAdded(context: ChannelHandlerContext) {
        if context.channel.isActive { answer(context: context) }
    }

    func channelActive(context: ChannelHandlerContext) {
        answer(context: context)
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {}

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        context.close(promise: nil)
    }

    private func answer(context: ChannelHandlerContext) {
        guard !hasAnswered else { return }
        hasAnswered = true
        let channel = context.channel
        context.writeAndFlush(wrapOutboundOut(line)).whenComplete { _ in channel.close(promise: nil) }
    }
}

@available(*, unavailable)
extension PeerRefusalHandler: Sendable {}
