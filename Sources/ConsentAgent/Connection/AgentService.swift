import AgentProtocol
import Foundation
import Logging
import NIOConcurrencyHelpers
import NIOCore
import NIOPosix
import ServiceLifecycle

/// The socket server as a `Service`: listens on the UNIX socket, serves every connection, expires idle flows
/// and pumps pad events, and shuts down gracefully.
///
/// Peer authorization: with `allowedPeers`, every accepted connection's credentials are read and decided by
/// `PeerPolicy` before anything of it is read; a refused peer gets one `PeerRefused` line and is closed, and the
/// refusal is logged and audited (`peer.refused`).
///
/// Graceful shutdown (SIGTERM/SIGINT through the ServiceGroup): stop accepting, let records being written reach
/// disk (their replies are still sent), up to `shutdownTimeout`; then send every connection `agent.stopping`
/// (after its pending reply) and close it, bounded by the client kill timeout; remove the socket file.
///
/// With socket activation (`configuration.inheritedSocket`) it serves the listening socket systemd passed and
/// leaves its path alone: systemd created it, set its mode and group, and removes it.
public final class AgentService: Service {
    public let configuration: AgentConfiguration
    public let core: AgentCore
    let discoverDocument: @Sendable () -> RPCValue
    let logger: Logger
    let group: any EventLoopGroup
    let onRunning: @Sendable () -> Void
    let onShuttingDown: @Sendable () -> Void
    private let connections = ConnectionRegistry()

    public init(
        configuration: AgentConfiguration, core: AgentCore,
        discoverDocument: @escaping @autoclosure @Sendable () -> RPCValue, logger: Logger,
        group: any EventLoopGroup = MultiThreadedEventLoopGroup.singleton, onRunning: @escaping @Sendable () -> Void = {},
        onShuttingDown: @escaping @Sendable () -> Void = {}
    ) {
        self.configuration = configuration
        self.core = core
        self.discoverDocument = discoverDocument
        self.logger = logger
        self.group = group
        self.onRunning = onRunning
        self.onShuttingDown = onShuttingDown
    }

    public func run() async throws {
        let inherited = configuration.inheritedSocket
        let path = inherited.map { $0.path ?? "fd \($0.descriptor)" } ?? configuration.socketPath
        if inherited == nil { try UnixSocketPath.prepare(path) }
        let environment = ConnectionEnvironment(
            core: core, hub: core.hub, limits: configuration.connectionLimits,
            maximumLineBytes: configuration.maximumLineBytes,
            clientKillTimeout: .nanoseconds(Int64(AgentConfiguration.milliseconds(configuration.clientKillTimeout)) * 1_000_000),
            hello: configuration.hello, discoverDocument: discoverDocument, logger: logger,
            negotiationTimeout: .nanoseconds(Int64(AgentConfiguration.milliseconds(configuration.negotiationTimeout)) * 1_000_000))
        let connections = self.connections
        let maximumLineBytes = configuration.maximumLineBytes
        let policy = configuration.peerPolicy
        let auditor = core.auditor
        let logger = self.logger
        let softLimit = DescriptorLimit.raiseSoftLimit()
        let cap = DescriptorLimit.connectionCap(
            configured: configuration.maximumConnections, softLimit: softLimit,
            reserved: AgentConfiguration.reservedDescriptors)
        if cap < configuration.maximumConnections {
            logger.warning("maxConnections lowered to keep descriptors free for records; raise LimitNOFILE", metadata: [
                "maxConnections": "\(configuration.maximumConnections)", "cap": "\(cap)",
                "openFileLimit": "\(softLimit.map(String.init) ?? "unknown")",
            ])
        }
        let overloaded = RPCErrorObject.domain(
            .overloaded, "the agent serves as many connections as it may (maxConnections); retry later",
            details: ["maximum": .integer(Int64(cap))])
        let bootstrap = ServerBootstrap(group: group)
            .serverChannelOption(.backlog, value: AgentConfiguration.listenBacklog)
            .serverChannelInitializer { server in
                // Out of descriptors (EMFILE, ENFILE) or memory: accept again after a pause instead of spinning
                // on a listening socket that stays readable.
                server.eventLoop.makeCompletedFuture {
                    try server.pipeline.syncOperations.addHandler(AcceptPauseHandler(logger: logger))
                }
            }
            .childChannelOption(.allowRemoteHalfClosure, value: true)
            .childChannelOption(.writeBufferWaterMark, value: .init(
                low: ConnectionStateMachine.Limits.socketLowWaterMark, high: ConnectionStateMachine.Limits.socketHighWaterMark))
            .childChannelInitializer { channel in
                @Sendable func serve() throws {
                    guard let id = connections.add(channel, limit: cap) else {
                        logger.notice("connection refused: too many connections", metadata: ["maximum": "\(cap)"])
                        try channel.pipeline.syncOperations.addHandler(PeerRefusalHandler(refusal: overloaded))
                        return
                    }
                    try channel.pipeline.syncOperations.addHandler(
                        ByteToMessageHandler(JSONLineFrameDecoder(maximumLineBytes: maximumLineBytes)))
                    try channel.pipeline.syncOperations.addHandler(
                        RPCConnectionHandler(connectionID: id, environment: environment))
                    channel.closeFuture.whenComplete { _ in connections.remove(id) }
                }
                guard policy.checksPeers else { return channel.eventLoop.makeCompletedFuture { try serve() } }
                return PeerCredentials.read(from: channel).flatMapThrowing { credentials in
                    switch policy.decide(credentials) {
                    case .allowed:
                        try serve()
                    case .refused(let refusal):
                        // ids only: a uid, gid or pid is not PHI, and nothing the peer sent is read.
                        logger.notice("peer refused", metadata: [
                            "uid": "\(credentials.map { "\($0.uid)" } ?? "unknown")",
                            "gid": "\(credentials.map { "\($0.gid)" } ?? "unknown")",
                            "pid": "\(credentials.map { "\($0.pid)" } ?? "unknown")",
                            "reason": "\(refusal.rawValue)",
                        ])
                        // Written by the outbox, off the event loop.
                        auditor.peerRefused(credentials, refusal)
                        try channel.pipeline.syncOperations.addHandler(PeerRefusalHandler(credentials: credentials))
                    }
                }
            }
        let server: any Channel
        if let inherited {
            server = try await bootstrap.withBoundSocket(inherited.descriptor).get()
            logger.info("listening", metadata: ["socket": "\(path)", "activation": "systemd"])
        } else {
            server = try await bootstrap.bind(unixDomainSocketPath: path).get()
            chmod(path, 0o660)
            logger.info("listening", metadata: ["socket": "\(path)"])
        }
        onRunning()

        let core = self.core
        var unfinished = 0
        let tick = min(Duration.seconds(1), configuration.inactivityTimeout / 4)
        await withTaskGroup(of: Void.self) { tasks in
            tasks.addTask {
                while !Task.isCancelled {
                    try? await Task.sleep(for: tick)
                    await core.expireIdleFlows()
                    await core.prunePausedFlows()
                }
            }
            await withTaskCancellationOrGracefulShutdownHandler {
                try? await server.closeFuture.get()
            } onCancelOrGracefulShutdown: {
                server.close(promise: nil)
            }
            onShuttingDown()
            logger.info("shutting down: no new connections; waiting for records being written")
            await core.beginShutdown()
            unfinished = await core.waitForCompletions(timeout: configuration.shutdownTimeout)
            tasks.cancelAll()
            // What the core decided before the stop (audit lines, events, replies) is out before the goodbye.
            await core.outbox.delivered()
        }
        await sayGoodbye(unfinishedRecords: unfinished)
        if inherited == nil { UnixSocketPath.remove(path) }
        logger.info("stopped", metadata: ["socket": "\(path)"])
    }
}

