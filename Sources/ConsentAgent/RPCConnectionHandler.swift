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
        self.machine = ConnectionStateMachine(limits: environment.limits)
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

    private var hasGreeted = false

    private func greet(context: ChannelHandlerContext) {
        guard !hasGreeted else { return }
        hasGreeted = true
        logger.debug("client connected")
        machine.enqueueReply(["jsonrpc": "2.0", "method": .string(EventName.hello.rawValue), "params": environment.hello])
        flushOutbound()
        let handler = NIOLoopBound(self, eventLoop: context.eventLoop)
        negotiationTimer = context.eventLoop.scheduleTask(in: environment.negotiationTimeout) {
            handler.value.negotiationTimedOut()
        }
    }

    /// The client never negotiated: one `NotNegotiated` line (`id` null), then the close once it is written.
    private func negotiationTimedOut() {
        negotiationTimer = nil
        guard !machine.isNegotiated, !closesWhenFlushed, pendingStop == nil else { return }
        let seconds = environment.negotiationTimeout.nanoseconds / 1_000_000_000
        logger.notice("closing a client that did not negotiate in time", metadata: ["timeoutSeconds": "\(seconds)"])
        let error = RPCErrorObject(
            code: RPCErrorCode.invalidRequest, type: .notNegotiated,
            message: "no session.negotiate within \(seconds) s of hello; the connection is closed")
        machine.enqueueReply(["jsonrpc": "2.0", "id": .null, "error": error.value])
        closesWhenFlushed = true
        flushOutbound()
    }

    func channelInactive(context: ChannelHandlerContext) {
        machine.connectionClosed()
        environment.hub.remove(connection: connectionID)
        // Its flows expire after the grace unless another connection takes them up (issue 18 D6).
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
        let frame = unwrapInboundIn(data)
        machine.frameReceived(frame, maximumLineBytes: environment.maximumLineBytes)
        processRequests()
        flushOutbound()
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        if let stop = event as? AgentStopping {
            beginStopping(stop)
            return
        }
        if case ChannelEvent.inputClosed = event {
            // The client sent everything (socat at the end of its script): answer it all, then close.
            isInputClosed = true
            closeIfDone()
        }
        context.fireUserInboundEventTriggered(event)
    }

    private var isInputClosed = false

    // MARK: Stopping

    /// The goodbye waiting for the request with the core to be answered.
    private var pendingStop: AgentStopping?
    /// `agent.stopping` is queued: close once everything queued is written.
    private var closesWhenFlushed = false

    private func beginStopping(_ stop: AgentStopping) {
        guard pendingStop == nil, !closesWhenFlushed else { return }
        pendingStop = stop
        machine.beginStopping()
        processRequests()
        sayGoodbyeIfIdle()
    }

    /// Once no request is with the core (its reply, e.g. a `flow.complete`'s, is queued first), queues
    /// `agent.stopping` after everything else and closes when it is written. When the shutdown bound left records
    /// unfinished, their replies will not come: it does not wait.
    private func sayGoodbyeIfIdle() {
        guard let stop = pendingStop, !machine.isBusy || stop.unfinishedRecords > 0 else { return }
        pendingStop = nil
        machine.enqueueStoppingNotice(AgentEvent(
            .agentStopping, data: ["unfinishedRecords": .integer(Int64(stop.unfinishedRecords))]))
        closesWhenFlushed = true
        logger.debug("client told the agent is stopping")
        flushOutbound()
    }

    /// Closes after the last queued message has left: the empty write completes only after every earlier one.
    private func closeIfFlushed() {
        guard closesWhenFlushed, machine.queue.isEmpty, let context else { return }
        closesWhenFlushed = false
        let channel = context.channel
        context.writeAndFlush(wrapOutboundOut(channel.allocator.buffer(capacity: 0))).whenComplete { _ in
            channel.close(promise: nil)
        }
    }

    private func closeIfDone() {
        guard isInputClosed, machine.isIdle, let context else { return }
        isInputClosed = false
        context.close(promise: nil)
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
        switch outcome {
        case .result(let result):
            machine.enqueueReply(RPCMessage.result(id: id, result))
        case .error(let error):
            machine.enqueueReply(RPCMessage.error(id: id, error))
        case .subscribed(let snapshot):
            machine.enqueueReply(RPCMessage.result(id: id, ["seq": .integer(machine.lastSeq), "snapshot": snapshot]))
        }
        machine.requestFinished()
        processRequests()
        flushOutbound()
        sayGoodbyeIfIdle()
    }

    // MARK: Carrying out actions

    private func processRequests() {
        while let action = machine.nextRequest() {
            switch action {
            case .fail(let failure):
                machine.enqueueReply(RPCMessage.error(id: failure.id, failure.error))
            case .reject(let id, let error):
                machine.enqueueReply(RPCMessage.error(id: id, error))
            case .handleLocally(let request, let method):
                machine.enqueueReply(handleLocally(request, method))
                machine.requestFinished()
            case .dispatch(let request, let method):
                guard let handle else { return }
                let core = environment.core
                Task { await core.handle(request, method: method, from: handle) }
                return
            }
        }
        resumeReadingIfPossible()
    }

    private func handleLocally(_ request: RPCRequest, _ method: Method) -> RPCValue {
        let outcome: Result<RPCValue, RPCErrorObject>
        switch method {
        case .sessionNegotiate:
            outcome = machine.negotiate(request.params, sessionID: "s-\(connectionID)")
            if case .success = outcome {
                logger.debug("client negotiated")
                if case .string(let client)? = request.params["client"] { handle?.negotiated(client: client) }
                negotiationTimer?.cancel()
                negotiationTimer = nil
            }
        case .sessionSync:
            // Every earlier event is queued before this reply and the queue is FIFO, so the reply is written
            // after all of them.
            if let unknown = request.params.keys.sorted().first {
                outcome = .failure(.unknownParameter(unknown))
            } else {
                outcome = .success(["seq": .integer(machine.lastSeq)])
            }
        case .rpcDiscover:
            if let unknown = request.params.keys.sorted().first {
                outcome = .failure(.unknownParameter(unknown))
            } else {
                outcome = .success(environment.discoverDocument)
            }
        default:
            outcome = .failure(RPCErrorObject(
                code: RPCErrorCode.internalError, type: .internalError, message: "the method is not handled locally"))
        }
        switch outcome {
        case .success(let result): return RPCMessage.result(id: request.id, result)
        case .failure(let error): return RPCMessage.error(id: request.id, error)
        }
    }

    private func flushOutbound() {
        guard let context else { return }
        var wrote = false
        while context.channel.isWritable, let bytes = machine.popOutbound() {
            context.write(wrapOutboundOut(bytes), promise: nil)
            wrote = true
        }
        if wrote { context.flush() }
        closeIfDone()
        closeIfFlushed()
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
