import AgentProtocol
import EnteredText
import NIOCore

/// The logic of one client connection, as a value type: every input returns the actions that follow from it
/// (NIO's state machines), and `ConnectionShell.execute` carries them out, the same in `RPCConnectionHandler` and
/// in the fuzz harnesses (`FuzzConnection`, `FuzzRequest`, `FuzzProtocol`).
///
/// It owns: the greeting, negotiation gating (before `session.negotiate` only the handshake and `rpc.discover` are
/// served, and no events are sent), the local methods, the strict request order (one request is handled at a time,
/// so replies come in request order), the shape of every reply, the in-flight cap that pauses reading, the
/// hold on requests while the client has not taken the replies before (`isBackedUp`), the per-connection event
/// `seq`, the bounded outbound queue, and when the connection ends (the negotiation deadline,
/// the goodbye of a stopping agent, a client that sent everything).
///
/// Its inputs, by section below: the channel (the greeting, writability), outbound (events), lines in and replies
/// out, and how the connection ends (the deadline, the stop, the client's end, the channel's). All of it is one
/// file so that `state` is private: only these inputs move the connection from phase to phase.
struct ConnectionStateMachine {
    struct Limits: Sendable, Hashable {
        var maximumInFlight: Int
        var queue: OutboundQueue.Limits
        /// No further line is taken while this many bytes or more wait in the queue (`isBackedUp`): the socket's
        /// high water mark, so what waits for a client that does not read is one reply, whatever its size.
        var maximumUnsentBytes = Self.socketHighWaterMark

        /// The channel's write-buffer water marks (`AgentService`): NIO calls a connection unwritable once this many
        /// bytes wait in it, and writable again below the low one.
        static let socketHighWaterMark = 64 << 10
        static let socketLowWaterMark = 32 << 10
    }

    /// Where the connection is in its life; the facts every open phase keeps are in `Session`.
    enum State: Equatable {
        /// Serving requests, in order.
        case serving(Session)
        /// The agent stops: requests not yet handled are answered `ShuttingDown`, nothing more is read, and
        /// `agent.stopping` (with `unfinishedRecords`) follows the reply of the request with the core.
        case stopping(Session, unfinishedRecords: Int)
        /// The connection's last line (the goodbye, or the negotiation deadline's error) is queued: nothing is read,
        /// handled, answered or sent after it. A client may stop reading at `agent.stopping`, as Protocol/README.md
        /// tells it. `closesWhenFlushed` until the close once it is written has been returned.
        case lastLineQueued(Session, closesWhenFlushed: Bool)
        /// The channel went away.
        case closed
    }

    /// What an open connection knows, whatever its phase.
    struct Session: Equatable {
        var negotiation = Negotiation.awaiting
        /// What `session.negotiate` granted; a request needing anything else is `CapabilityNotGranted`.
        var granted: Set<Capability> = []
        /// `hello` is queued (once, however the handler learned the channel is active).
        var hasGreeted = false
        /// A request is with the core (or being answered) and the next must wait.
        var hasRequestInHand = false
        /// The client closed its sending side: close once everything is answered and written.
        var isInputClosed = false
    }

    enum Negotiation: Equatable {
        case awaiting
        case negotiated(version: Int64, session: String)
    }

    /// What the shell carries out (`ConnectionShell.execute`), in order.
    enum Action: Equatable {
        /// `hello` is queued: the negotiation deadline starts.
        case greeted
        /// Write the queued lines, as far as the channel takes them, and flush; then ask `flushed`.
        case flush
        /// `session.negotiate` succeeded: the handle learns the client's name, the negotiation deadline is off.
        case negotiated(client: String?, capabilities: Set<Capability>)
        /// Hand to the core; the reply comes back through `requestCompleted`.
        case dispatch(RPCRequest, Method)
        /// Reading may go on, if the shell held a read back (`shouldRead` says whether).
        case resumeReading
        /// The negotiation deadline passed: its `NotNegotiated` line is queued, the last.
        case notNegotiatedInTime(seconds: Int64)
        /// `agent.stopping` is queued, the last line.
        case saidGoodbye
        /// Close now: the client sent everything, and all of it is answered and written.
        case close
        /// Close once the bytes written so far are flushed (the last is the goodbye or the deadline's error).
        case closeAfterFlush
    }