extension AgentService {
    /// Tells every connection the agent is stopping (after the replies it is owed) and waits for them to close,
    /// up to the client kill timeout (and a second): a client that does not read its goodbye is closed then.
    func sayGoodbye(unfinishedRecords: Int) async {
        let channels = connections.all()
        guard !channels.isEmpty else { return }
        logger.info("closing the connections", metadata: ["connections": "\(channels.count)"])
        for channel in channels {
            channel.pipeline.fireUserInboundEventTriggered(AgentStopping(unfinishedRecords: unfinishedRecords))
        }
        let loop = group.any()
        let done = loop.makePromise(of: Void.self)
        // Both callbacks run on `loop`.
        let isDone = NIOLoopBoundBox.makeBoxSendingValue(false, as: Bool.self, eventLoop: loop)
        @Sendable func finish() {
            guard !isDone.value else { return }
            isDone.value = true
            done.succeed()
        }
        EventLoopFuture.andAllComplete(channels.map(\.closeFuture), on: loop).whenComplete { _ in finish() }
        let deadline = loop.scheduleTask(
            in: .nanoseconds(Int64(AgentConfiguration.milliseconds(configuration.clientKillTimeout + .seconds(1))) * 1_000_000)
        ) { finish() }
        try? await done.futureResult.get()
        deadline.cancel()
        for channel in connections.all() {
            try? await channel.close().get()
        }
    }
}

/// The open connections, for closing them at shutdown, and the source of connection ids.
final class ConnectionRegistry: Sendable {
    private let state = NIOLockedValueBox<(next: UInt64, channels: [UInt64: any Channel])>((1, [:]))

    /// Registers a connection and gives its id, or nil when `limit` connections are open already.
    func add(_ channel: any Channel, limit: Int = .max) -> UInt64? {
        state.withLockedValue { state in
            guard state.channels.count < limit else { return nil }
            let id = state.next
            state.next += 1
            state.channels[id] = channel
            return id
        }
    }

    func remove(_ id: UInt64) {
        _ = state.withLockedValue { $0.channels.removeValue(forKey: id) }
    }

    func all() -> [any Channel] {
        state.withLockedValue { Array($0.channels.values) }
    }
}
