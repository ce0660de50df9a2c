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
/// Graceful shutdown (SIGTERM/SIGINT through the ServiceGroup): stop accepting, let records being written reach
/// disk (their replies are still sent), close the connections, remove the socket file.
///
/// With socket activation (`configuration.inheritedSocket`) it serves the listening socket systemd passed and
/// leaves its path alone: systemd created it, set its mode and group, and removes it.
public final class AgentService: Service {
    public let configuration: AgentConfiguration
    public let core: AgentCore
    let discoverDocument: RPCValue
    let logger: Logger
    let group: any EventLoopGroup
    let onRunning: @Sendable () -> Void
    let onShuttingDown: @Sendable () -> Void
    private let connections = ConnectionRegistry()

    public init(
        configuration: AgentConfiguration, core: AgentCore, discoverDocument: RPCValue, logger: Logger,
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
            hello: configuration.hello, discoverDocument: discoverDocument, logger: logger)
        let connections = self.connections
        let maximumLineBytes = configuration.maximumLineBytes
        let bootstrap = ServerBootstrap(group: group)
            .serverChannelOption(.backlog, value: 64)
            .childChannelOption(.allowRemoteHalfClosure, value: true)
            .childChannelOption(.writeBufferWaterMark, value: .init(low: 32 * 1024, high: 64 * 1024))
            .childChannelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    let id = connections.add(channel)
                    try channel.pipeline.syncOperations.addHandler(
                        ByteToMessageHandler(JSONLineFrameDecoder(maximumLineBytes: maximumLineBytes)))
                    try channel.pipeline.syncOperations.addHandler(
                        RPCConnectionHandler(connectionID: id, environment: environment))
                    channel.closeFuture.whenComplete { _ in connections.remove(id) }
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
        let tick = min(Duration.seconds(1), configuration.inactivityTimeout / 4)
        await withTaskGroup(of: Void.self) { tasks in
            tasks.addTask { await core.pumpPadEvents() }
            tasks.addTask {
                while !Task.isCancelled {
                    try? await Task.sleep(for: tick)
                    await core.expireIdleFlows()
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
            await core.waitForCompletions()
            tasks.cancelAll()
        }
        // Let the replies of finished completions go out, then close what is left.
        for channel in connections.all() {
            try? await channel.close().get()
        }
        if inherited == nil { UnixSocketPath.remove(path) }
        logger.info("stopped", metadata: ["socket": "\(path)"])
    }
}

/// The open connections, for closing them at shutdown, and the source of connection ids.
final class ConnectionRegistry: Sendable {
    private let state = NIOLockedValueBox<(next: UInt64, channels: [UInt64: any Channel])>((1, [:]))

    func add(_ channel: any Channel) -> UInt64 {
        state.withLockedValue { state in
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