    let limits: Limits
    /// `s-<connection id>`, returned by `session.negotiate`.
    let sessionID: String
    /// `rpc.discover`'s answer.
    let discoverDocument: RPCValue
    /// Where the connection is; read through the facts below (`session`, `isStopping`, `hasEnded`, …).
    private var state = State.serving(Session())
    /// Requests not handled yet, and the error replies of bad lines in between, so that every line is answered
    /// in the order it came.
    var pending = CircularBuffer<Result<RPCRequest, RPCRequestParser.Failure>>()
    var queue: OutboundQueue
    /// The seq the next event will carry; the first event of a connection is seq 1.
    var nextSeq: Int64 = 1
    /// Whether the socket took every byte the shell last wrote (NIO's writability, as `flushed` and
    /// `writabilityChanged` report it).
    var isSocketWritable = true

    init(limits: Limits, sessionID: String = "s-0", discoverDocument: RPCValue = [:]) {
        self.limits = limits
        self.sessionID = sessionID
        self.discoverDocument = discoverDocument
        self.queue = OutboundQueue(limits: limits.queue)
    }

    // MARK: The state's facts

    /// The open connection's facts (nil once closed); setting it keeps the phase.
    var session: Session? {
        get {
            switch state {
            case .serving(let s), .stopping(let s, _), .lastLineQueued(let s, _): s
            case .closed: nil
            }
        }
        set {
            guard let newValue else { return }
            switch state {
            case .serving: state = .serving(newValue)
            case .stopping(_, let unfinished): state = .stopping(newValue, unfinishedRecords: unfinished)
            case .lastLineQueued(_, let closes): state = .lastLineQueued(newValue, closesWhenFlushed: closes)
            case .closed: break
            }
        }
    }

    var isNegotiated: Bool {
        if case .negotiated? = session?.negotiation { return true }
        return false
    }

    var granted: Set<Capability> { session?.granted ?? [] }

    /// A request is with the core (or being answered) and the next must wait.
    var isBusy: Bool { session?.hasRequestInHand ?? false }

    /// The agent is stopping: nothing more is read, and requests not yet handled are answered `ShuttingDown`.
    var isStopping: Bool {
        switch state {
        case .stopping: true
        case .lastLineQueued, .serving, .closed: false
        }
    }

    /// The last line is queued (or the channel is gone): nothing more is read, handled, answered or sent.
    var hasEnded: Bool {
        switch state {
        case .serving, .stopping: false
        case .lastLineQueued, .closed: true
        }
    }

    /// The client has not taken the replies already made: its socket takes no more bytes, or `maximumUnsentBytes`
    /// or more wait in the queue (a large reply just queued). While serving, no further line is taken then (every
    /// line is answered, so taking it makes a reply): a client that pipelines `speech.get` (replies of ~0.85 MB)
    /// and never reads holds one reply, not `maxInFlight` of them, and what `pending` cannot hold is not read.
    var isBackedUp: Bool { !isSocketWritable || queue.byteCount >= limits.maximumUnsentBytes }

    /// Whether the handler should ask the channel for more bytes.
    var shouldRead: Bool {
        guard case .serving = state else { return false }
        return pending.count < limits.maximumInFlight
    }

    /// Nothing is waiting to be handled or written: a client that closed its sending side can be let go.
    var isIdle: Bool { pending.isEmpty && !isBusy && queue.isEmpty }

    /// The seq of the last event queued, 0 when none was; `session.sync` and `events.subscribe` report it.
    var lastSeq: Int64 { nextSeq - 1 }

    // MARK: The channel

    /// The channel is active: `hello`, once, however the handler learned it.
    mutating func greet(hello params: RPCValue) -> [Action] {
        guard var open = session, !open.hasGreeted else { return [] }
        open.hasGreeted = true
        session = open
        enqueueReply(RPCMessage.notification(.hello, params))
        return [.greeted, .flush]
    }

    /// The channel's writability changed: what is queued goes out once it takes bytes again (and the lines that
    /// waited for it are taken, `flushed`), and reading may resume (`shouldRead` and the channel's writability
    /// decide).
    mutating func writabilityChanged(isWritable: Bool) -> [Action] {
        isSocketWritable = isWritable
        return isWritable ? [.flush, .resumeReading] : [.resumeReading]
    }

    // MARK: Outbound

    /// An event for this client; dropped (no actions) until negotiated (no events before the handshake) and once
    /// the connection's last line is queued.
    mutating func eventReceived(_ event: AgentEvent) -> [Action] {
        // Events published while the agent stops come before the goodbye, never after it.
        guard isNegotiated, !hasEnded else { return [] }
        if queue.coalesce(event) { return [.flush] }
        switch queue.appendEvent(event, seq: nextSeq) {
        case .appended, .overflowed(consumedSeq: true): nextSeq += 1
        case .coalesced, .overflowed(consumedSeq: false): break
        }
        return [.flush]
    }

