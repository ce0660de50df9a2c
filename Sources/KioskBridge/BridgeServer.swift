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
    private let serverChannel = NIOLockedValueBox<Channel?>(nil)
    /// A stop (SIGTERM) that came while `start()` was still binding: the channel is closed as soon as it exists.
    private let stopRequested = NIOLockedValueBox(false)
    private let connections = ManagedAtomicCounter()
    /// Open HTTP connections (relays included), against `configuration.maxConnections`.
    private let openConnections = ManagedAtomicCounter()
    private let refusals: NIOLockedValueBox<RefusalLog>

    public init(configuration: BridgeConfiguration, logger: Logger) throws {
        self.configuration = configuration
        self.files = try StaticFiles(folder: configuration.uiFolder)
        self.logger = logger
        // One thread: a kiosk has one browser; both sides of every relay share it.
        self.group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
        self.refusals = NIOLockedValueBox(RefusalLog(interval: configuration.refusalLogInterval))
    }

    /// Binds and returns the page's address (without the token: `pageURL(_:)` adds it); the server runs until
    /// `stop()`.
    public func start() async throws -> String {
        let bootstrap = ServerBootstrap(group: group)
            .serverChannelOption(.backlog, value: 64)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .childChannelOption(.writeBufferWaterMark, value: .init(low: 64 << 10, high: 256 << 10))
            .childChannelInitializer { [self] channel in
                guard admit(channel) else {
                    return channel.eventLoop.makeFailedFuture(ConnectionLimitReached())
                }
                return channel.eventLoop.makeCompletedFuture { try self.configureHTTP(channel) }
            }
        let channel = try await bootstrap.bind(host: configuration.listen.host, port: configuration.listen.port).get()
        let stoppedMeanwhile = serverChannel.withLockedValue { stored -> Bool in
            stored = channel
            return stopRequested.withLockedValue { $0 }
        }
        if stoppedMeanwhile { try? await channel.close() }
        scheduleRefusalSummaries(on: channel.eventLoop)
        let port = channel.localAddress?.port ?? configuration.listen.port
        let host = configuration.listen.host.contains(":") ? "[\(configuration.listen.host)]" : configuration.listen.host
        logger.info("listening", metadata: [
            "address": "\(host):\(port)", "socket": "\(configuration.socketPath)",
            "maxConnections": "\(configuration.maxConnections)",
        ])
        return "http://\(host):\(port)/"
    }

    /// The page's address with the token, which sets the page's cookie: what a kiosk's browser opens. Only for a
    /// file only the kiosk user reads (`LaunchPage`), or a terminal (`make run`): never argv or a log.
    public func pageURL(_ address: String) -> String { "\(address)?token=\(configuration.token.value)" }

    /// The staff page's address with the staff token, likewise.
    public func staffPageURL(_ address: String) -> String { "\(address)staff?token=\(configuration.staffToken.value)" }

    struct ConnectionLimitReached: Error {}

    /// Counts a new connection in, or refuses it over `maxConnections`: each holds a descriptor (a relay two), and a
    /// crowd of idle ones made the kiosk's own page wait seconds for a descriptor.
    private func admit(_ channel: Channel) -> Bool {
        let open = openConnections.add(1)
        guard open <= configuration.maxConnections else {
            _ = openConnections.add(-1)
            logRefusal("too many connections (maxConnections)")
            return false
        }
        let counter = openConnections
        channel.closeFuture.whenComplete { _ in _ = counter.add(-1) }
        return true
    }

    private func logRefusal(_ reason: String) {
        let lines = refusals.withLockedValue { $0.record(reason, now: .now()) }
        write(lines)
    }

    private func write(_ lines: [RefusalLog.Line]) {
        for line in lines {
            switch line {
            case .refused(let reason):
                logger.notice("refused a connection", metadata: [
                    "reason": "\(reason)", "next": "one summary per \(configuration.refusalLogInterval.nanoseconds / 1_000_000_000) s",
                ])
            case .summary(let counts, let seconds):
                let reasons = counts.sorted { $0.key < $1.key }.map { "\($0.key): \($0.value)" }.joined(separator: ", ")
                logger.notice("refused more connections", metadata: ["seconds": "\(seconds)", "reasons": "\(reasons)"])
            }
        }
    }

    /// A burst's summary is written when its interval ends even if no refusal follows it.
    private func scheduleRefusalSummaries(on eventLoop: EventLoop) {
        let interval = configuration.refusalLogInterval
        eventLoop.scheduleRepeatedTask(initialDelay: interval, delay: interval) { [self] _ in
            write(refusals.withLockedValue { $0.flush(now: .now()) })
        }
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
    ///
    /// It asks for the close and returns, without waiting on the channel's event loop: `waitUntilClosed()` shuts
    /// the loops down as soon as the socket is closed, and a stop still waiting to be resumed there then never was
    /// (NIO: "Cannot schedule tasks on an EventLoop that has already shut down"; the signal's task outlived the
    /// process, which LeakSanitizer reported).
    public func stop() async {
        let channel = serverChannel.withLockedValue { stored -> Channel? in
            stopRequested.withLockedValue { $0 = true }
            return stored
        }
        channel?.close(promise: nil)
    }

    /// The server's pipeline for one accepted connection, with an agent connection per upgrade from consentd's socket.
    private func configureHTTP(_ channel: Channel) throws {
        let configuration = self.configuration
        try BridgePipeline(
            files: files, configuration: configuration, logger: logger,
            connections: connections, logRefusal: { [self] reason in logRefusal(reason) },
            connectAgent: { eventLoop in Self.connectAgent(on: eventLoop, configuration: configuration) }
        ).configure(channel)
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
                        AgentSideHandler.lineDecoder(maximum: maxAgentLine),
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

/// How one accepted connection's pipeline is built: `ReadWhileWritable`, NIO's HTTP server pipeline with the WebSocket
/// upgrader, `HandshakeDeadline` and `StaticHTTPHandler`; after an upgrade, `WebSocketFrameCheck`, the aggregator and
/// the relay. `BridgeServer` builds every connection with it, and the FuzzBridge harness builds the same pipeline on
/// an embedded channel, with an agent connection of its own in place of consentd's socket.
struct BridgePipeline: Sendable {
    let files: StaticFiles
    let configuration: BridgeConfiguration
    let logger: Logger
    let connections: ManagedAtomicCounter
    let logRefusal: @Sendable (String) -> Void
    /// One agent connection for an upgrade, ready once its first line has come, with the agent's `maxLineBytes`.
    let connectAgent: @Sendable (EventLoop) -> EventLoopFuture<(Channel, Int)>

    /// Adds the handlers to a new connection's channel.
    func configure(_ channel: Channel) throws {
        let port = channel.localAddress?.port ?? configuration.listen.port
        let gate = RequestGate(
            token: configuration.token, staffToken: configuration.staffToken, boundHost: configuration.listen.host, port: port)
        let state = NIOLoopBound(ConnectionState(), eventLoop: channel.eventLoop)
        let configuration = self.configuration
        let logger = self.logger
        let connections = self.connections
        let logRefusal = self.logRefusal
        let connectAgent = self.connectAgent
        let upgrader = PerAgentWebSocketUpgrader(
            frameCap: { state.value.agent?.1 ?? configuration.defaultMaxLineBytes },
            shouldUpgrade: { channel, head in
                // RFC 6455 section 4.1: the opening handshake is a GET of HTTP/1.1 or later; anything else is
                // answered as a plain request (405, or 426 from the page handler).
                guard let path = StaticFiles.normalise(head.uri), let role = PageRole.of(endpoint: path),
                    head.method == .GET, head.version == .http1_1
                else {
                    return channel.eventLoop.makeSucceededFuture(nil)
                }
                if let refusal = gate.checkWebSocket(head, role: role) {
                    state.value.refusal = refusal
                    logRefusal("\(refusal)")
                    return channel.eventLoop.makeSucceededFuture(nil)
                }
                return connectAgent(channel.eventLoop).map { agentChannel, maximum in
                    // The browser may have gone while the agent was connecting: nothing would ever close this
                    // agent connection, and the agent counts it against its own limit until it times out.
                    guard channel.isActive else {
                        agentChannel.close(promise: nil)
                        return nil
                    }
                    state.value.agent = (agentChannel, maximum)
                    state.value.role = role
                    return HTTPHeaders()
                }.recover { error in
                    state.value.agentUnreachable = true
                    logger.warning("the agent is not reachable", metadata: ["socket": "\(configuration.socketPath)", "error": "\(error)"])
                    return nil
                }
            },
            upgradePipelineHandler: { channel, _ in
                channel.eventLoop.makeCompletedFuture {
                    guard let (agentChannel, maximum) = state.value.agent, let role = state.value.role else {
                        throw ChannelError.ioOnClosedChannel
                    }
                    state.value.agent = nil
                    let agent = try agentChannel.pipeline.syncOperations.handler(type: AgentSideHandler.self)
                    try channel.pipeline.syncOperations.addHandlers([
                        WebSocketFrameCheck(),
                        NIOWebSocketFrameAggregator(
                            minNonFinalFragmentSize: 0, maxAccumulatedFrameCount: 4096, maxAccumulatedFrameSize: maximum),
                        BrowserSideHandler(agent: agent, maxLineBytes: maximum, ceiling: role.ceiling),
                    ])
                    let open = connections.add(1)
                    logger.info("relay opened", metadata: ["relays": "\(open)", "page": "\(role)"])
                    channel.closeFuture.whenComplete { _ in
                        logger.info("relay closed", metadata: ["relays": "\(connections.add(-1))"])
                    }
                }
            })
        let http = StaticHTTPHandler(files: files, gate: gate, state: state)
        try channel.pipeline.syncOperations.addHandler(ReadWhileWritable(), name: ReadWhileWritable.name)
        try channel.pipeline.syncOperations.configureHTTPServerPipeline(
            withServerUpgrade: (upgraders: [upgrader], completionHandler: { context in
                context.pipeline.syncOperations.removeHandler(name: HandshakeDeadline.name, promise: nil)
                context.pipeline.syncOperations.removeHandler(name: "consentweb-http", promise: nil)
            }))
        try channel.pipeline.syncOperations.addHandler(
            HandshakeDeadline(timeout: configuration.handshakeTimeout), name: HandshakeDeadline.name)
        try channel.pipeline.syncOperations.addHandler(http, name: "consentweb-http")
    }
}

/// What the upgrader learned about one HTTP connection, for the HTTP handler's answer when it refused.
final class ConnectionState {
    var refusal: RequestGate.Refusal?
    var agentUnreachable = false
    var agent: (Channel, Int)?
    /// The page the upgrade is for, which decides what its agent connection may negotiate.
    var role: PageRole?
}

/// A counter of open relays for the log (never their content).
final class ManagedAtomicCounter: Sendable {
    private let value = NIOLockedValueBox(0)
    func add(_ delta: Int) -> Int { value.withLockedValue { $0 += delta; return $0 } }
}
