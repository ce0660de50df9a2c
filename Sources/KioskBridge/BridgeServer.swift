import Foundation
import Logging
import NIOConcurrencyHelpers
import NIOCore
import NIOHTTP1
import NIOPosix
import NIOWebSocket

/// consentweb: serves the kiosk UI's files and relays `/rpc` WebSockets to consentd's UNIX socket, one agent
/// connection per WebSocket, so the agent's peer checks and socket group apply to the bridge's user.
public final class BridgeServer: Sendable {
    public let configuration: BridgeConfiguration
    private let files: StaticFiles
    private let group: MultiThreadedEventLoopGroup
    private let logger: Logger
    /// The agent's `maxLineBytes` from the last `hello` seen: the frame decoder's cap for the next WebSocket.
    private let learnedMaxLineBytes: NIOLockedValueBox<Int>
    private let serverChannel = NIOLockedValueBox<Channel?>(nil)
    /// A stop (SIGTERM) that came while `start()` was still binding: the channel is closed as soon as it exists.
    private let stopRequested = NIOLockedValueBox(false)
    private let connections = ManagedAtomicCounter()

    public init(configuration: BridgeConfiguration, logger: Logger) throws {
        self.configuration = configuration
        self.files = try StaticFiles(folder: configuration.uiFolder)
        self.logger = logger
        // One thread: a kiosk has one browser; both sides of every relay share it.
        self.group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
        self.learnedMaxLineBytes = NIOLockedValueBox(configuration.defaultMaxLineBytes)
    }

    /// Binds and returns the URL to open (with the token); the server runs until `stop()`.
    public func start() async throws -> String {
        let bootstrap = ServerBootstrap(group: group)
            .serverChannelOption(.backlog, value: 64)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .childChannelOption(.writeBufferWaterMark, value: .init(low: 64 << 10, high: 256 << 10))
            .childChannelInitializer { [self] channel in
                channel.eventLoop.makeCompletedFuture { try self.configureHTTP(channel) }
            }
        let channel = try await bootstrap.bind(host: configuration.listen.host, port: configuration.listen.port).get()
        let stoppedMeanwhile = serverChannel.withLockedValue { stored -> Bool in
            stored = channel
            return stopRequested.withLockedValue { $0 }
        }
        if stoppedMeanwhile { try? await channel.close() }
        let port = channel.localAddress?.port ?? configuration.listen.port
        let host = configuration.listen.host.contains(":") ? "[\(configuration.listen.host)]" : configuration.listen.host
        logger.info("listening", metadata: ["address": "\(host):\(port)", "socket": "\(configuration.socketPath)"])
        return "http://\(host):\(port)/?token=\(configuration.token.value)"
    }

    /// The port bound (useful with `--listen 127.0.0.1:0`).
    public var port: Int? { serverChannel.withLockedValue { $0?.localAddress?.port } }

    /// Resolves when the listening socket has closed (`stop()`), then ends the event loop, closing every relay.
    ///
    /// The loop ends here, after the wait, and never in `stop()`: a SIGTERM just after the URL was printed could
    /// otherwise end the loop before this wait began, and NIO cannot hand a future's result to a loop that has
    /// shut down, so the wait never resolved (consentweb hung after SIGTERM, logging "Cannot schedule tasks on an
    /// EventLoop that has already shut down").
    public func waitUntilClosed() async throws {
        if let channel = serverChannel.withLockedValue({ $0 }) {
            try? await channel.closeFuture.get()
        }
        try await group.shutdownGracefully()
    }

    /// Closes the listening socket (or, while `start()` is still binding, the socket it is about to get), which
    /// ends `waitUntilClosed()`.
    public func stop() async {
        let channel = serverChannel.withLockedValue { stored -> Channel? in
            stopRequested.withLockedValue { $0 = true }
            return stored
        }
        try? await channel?.close()
    }

    private func gate(port: Int) -> RequestGate {
        RequestGate(token: configuration.token, boundHost: configuration.listen.host, port: port)
    }

