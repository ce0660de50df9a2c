import LocalSocket
import AgentProtocol
import Foundation
import NIOCore

/// Everything the agent service needs to know, from flags and the config file.
public struct AgentConfiguration: Sendable {
    public var socketPath: String
    /// A listening socket systemd passed (socket activation): served instead of binding `socketPath`, whose file
    /// belongs to systemd and is neither replaced, chmodded nor removed.
    public var inheritedSocket: InheritedSocket?
    public var stateDirectory: URL
    public var maximumLineBytes = ProtocolInfo.defaultMaximumLineBytes
    public var maximumInFlight = ProtocolInfo.defaultMaximumInFlight
    /// Bound of each client's outbound queue, in messages.
    public var outboundQueueMessages = 1000
    /// Bound of each client's outbound queue, in bytes.
    public var outboundQueueBytes = 8 << 20
    /// A client whose socket stays unwritable this long is disconnected.
    public var clientKillTimeout: Duration = .seconds(10)
    public var inactivityTimeout: Duration = .seconds(600)
    /// This long before the inactivity wipe, a flow's UIs get `flow.expiring` (`inactivityWarningSeconds`); nil: no
    /// warning. The default's 60 seconds become half the timeout when the timeout is shorter.
    public var inactivityWarning: Duration? = .seconds(60)
    /// Who may connect (`allowedPeers` of the config file); without it the socket's permissions decide.
    public var peerPolicy = PeerPolicy(allowedPeers: nil)
    /// How long a SIGTERM waits for records being written before the agent says goodbye anyway. With the goodbye's
    /// own bound (`clientKillTimeout`) it stays below systemd's `TimeoutStopSec=60`, so the agent, not SIGKILL,
    /// ends the stop.
    public var shutdownTimeout: Duration = .seconds(30)
    public var minimumSignaturePoints = 10
    /// Pad signatures with less ink than this, in widths of the signing area, are `SignatureTooShort`.
    public var minimumInkLength = 0.15
    public var serverVersion = "0.1.0"
    /// At most this many connections at once (`maxConnections`); one more gets an `Overloaded` line and is closed.
    /// The agent also keeps it below its descriptor limit (`reservedDescriptors`), so records stay writable.
    public var maximumConnections = 64
    /// A client that has not sent `session.negotiate` this long after `hello` is closed (`negotiationTimeoutSeconds`).
    public var negotiationTimeout: Duration = .seconds(30)
    /// At most this many flows run at once (`maxFlows`); `flow.start` beyond it is `Overloaded`.
    public var maximumFlows = 64
    /// Running flows whose connections all closed expire this long after (`closedConnectionFlowGraceSeconds`).
    public var closedConnectionFlowGrace: Duration = .seconds(60)
    /// The same for flows that had not reached the name (`closedConnectionFlowBeforeNameGraceSeconds`): long enough
    /// for the reference UI to reconnect after a bridge restart (it retries after 0.5, 1, 2 and 4 s), short enough
    /// that a UI that starts flows and goes does not lock the kiosk out for long.
    public var closedConnectionFlowBeforeNameGrace: Duration = .seconds(10)
    /// The listen backlog (the kernel caps it at `net.core.somaxconn`): a burst of connects waits in it instead of
    /// failing with EAGAIN. Under systemd the socket unit's `Backlog=` applies instead.
    public static let listenBacklog: Int32 = 4096
    /// Descriptors kept free of connections: a record (temporary directory, its files, the journal, the audit
    /// log, the PDF's fonts) and the pads need them while every connection is open.
    public static let reservedDescriptors = 256

    public init(socketPath: String, stateDirectory: URL) {
        self.socketPath = socketPath
        self.stateDirectory = stateDirectory
    }

    /// `$XDG_RUNTIME_DIR/consentd.sock`, else `./run/consentd.sock`.
    public static func defaultSocketPath(environment: [String: String] = ProcessInfo.processInfo.environment) -> String {
        LocalSocket.defaultAgentPath(environment: environment)
    }

    /// The `params` of the `hello` greeting.
    var hello: RPCValue {
        [
            "protocol": .string(ProtocolInfo.name),
            "versions": .array(ProtocolInfo.versions.map(RPCValue.integer)),
            "server": ["name": "consentd", "version": .string(serverVersion)],
            "capabilities": .array(ProtocolInfo.capabilities.map(RPCValue.string)),
            "limits": [
                "maxLineBytes": .integer(Int64(maximumLineBytes)),
                "maxInFlight": .integer(Int64(maximumInFlight)),
                "outboundQueueMessages": .integer(Int64(outboundQueueMessages)),
                "clientKillTimeoutMs": .integer(Self.milliseconds(clientKillTimeout)),
            ],
        ]
    }

    var connectionLimits: ConnectionStateMachine.Limits {
        .init(
            maximumInFlight: maximumInFlight,
            queue: .init(maximumMessages: outboundQueueMessages, maximumBytes: outboundQueueBytes))
    }

    static func milliseconds(_ d: Duration) -> Int64 {
        d.components.seconds * 1000 + d.components.attoseconds / 1_000_000_000_000_000
    }
}
