import NIOCore
import NIOHTTP1
import NIOWebSocket

/// NIO's WebSocket upgrade with each connection's frame decoder capped at its own agent's `maxLineBytes`.
///
/// NIO fixes the decoder's cap when its upgrader is made, before the bridge has connected the agent that will take
/// this WebSocket's lines (and said, in its `hello`, how long a line may be). So the handshake is answered by an
/// upgrader whose `shouldUpgrade` connects that agent, and the pipeline is then built by an upgrader made at that
/// moment with the cap `frameCap` reads: a frame longer than the agent takes is refused from its header, before its
/// payload is buffered. Both run on the connection's event loop, one after the other.
struct PerAgentWebSocketUpgrader: HTTPServerProtocolUpgrader, Sendable {
    let supportedProtocol = "websocket"
    let requiredUpgradeHeaders: [String] = []
    /// This connection's agent's `maxLineBytes`, once `shouldUpgrade` has connected it.
    private let frameCap: @Sendable () -> Int
    private let handshake: NIOWebSocketServerUpgrader
    private let upgradePipelineHandler: @Sendable (Channel, HTTPRequestHead) -> EventLoopFuture<Void>

    init(
        frameCap: @escaping @Sendable () -> Int,
        shouldUpgrade: @escaping @Sendable (Channel, HTTPRequestHead) -> EventLoopFuture<HTTPHeaders?>,
        upgradePipelineHandler: @escaping @Sendable (Channel, HTTPRequestHead) -> EventLoopFuture<Void>
    ) {
        self.frameCap = frameCap
        self.upgradePipelineHandler = upgradePipelineHandler
        // Only its handshake is used (the accept key, `shouldUpgrade`); its decoder cap never applies.
        self.handshake = NIOWebSocketServerUpgrader(
            automaticErrorHandling: true, shouldUpgrade: shouldUpgrade,
            upgradePipelineHandler: { channel, _ in channel.eventLoop.makeSucceededVoidFuture() })
    }

    func buildUpgradeResponse(
        channel: Channel, upgradeRequest: HTTPRequestHead, initialResponseHeaders: HTTPHeaders
    ) -> EventLoopFuture<HTTPHeaders> {
        handshake.buildUpgradeResponse(
            channel: channel, upgradeRequest: upgradeRequest, initialResponseHeaders: initialResponseHeaders)
    }

    func upgrade(context: ChannelHandlerContext, upgradeRequest: HTTPRequestHead) -> EventLoopFuture<Void> {
        NIOWebSocketServerUpgrader(
            maxFrameSize: frameCap(), automaticErrorHandling: true,
            shouldUpgrade: { channel, _ in channel.eventLoop.makeSucceededFuture(HTTPHeaders()) },
            upgradePipelineHandler: upgradePipelineHandler
        ).upgrade(context: context, upgradeRequest: upgradeRequest)
    }
}