    /// Queues `agent.stopping`: for every client, negotiated or not, subscribed or not, and never dropped, since
    /// it is the last message of the connection.
    mutating func enqueueStoppingNotice(_ event: AgentEvent) {
        queue.appendReply(OutboundQueue.render(seq: nextSeq, event))
        nextSeq += 1
    }

    mutating func enqueueReply(_ message: RPCValue) {
        queue.appendReply(message.jsonLine)
    }

    /// The next line to write (`ConnectionShell.execute` writes them for `.flush`).
    mutating func popOutbound() -> ByteBuffer? {
        queue.popFirst()
    }

    // MARK: Lines in, replies out: one request at a time, in the order the lines came

    /// What to do with the next queued request (one step of `takeRequests`).
    enum RequestAction: Equatable {
        /// Answer a line that was not a valid request.
        case fail(RPCRequestParser.Failure)
        /// Answer at once (protocol errors, gating).
        case reject(id: RPCID, RPCErrorObject)
        /// Handle on the event loop without the core (`session.negotiate`, `session.sync`, `rpc.discover`).
        case handleLocally(RPCRequest, Method)
        /// Hand to the core; the reply comes back through `requestCompleted`.
        case dispatch(RPCRequest, Method)
    }

    /// A decoded frame: queued, and answered in order with those before it.
    ///
    /// - Parameter eventsInFlight: Whether an event published to this connection may still be on its way to it
    ///   (`ConnectionHandle.hasEventsInFlight`, read after the frame was received). When none is, `session.sync`
    ///   is answered here.
    mutating func frameReceived(
        _ frame: JSONLineFrameDecoder.Frame, maximumLineBytes: Int, eventsInFlight: Bool = true
    ) -> [Action] {
        enqueueFrame(frame, maximumLineBytes: maximumLineBytes)
        return takeRequests(eventsInFlight: eventsInFlight) + [.flush]
    }

    /// Queues a frame without taking it (a step of `frameReceived`, which tests take one at a time).
    mutating func enqueueFrame(_ frame: JSONLineFrameDecoder.Frame, maximumLineBytes: Int) {
        switch frame {
        case .lineTooLong:
            pending.append(.failure(.init(id: nil, error: RPCErrorObject(
                code: RPCErrorCode.invalidRequest, type: .lineTooLong,
                message: "the line is longer than \(maximumLineBytes) bytes; it was discarded up to its end",
                details: ["maximum": .integer(Int64(maximumLineBytes))]))))
        case .line(let bytes):
            pending.append(RPCRequestParser.parse(bytes))
        }
    }

    /// The core answered the request in hand: its reply is queued (after every event it sent first), the next
    /// requests go, and a stopping agent's goodbye follows if it waited for this reply. `eventsInFlight` as for
    /// `frameReceived`.
    mutating func requestCompleted(_ id: RPCID, _ outcome: DispatchOutcome, eventsInFlight: Bool = true) -> [Action] {
        // The goodbye went first (the shutdown bound ran out with this record unfinished, and it said so): it stays
        // the last line, and the client learns the record's fate from `flow.get` or `records.get` after the restart.
        if !hasEnded {
            switch outcome {
            case .result(let result):
                enqueueReply(RPCMessage.result(id: id, result))
            case .error(let error):
                enqueueReply(RPCMessage.error(id: id, error))
            case .subscribed(let snapshot):
                enqueueReply(RPCMessage.result(id: id, ["seq": .integer(lastSeq), "snapshot": snapshot]))
            case .synced:
                enqueueReply(RPCMessage.result(id: id, ["seq": .integer(lastSeq)]))
            }
        }
        requestFinished()
        return takeRequests(eventsInFlight: eventsInFlight) + [.flush] + goodbyeIfIdle()
    }

    /// Takes every queued request it can: bad lines, refusals and the local methods are answered here, in order;
    /// a request for the core ends the run (the next waits for its reply). Reading may resume unless one went out.
    mutating func takeRequests(eventsInFlight: Bool) -> [Action] {
        var actions: [Action] = []
        while let step = nextRequest(eventsInFlight: eventsInFlight) {
            switch step {
            case .fail(let failure):
                enqueueReply(RPCMessage.error(id: failure.id, failure.error))
            case .reject(let id, let error):
                enqueueReply(RPCMessage.error(id: id, error))
            case .handleLocally(let request, let method):
                let outcome = handleLocally(request, method)
                switch outcome {
                case .success(let result): enqueueReply(RPCMessage.result(id: request.id, result))
                case .failure(let error): enqueueReply(RPCMessage.error(id: request.id, error))
                }
                requestFinished()
                if case .success = outcome, method == .sessionNegotiate {
                    var client: String?
                    if case .string(let name)? = request.params["client"] { client = name }
                    actions.append(.negotiated(client: client, capabilities: granted))
                }
            case .dispatch(let request, let method):
                actions.append(.dispatch(request, method))
                return actions
            }
        }
        actions.append(.resumeReading)
        return actions
    }

