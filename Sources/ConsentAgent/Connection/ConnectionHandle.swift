import AgentProtocol
import NIOConcurrencyHelpers
import NIOCore
import Synchronization

/// A connection as seen from outside its event loop: the core and the event hub reach the handler through it.
///
/// Every call hops onto the connection's event loop, so the handler stays loop-confined (NIOLoopBound, not
/// `@unchecked Sendable`). Hops from one caller keep their order, which is what makes a reply sent after an
/// event arrive after it.
///
/// A handle can also stand for no connection at all: `init(id:recorder:)` hands every event and reply to a
/// closure, synchronously and on the thread that delivers it (for the core's replies and events, its `Outbox`'s),
/// all of them before `AgentCore.handle` returns. The fuzz targets (Fuzz/Targets/FuzzProtocol) drive the core
/// through such a handle without sockets or event loops.
public final class ConnectionHandle: Sendable {
    /// What the core sent to a recording handle.
    enum Delivery: Sendable {
        case event(AgentEvent)
        case reply(RPCID, DispatchOutcome)
    }

    private enum Receiver: Sendable {
        case handler(any EventLoop, NIOLoopBound<RPCConnectionHandler>)
        case recorder(@Sendable (Delivery) -> Void)
    }

    public let id: UInt64
    private let receiver: Receiver
    private let negotiatedClient = NIOLockedValueBox<String?>(nil)
    private let grantedCapabilities = NIOLockedValueBox<Set<Capability>>([])
    /// Events handed to `deliver` whose hop has not yet reached the connection's queue. Counted up before the hop
    /// and down once the event is queued, so zero (read on the loop) means every event published to this
    /// connection so far is queued: what lets the connection answer `session.sync` itself.
    private let eventsOnTheirWay = Atomic<Int>(0)

    /// Set once the connection has closed: the hub no longer adds it (an `events.subscribe` still in the core's
    /// outbox when the client went away must not leave a subscriber behind).
    private let closed = Atomic<Bool>(false)

    var isClosed: Bool { closed.load(ordering: .sequentiallyConsistent) }

    /// The connection closed; called before the hub removes it.
    func markClosed() { closed.store(true, ordering: .sequentiallyConsistent) }

    /// Whether an event published to this connection is still on its way to the connection's loop.
    var hasEventsInFlight: Bool { eventsOnTheirWay.load(ordering: .sequentiallyConsistent) > 0 }

    /// The `client` name the connection gave in `session.negotiate`: a record of UI-drawn strokes names it as
    /// what captured them. Nil before negotiation (the core is never handed such a connection's requests).
    var clientName: String? { negotiatedClient.withLockedValue { $0 } }

    /// The capabilities the connection negotiated (empty before negotiation).
    var capabilities: Set<Capability> { grantedCapabilities.withLockedValue { $0 } }

    func negotiated(client: String?, capabilities: Set<Capability>) {
        if let client { negotiatedClient.withLockedValue { $0 = client } }
        grantedCapabilities.withLockedValue { $0 = capabilities }
    }

    init(id: UInt64, eventLoop: any EventLoop, handler: RPCConnectionHandler) {
        self.id = id
        self.receiver = .handler(eventLoop, NIOLoopBound(handler, eventLoop: eventLoop))
    }

    /// A handle without a connection: `recorder` gets every delivery, in order, on the delivering thread.
    init(id: UInt64, recorder: @escaping @Sendable (Delivery) -> Void) {
        self.id = id
        self.receiver = .recorder(recorder)
    }

    /// Delivers an event; it is dropped if the client is not negotiated.
    func deliver(_ event: AgentEvent) {
        switch receiver {
        case .handler(let eventLoop, let handler):
            eventsOnTheirWay.add(1, ordering: .sequentiallyConsistent)
            eventLoop.execute {
                handler.value.eventArrived(event)
                self.eventsOnTheirWay.subtract(1, ordering: .sequentiallyConsistent)
            }
        case .recorder(let record):
            record(.event(event))
        }
    }

    /// Answers the request the connection handed to the core.
    func finish(_ id: RPCID, _ outcome: DispatchOutcome) {
        switch receiver {
        case .handler(let eventLoop, let handler):
            eventLoop.execute { handler.value.requestCompleted(id, outcome) }
        case .recorder(let record):
            record(.reply(id, outcome))
        }
    }
}

/// How the core answered one request.
enum DispatchOutcome: Sendable {
    case result(RPCValue)
    case error(RPCErrorObject)
    /// `events.subscribe`: the snapshot; the connection adds the `seq` the stream continues after.
    case subscribed(snapshot: RPCValue)
    /// `session.sync`: every event published before it has been handed to the connection; the connection answers
    /// with the `seq` of the last one it queued.
    case synced
}
