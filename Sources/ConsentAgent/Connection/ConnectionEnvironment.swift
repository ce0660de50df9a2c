import AgentProtocol
import Logging
import NIOCore

/// What every connection shares: the core, the hub, the limits and the served documents.
struct ConnectionEnvironment: Sendable {
    var core: AgentCore
    var hub: EventHub
    var limits: ConnectionStateMachine.Limits
    var maximumLineBytes: Int
    var clientKillTimeout: TimeAmount
    /// The `params` of `hello`.
    var hello: RPCValue
    /// The OpenRPC document `rpc.discover` returns, asked for when a connection opens (not at start-up).
    var discoverDocument: @Sendable () -> RPCValue
    var logger: Logger
    /// A client that has not negotiated this long after `hello` gets one `NotNegotiated` line and is closed, so
    /// idle connections cannot hold descriptors (and the connection cap) forever.
    var negotiationTimeout: TimeAmount = .seconds(30)
}