    /// The next request to act on, when no other is being handled, the connection has not ended, and, while it
    /// serves, the client has taken the replies before (`isBackedUp`; a stopping agent answers every line left,
    /// with a short `ShuttingDown`). `eventsInFlight` as for `frameReceived`.
    mutating func nextRequest(eventsInFlight: Bool = true) -> RequestAction? {
        guard !isBusy, !hasEnded, !(isServing && isBackedUp), let next = pending.popFirst() else { return nil }
        let request: RPCRequest
        switch next {
        case .success(let r): request = r
        case .failure(let failure): return .fail(failure)
        }
        if isStopping {
            return .reject(id: request.id, RPCErrorObject(
                code: RPCErrorCode.domainError, type: .shuttingDown,
                message: "the agent is stopping; reconnect once it is back"))
        }
        guard let method = Method(rawValue: request.method) else {
            return .reject(id: request.id, RPCErrorObject(
                code: RPCErrorCode.methodNotFound, type: .methodNotFound,
                message: "unknown method; rpc.discover lists them"))
        }
        if !isNegotiated && !method.isAllowedBeforeNegotiation {
            return .reject(id: request.id, RPCErrorObject(
                code: RPCErrorCode.invalidRequest, type: .notNegotiated,
                message: "call session.negotiate first; until then only session.negotiate and rpc.discover are served"))
        }
        if isNegotiated, let missing = Capability.required(by: method, params: request.params).first(where: { !granted.contains($0) }) {
            return .reject(id: request.id, .domain(
                .capabilityNotGranted,
                "\(method.rawValue) needs the capability \"\(missing.rawValue)\", which this connection did not negotiate",
                details: ["capability": .string(missing.rawValue)]))
        }
        session?.hasRequestInHand = true
        switch method {
        case .sessionNegotiate, .rpcDiscover: return .handleLocally(request, method)
        // session.sync is a barrier: its reply follows every event published to this client before the request
        // was read. With no event on its way to this loop, every such event is queued already, so it is answered
        // here. Otherwise it goes through the core, although it needs nothing there: the core's actor sends every
        // reply onto this loop after the events it published first, so the answer comes back behind them (a read
        // processed before those events' hop, on a loop woken late, would miss them if answered here).
        case .sessionSync where !eventsInFlight: return .handleLocally(request, method)
        default: return .dispatch(request, method)
        }
    }

    /// The shell wrote what the socket took (`ConnectionShell.execute`): the connection learns whether the socket
    /// takes more, takes the lines that waited for the client to read its replies (`isBackedUp`), and otherwise
    /// decides whether to close (`closeIfDone`). `eventsInFlight` as for `frameReceived`.
    mutating func flushed(isWritable: Bool, eventsInFlight: Bool = true) -> [Action] {
        isSocketWritable = isWritable
        guard isServing, !isBusy, !pending.isEmpty, !isBackedUp else { return closeIfDone() }
        // Their replies are written by this flush, which asks again.
        return takeRequests(eventsInFlight: eventsInFlight) + [.flush]
    }

    private var isServing: Bool {
        if case .serving = state { return true }
        return false
    }

    /// The request in hand was answered; the next may go.
    mutating func requestFinished() {
        session?.hasRequestInHand = false
    }

    /// `session.negotiate`, `rpc.discover`, and `session.sync` when no event is on its way.
    private mutating func handleLocally(_ request: RPCRequest, _ method: Method) -> Result<RPCValue, RPCErrorObject> {
        switch method {
        case .sessionNegotiate:
            return negotiate(request.params, sessionID: sessionID)
        case .rpcDiscover:
            if let unknown = request.params.keys.sorted().first { return .failure(.unknownParameter(unknown)) }
            return .success(discoverDocument)
        case .sessionSync:
            if let unknown = request.params.keys.sorted().first { return .failure(.unknownParameter(unknown)) }
            return .success(["seq": .integer(lastSeq)])
        default:
            return .failure(RPCErrorObject(
                code: RPCErrorCode.internalError, type: .internalError, message: "the method is not handled locally"))
        }
    }