    private func configureHTTP(_ channel: Channel) throws {
        let port = channel.localAddress?.port ?? configuration.listen.port
        let gate = gate(port: port)
        let state = NIOLoopBound(ConnectionState(), eventLoop: channel.eventLoop)
        let configuration = self.configuration
        let logger = self.logger
        let learned = learnedMaxLineBytes
        let connections = self.connections
        let upgrader = NIOWebSocketServerUpgrader(
            maxFrameSize: learned.withLockedValue { $0 },
            automaticErrorHandling: true,
            shouldUpgrade: { channel, head in
                guard StaticFiles.normalise(head.uri) == "/rpc" else { return channel.eventLoop.makeSucceededFuture(nil) }
                if let refusal = gate.checkWebSocket(head) {
                    state.value.refusal = refusal
                    logger.notice("refused a WebSocket", metadata: ["reason": "\(refusal)"])
                    return channel.eventLoop.makeSucceededFuture(nil)
                }
                return Self.connectAgent(on: channel.eventLoop, configuration: configuration).map { agentChannel, maximum in
                    learned.withLockedValue { $0 = maximum }
                    state.value.agent = (agentChannel, maximum)
                    return HTTPHeaders()
                }.recover { error in
                    state.value.agentUnreachable = true
                    logger.warning("the agent is not reachable", metadata: ["socket": "\(configuration.socketPath)", "error": "\(error)"])
                    return nil
                }
            },
            upgradePipelineHandler: { channel, _ in
                channel.eventLoop.makeCompletedFuture {
                    guard let (agentChannel, maximum) = state.value.agent else { throw ChannelError.ioOnClosedChannel }
                    state.value.agent = nil
                    let agent = try agentChannel.pipeline.syncOperations.handler(type: AgentSideHandler.self)
                    try channel.pipeline.syncOperations.addHandlers([
                        NIOWebSocketFrameAggregator(
                            minNonFinalFragmentSize: 0, maxAccumulatedFrameCount: 4096, maxAccumulatedFrameSize: maximum),
                        BrowserSideHandler(agent: agent, maxLineBytes: maximum),
                    ])
                    let open = connections.add(1)
                    logger.info("relay opened", metadata: ["relays": "\(open)"])
                    channel.closeFuture.whenComplete { _ in
                        logger.info("relay closed", metadata: ["relays": "\(connections.add(-1))"])
                    }
                }
            })
        let http = StaticHTTPHandler(files: files, gate: gate, state: state)
        try channel.pipeline.syncOperations.configureHTTPServerPipeline(
            withServerUpgrade: (upgraders: [upgrader], completionHandler: { context in
                context.pipeline.syncOperations.removeHandler(name: HandshakeDeadline.name, promise: nil)
                context.pipeline.syncOperations.removeHandler(name: "consentweb-http", promise: nil)
            }))
        try channel.pipeline.syncOperations.addHandler(
            HandshakeDeadline(timeout: configuration.handshakeTimeout), name: HandshakeDeadline.name)
        try channel.pipeline.syncOperations.addHandler(http, name: "consentweb-http")
    }

    /// One connection to consentd's socket, ready once its first line (`hello`) has come; yields the agent's
    /// `maxLineBytes`. Fails when the socket cannot be reached or says nothing in time.
    static func connectAgent(on eventLoop: EventLoop, configuration: BridgeConfiguration) -> EventLoopFuture<(Channel, Int)> {
        let hello = eventLoop.makePromise(of: Int.self)
        let timeout = eventLoop.scheduleTask(in: configuration.agentHelloTimeout) {
            hello.fail(ChannelError.connectTimeout(configuration.agentHelloTimeout))
        }
        hello.futureResult.whenComplete { _ in timeout.cancel() }
        let maxAgentLine = configuration.maxAgentLineBytes
        let defaultMax = configuration.defaultMaxLineBytes
        return ClientBootstrap(group: eventLoop)
            .channelOption(.writeBufferWaterMark, value: .init(low: 64 << 10, high: 256 << 10))
            .channelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.addHandlers([
                        ByteToMessageHandler(AgentLineDecoder(maximum: maxAgentLine)),
                        AgentSideHandler(hello: hello, defaultMaxLineBytes: defaultMax),
                    ])
                }
            }
            .connect(unixDomainSocketPath: configuration.socketPath)
            .flatMap { channel in
                hello.futureResult.map { (channel, $0) }.flatMapErrorThrowing { error in
                    channel.close(promise: nil)
                    throw error
                }
            }
            .flatMapErrorThrowing { error in
                hello.fail(error)
                throw error
            }
    }
}

/// What the upgrader learned about one HTTP connection, for the HTTP handler's answer when it refused.
final class ConnectionState {
    var refusal: RequestGate.Refusal?
    var agentUnreachable = false
    var agent: (Channel, Int)?
}

/// A counter of open relays for the log (never their content).
final class ManagedAtomicCounter: Sendable {
    private let value = NIOLockedValueBox(0)
    func add(_ delta: Int) -> Int { value.withLockedValue { $0 += delta; return $0 } }
}
