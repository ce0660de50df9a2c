import AgentProtocol
import NIOCore

/// A connection as seen from outside its event loop: the core and the event hub reach the handler through it.
///
/// Every call hops onto the connection's event loop, so the handler stays loop-confined (NIOLoopBound, not
/// `@unchecked Sendable`). Hops from one caller keep their order, which is what makes a reply sent after an
/// event arrive after it.
public final class ConnectionHandle: Sendable {
    public let id: UInt64
    let eventLoop: any EventLoop
    private let handler: NIOLoopBound<RPCConnectionHandler>

    init(id: UInt64, eventLoop: any EventLoop, handler: RPCConnectionHandler) {
        self.id = id
        self.eventLoop = eventLoop
        self.handler = NIOLoopBound(handler, eventLoop: eventLoop)
    }

    /// Delivers an event; it is dropped if the client is not negotiated.
    func deliver(_ event: AgentEvent) {
        let handler = self.handler
        eventLoop.execute { handler.value.eventArrived(event) }
    }

    /// Answers the request the connection handed to the core.
    func finish(_ id: RPCID, _ outcome: DispatchOutcome) {
        let handler = self.handler
        eventLoop.execute { handler.value.requestCompleted(id, outcome) }
    }
}

/// How the core answered one request.
enum DispatchOutcome: Sendable {
    case result(RPCValue)
    case error(RPCErrorObject)
    /// `events.subscribe`: the snapshot; the connection adds the `seq` the stream continues after.
    case subscribed(snapshot: RPCValue)
}