    /// `session.negotiate {client, version, capabilities?}`: picks the version or refuses.
    mutating func negotiate(_ params: [String: RPCValue], sessionID: String) -> Result<RPCValue, RPCErrorObject> {
        do throws(RPCErrorObject) {
            let reader = try ParamsReader(params, allowed: Capability.negotiationParams)
            // The client's name goes into every record of a signature it drew (`UIDrawnStrokes.provenance`).
            let client = try reader.string("client")
            guard !client.isEmpty, (try? EnteredText.checkVisible(client, maximumCharacters: 200)) != nil else {
                throw .invalidParams(field: "client", "client must be 1 to 200 characters without control characters")
            }
            let version = try reader.integer("version")
            let wanted = try Capability.requested(by: reader)
            guard !isNegotiated else {
                throw .domain(.alreadyNegotiated, "this connection is already negotiated")
            }
            guard ProtocolInfo.versions.contains(version) else {
                throw .domain(
                    .unsupportedVersion, "this protocol version is not supported; data.supported lists the versions",
                    details: ["supported": .array(ProtocolInfo.versions.map(RPCValue.integer))])
            }
            // No list: everything (older clients); a list: what it names that this agent has, unknown names ignored.
            let granted = Capability.allCases.filter { wanted?.contains($0.rawValue) ?? true }
            session?.negotiation = .negotiated(version: version, session: sessionID)
            session?.granted = Set(granted)
            return .success([
                "version": .integer(version), "session": .string(sessionID),
                "capabilities": .array(granted.map { .string($0.rawValue) }),
            ])
        } catch {
            return .failure(error)
        }
    }

    // MARK: How a connection ends, and where it decides to close (`closeIfDone`): the negotiation deadline, the
    // goodbye of a stopping agent, a client that sent everything, the channel going away

    /// The negotiation deadline passed: unless the client negotiated (or the connection ends anyway), one
    /// `NotNegotiated` line with `id` null, the last, then the close once it is written.
    mutating func negotiationTimedOut(seconds: Int64) -> [Action] {
        guard case .serving(let open) = state, !isNegotiated else { return [] }
        enqueueReply(RPCMessage.error(id: nil, RPCErrorObject(
            code: RPCErrorCode.invalidRequest, type: .notNegotiated,
            message: "no session.negotiate within \(seconds) s of hello; the connection is closed")))
        state = .lastLineQueued(open, closesWhenFlushed: true)
        return [.notNegotiatedInTime(seconds: seconds), .flush]
    }

    /// The agent stops: requests not yet handled get `ShuttingDown`, and `agent.stopping` follows the reply of the
    /// request with the core. Nothing when a stop is already under way or the connection ended.
    mutating func stopRequested(unfinishedRecords: Int, eventsInFlight: Bool = true) -> [Action] {
        guard case .serving(let open) = state else { return [] }
        state = .stopping(open, unfinishedRecords: unfinishedRecords)
        return takeRequests(eventsInFlight: eventsInFlight) + goodbyeIfIdle()
    }

    /// Queues `agent.stopping` after everything else once no request is with the core (its reply, e.g. a
    /// `flow.complete`'s, comes first); when the shutdown bound left records unfinished their replies will not
    /// come, so it does not wait.
    mutating func goodbyeIfIdle() -> [Action] {
        guard case .stopping(let open, let unfinished) = state, !open.hasRequestInHand || unfinished > 0 else { return [] }
        enqueueStoppingNotice(AgentEvent(.agentStopping, data: ["unfinishedRecords": .integer(Int64(unfinished))]))
        state = .lastLineQueued(open, closesWhenFlushed: true)
        return [.saidGoodbye, .flush]
    }

    /// The client closed its sending side (socat at the end of its script): answer it all, then close.
    mutating func inputClosed() -> [Action] {
        session?.isInputClosed = true
        return [.flush]
    }

    /// The shell wrote what it could of the queue: here the connection decides whether to close. Each close is
    /// returned once.
    mutating func closeIfDone() -> [Action] {
        guard var open = session else { return [] }
        if open.isInputClosed && isIdle {
            open.isInputClosed = false
            session = open
            return [.close]
        }
        if case .lastLineQueued(let open, closesWhenFlushed: true) = state, queue.isEmpty {
            state = .lastLineQueued(open, closesWhenFlushed: false)
            return [.closeAfterFlush]
        }
        return []
    }

    /// The channel went away: nothing more is read, handled or sent.
    mutating func connectionClosed() {
        state = .closed
        pending.removeAll()
    }
}
