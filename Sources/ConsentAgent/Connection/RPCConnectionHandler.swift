import AgentProtocol
import Logging
import NIOCore

/// The thin shell around `ConnectionStateMachine`: it turns channel events into the machine's inputs and carries
/// out the actions they return (`ConnectionShell.execute`).
///
/// Pipeline: `ByteToMessageHandler(JSONLineFrameDecoder)` → this handler. Backpressure works both ways: reading
/// pauses while `maximumInFlight` requests wait or the client does not read its replies, no request is taken while
/// its replies wait (`ConnectionStateMachine.isBackedUp`), and a client whose socket stays unwritable for
/// `clientKillTimeout` is disconnected.
final class RPCConnectionHandler: ChannelDuplexHandler, ConnectionShell {
    typealias InboundIn = JSONLineFrameDecoder.Frame
    typealias OutboundIn = ByteBuffer
    typealias OutboundOut = ByteBuffer

    private let connectionID: UInt64
    private let environment: ConnectionEnvironment
    private var logger: Logger
    var machine: ConnectionStateMachine
    private var context: ChannelHandlerContext?
    private var handle: ConnectionHandle?
    /// The channel asked for a read while reading was paused.
    private var isReadPending = false
    private var killTimer: Scheduled<Void>?
    private var negotiationTimer: Scheduled<Void>?

    init(connectionID: UInt64, environment: ConnectionEnvironment) {
        self.connectionID = connectionID
        self.environment = environment
        self.machine = ConnectionStateMachine(
            limits: environment.limits, sessionID: "s-\(connectionID)", discoverDocument: environment.discoverDocument())
        self.logger = environment.logger
        self.logger[metadataKey: "connection"] = "\(connectionID)"
    }

    /// Whether an event published to this connection may still be on its way (`session.sync` waits for it).
    var eventsInFlight: Bool { handle?.hasEventsInFlight ?? true }

    func handlerAdded(context: ChannelHandlerContext) {
        self.context = context
        self.handle = ConnectionHandle(id: connectionID, eventLoop: context.eventLoop, handler: self)
        if context.channel.isActive { execute(machine.greet(hello: environment.hello)) }
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        self.context = nil
        // The handle holds this handler (its NIOLoopBound): dropping it here breaks the cycle, or every closed
        // connection would keep its handler, queue and handle forever (LeakSanitizer found it). A request still
        // with the core keeps the handle, and through it this handler, until it is answered.
        self.handle = nil
    }

    func channelActive(context: ChannelHandlerContext) {
        execute(machine.greet(hello: environment.hello))
        context.fireChannelActive()
    }

    private func negotiationTimedOut() {
        negotiationTimer = nil
        execute(machine.negotiationTimedOut(seconds: environment.negotiationTimeout.nanoseconds / 1_000_000_000))
    }

    func channelInactive(context: ChannelHandlerContext) {
        machine.connectionClosed()
        handle?.markClosed()
        environment.hub.remove(connection: connectionID)
        // Its flows expire after the grace unless another connection takes them up.
        let core = environment.core
        let id = connectionID
        Task { await core.connectionClosed(id) }
        killTimer?.cancel()
        killTimer = nil
        negotiationTimer?.cancel()
        negotiationTimer = nil
        logger.debug("client disconnected")
        context.fireChannelInactive()
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        execute(machine.frameReceived(
            unwrapInboundIn(data), maximumLineBytes: environment.maximumLineBytes, eventsInFlight: eventsInFlight))
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        if let stop = event as? AgentStopping {
            execute(machine.stopRequested(unfinishedRecords: stop.unfinishedRecords, eventsInFlight: eventsInFlight))
            return
        }
        if case ChannelEvent.inputClosed = event {
            execute(machine.inputClosed())
        }
        context.fireUserInboundEventTriggered(event)
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        // Without this an I/O error would leave the connection half-dead.
        logger.info("closing the connection after an error", metadata: ["error": "\(type(of: error))"])
        context.close(promise: nil)
    }

    func channelWritabilityChanged(context: ChannelHandlerContext) {
        if context.channel.isWritable {
            killTimer?.cancel()
            killTimer = nil
        } else if killTimer == nil {
            let timeout = environment.clientKillTimeout
            let logger = self.logger
            let channel = context.channel
            killTimer = context.eventLoop.scheduleTask(in: timeout) {
                logger.notice("disconnecting a client that stopped reading", metadata: ["timeout": "\(timeout)"])
                channel.close(promise: nil)
            }
        }
        execute(machine.writabilityChanged(isWritable: context.channel.isWritable))
        context.fireChannelWritabilityChanged()
    }

    func read(context: ChannelHandlerContext) {
        if machine.shouldRead && context.channel.isWritable {
            context.read()
        } else {
            isReadPending = true
        }
    }

    // MARK: From the core and the hub (already on the event loop)

    func eventArrived(_ event: AgentEvent) {
        guard context != nil else { return }
        execute(machine.eventReceived(event))
    }

    func requestCompleted(_ id: RPCID, _ outcome: DispatchOutcome) {
        execute(machine.requestCompleted(id, outcome, eventsInFlight: eventsInFlight))
    }

    // MARK: ConnectionShell: carrying out actions

    var isWritable: Bool { context?.channel.isWritable ?? false }

    func write(_ bytes: ByteBuffer) {
        context?.write(wrapOutboundOut(bytes), promise: nil)
    }

    func flush() {
        context?.flush()
    }

    func perform(_ action: ConnectionStateMachine.Action) {
        switch action {
        case .greeted:
            logger.debug("client connected")
            guard let context else { return }
            let handler = NIOLoopBound(self, eventLoop: context.eventLoop)
            negotiationTimer = context.eventLoop.scheduleTask(in: environment.negotiationTimeout) {
                handler.value.negotiationTimedOut()
            }
        case .negotiated(let client, let capabilities):
            logger.debug("client negotiated")
            handle?.negotiated(client: client, capabilities: capabilities)
            negotiationTimer?.cancel()
            negotiationTimer = nil
        case .dispatch(let request, let method):
            guard let handle else { return }
            let core = environment.core
            Task { await core.handle(request, method: method, from: handle) }
        case .resumeReading:
            guard isReadPending, let context, machine.shouldRead, context.channel.isWritable else { return }
            isReadPending = false
            context.read()
        case .notNegotiatedInTime(let seconds):
            logger.notice("closing a client that did not negotiate in time", metadata: ["timeoutSeconds": "\(seconds)"])
        case .saidGoodbye:
            logger.debug("client told the agent is stopping")
        case .close:
            context?.close(promise: nil)
        case .closeAfterFlush:
            guard let context else { return }
            // The empty write completes only after every earlier one.
            let channel = context.channel
            context.writeAndFlush(wrapOutboundOut(channel.allocator.buffer(capacity: 0))).whenComplete { _ in
                channel.close(promise: nil)
            }
        case .flush:
            execute([.flush])
        }
    }
}

@available(*, unavailable)
extension RPCConnectionHandler: Sendable {}

/// Fired into every connection's pipeline when the agent stops (after records being written are done).
struct AgentStopping: Sendable {
    /// `flow.complete` writes still running when the shutdown bound ran out.
    var unfinishedRecords: Int
}
