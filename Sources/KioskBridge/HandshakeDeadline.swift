import NIOCore
import NIOHTTP1

/// Closes an HTTP connection that has not sent a whole request within `timeout` of opening, or of the last
/// response: a client that connects and says nothing, or sends half a request (or dribbles one, a byte at a time,
/// as "slowloris" does), holds a socket and a file descriptor for nothing, and the bridge has one thread.
///
/// A deadline, not an idle timer: bytes arriving slowly never extend it. It counts only while the bridge waits for a
/// request; a request being answered, and a WebSocket once upgraded (the upgrade removes this handler), are never
/// cut off, since a participant may read one screen for minutes.
final class HandshakeDeadline: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias InboundOut = HTTPServerRequestPart
    typealias OutboundIn = HTTPServerResponsePart
    typealias OutboundOut = HTTPServerResponsePart

    static let name = "consentweb-handshake-deadline"

    private let timeout: TimeAmount
    private var timer: Scheduled<Void>?

    init(timeout: TimeAmount) { self.timeout = timeout }

    func handlerAdded(context: ChannelHandlerContext) {
        if context.channel.isActive { arm(context) }
    }

    func channelActive(context: ChannelHandlerContext) {
        arm(context)
        context.fireChannelActive()
    }

    func handlerRemoved(context: ChannelHandlerContext) { disarm() }

    func channelInactive(context: ChannelHandlerContext) {
        disarm()
        context.fireChannelInactive()
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        // The whole request is in: answering it may take as long as it takes.
        if case .end = unwrapInboundIn(data) { disarm() }
        context.fireChannelRead(data)
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        // The response is out: the next request (keep-alive) has its own deadline.
        if case .end = unwrapOutboundIn(data) { arm(context) }
        context.write(data, promise: promise)
    }

    private func arm(_ context: ChannelHandlerContext) {
        disarm()
        let channel = context.channel
        timer = context.eventLoop.scheduleTask(in: timeout) { channel.close(promise: nil) }
    }

    private func disarm() {
        timer?.cancel()
        timer = nil
    }
}
