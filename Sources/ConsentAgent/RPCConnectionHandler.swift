import AgentProtocol
import Logging
import NIOCore

/// The thin shell around `ConnectionStateMachine`: it turns channel events into state machine calls and carries
/// out the actions.
///
/// Pipeline: `ByteToMessageHandler(JSONLineFrameDecoder)` → this handler. Backpressure works both ways: reading
/// pauses while `maximumInFlight` requests wait or the client does not read its replies, and a client whose
/// socket stays unwritable for `clientKillTimeout` is disconnected.
final class RPCConnectionHandler: ChannelDuplexHandler {
    typealias InboundIn = JSONLineFrameDecoder.Frame
    typealias OutboundIn = ByteBuffer
    typealias OutboundOut = ByteBuffer

    private let connectionID: UInt64
    private let environment: ConnectionEnvironment
    private var logger: Logger
    private var machine: ConnectionStateMachine
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

    func handlerAdded(context: ChannelHandlerContext) {
        self.context = context
        self.handle = ConnectionHandle(id: connectionID, eventLoop: context.eventLoop, handler: self)
        if context.channel.isActive { greet(context: context) }
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        self.context = nil
        // The handle holds this handler (its NIOLoopBound): dropping it here breaks the cycle, or every closed
        // connection would keep its handler, queue and handle forever (LeakSanitizer found it). A request still
        // with the core keeps the handle, and through it this handler, until it is answered.
        self.handle = nil
    }

    func channelActive(context: ChannelHandlerContext) {
        greet(context: context)
        context.fireChannelActive()
    }

    private func greet(context: ChannelHandlerContext) {
        guard machine.greet(hello: environment.hello) else { return }
        logger.debug("client connected")
        flushOutbound()
        let handler = NIOLoopBound(self, eventLoop: context.eventLoop)
        negotiationTimer = context.eventLoop.scheduleTask(in: environment.negotiationTimeout) {
            handler.value.negotiationTimedOut()
        }
    }

    private func negotiationTimedOut() {
        negotiationTimer = nil
        let seconds = environment.negotiationTimeout.nanoseconds / 1_000_000_000
        guard machine.negotiationTimedOut(seconds: seconds) else { return }
        logger.notice("closing a client that did not negotiate in time", metadata: ["timeoutSeconds": "\(seconds)"])
        flushOutbound()
    }

    func channelInactive(context: ChannelHandlerContext) {
        machine.connectionClosed()
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
        machine.frameReceived(unwrapInboundIn(data), maximumLineBytes: environment.maximumLineBytes)
        processRequests()
        flushOutbound()
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        if let stop = event as? AgentStopping {
            if machine.stopRequested(unfinishedRecords: stop.unfinishedRecords) {
                processRequests()
                sayGoodbyeIfIdle()
            }
            return
        }
        if case ChannelEvent.inputClosed = event {
            machine.inputClosed()
            flushOutbound()
        }
        context.fireUserInboundEventTriggered(event)
    }

    private func sayGoodbyeIfIdle() {
        guard machine.goodbyeIfIdle() else { return }
        logger.debug("client told the agent is stopping")
        flushOutbound()
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
            flushOutbound()
        } else if killTimer == nil {
            let timeout = environment.clientKillTimeout
            let logger = self.logger
            let channel = context.channel
            killTimer = context.eventLoop.scheduleTask(in: timeout) {
                logger.notice("disconnecting a client that stopped reading", metadata: ["timeout": "\(timeout)"])
                channel.close(promise: nil)
            }
        }
        resumeReadingIfPossible()
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
        guard context != nil, machine.eventReceived(event) else { return }
        flushOutbound()
    }

    func requestCompleted(_ id: RPCID, _ outcome: DispatchOutcome) {
        machine.requestCompleted(id, outcome)
        processRequests()
        flushOutbound()
        sayGoodbyeIfIdle()
    }

    // MARK: Carrying out actions

    private func processRequests() {
        while let action = machine.nextAction(eventsInFlight: handle?.hasEventsInFlight ?? true) {
            switch action {
            case .negotiated(let client, let capabilities):
                logger.debug("client negotiated")
                handle?.negotiated(client: client, capabilities: capabilities)
                negotiationTimer?.cancel()
                negotiationTimer = nil
            case .dispatch(let request, let method):
                guard let handle else { return }
                let core = environment.core
                Task { await core.handle(request, method: method, from: handle) }
                return
            }
        }
        resumeReadingIfPossible()
    }

    private func flushOutbound() {
        guard let context else { return }
        var wrote = false
        while context.channel.isWritable, let bytes = machine.popOutbound() {
            context.write(wrapOutboundOut(bytes), promise: nil)
            wrote = true
        }
        if wrote { context.flush() }
        switch machine.closeAction() {
        case .close?:
            context.close(promise: nil)
        case .closeAfterFlush?:
            // The empty write completes only after every earlier one.
            let channel = context.channel
            context.writeAndFlush(wrapOutboundOut(channel.allocator.buffer(capacity: 0))).whenComplete { _ in
                channel.close(promise: nil)
            }
        case nil:
            break
        }
    }

    private func resumeReadingIfPossible() {
        guard isReadPending, let context, machine.shouldRead, context.channel.isWritable else { return }
        isReadPending = false
        context.read()
    }
}

@available(*, unavailable)
extension RPCConnectionHandler: Sendable {}

/// Fired into every connection's pipeline when the agent stops (after records being written are done).
struct AgentStopping: Sendable {
    /// `flow.complete` writes still running when the shutdown bound ran out.
    var unfinishedRecords: Int
}
