import AgentProtocol
import NIOCore

/// The logic of one client connection, as a value type that returns actions (NIO's upgrader
/// state machines); `RPCConnectionHandler` only carries them out.
///
/// It owns: the greeting, negotiation gating (before `session.negotiate` only the handshake and `rpc.discover` are
/// served, and no events are sent), the local methods, the strict request order (one request is handled at a time,
/// so replies come in request order), the shape of every reply, the in-flight cap that pauses reading, the
/// per-connection event `seq`, the bounded outbound queue, and when the connection ends (the negotiation deadline,
/// the goodbye of a stopping agent, a client that sent everything). The fuzz harness (`FuzzProtocol`) drives this
/// same type.
struct ConnectionStateMachine {
    struct Limits: Sendable, Hashable {
        var maximumInFlight: Int
        var queue: OutboundQueue.Limits
    }

    enum Negotiation: Equatable {
        case awaiting
        case negotiated(version: Int64, session: String)
        case closed
    }

    /// What to do with the next queued request.
    enum RequestAction: Equatable {
        /// Answer a line that was not a valid request.
        case fail(RPCRequestParser.Failure)
        /// Answer at once (protocol errors, gating).
        case reject(id: RPCID, RPCErrorObject)
        /// Handle on the event loop without the core (`session.negotiate`, `session.sync`, `rpc.discover`).
        case handleLocally(RPCRequest, Method)
        /// Hand to the core; the reply comes back through `requestFinished`.
        case dispatch(RPCRequest, Method)
    }

    /// What the handler must carry out after `nextAction`: everything else the machine did itself.
    enum Action: Equatable {
        /// Hand to the core; the reply comes back through `requestCompleted`.
        case dispatch(RPCRequest, Method)
        /// `session.negotiate` succeeded: the handle learns the client's name, the negotiation deadline is off.
        case negotiated(client: String?, capabilities: Set<Capability>)
    }

    /// How the connection ends, once `closeAction` says so.
    enum CloseAction: Equatable {
        /// The client sent everything and all of it is answered and written.
        case close
        /// Close once the queued bytes (the last is a goodbye or the deadline's error) are written.
        case closeAfterFlush
    }

    let limits: Limits
    /// `s-<connection id>`, returned by `session.negotiate`.
    let sessionID: String
    /// `rpc.discover`'s answer.
    let discoverDocument: RPCValue
    private(set) var negotiation: Negotiation = .awaiting
    /// Requests not handled yet, and the error replies of bad lines in between, so that every line is answered
    /// in the order it came.
    private var pending = CircularBuffer<Result<RPCRequest, RPCRequestParser.Failure>>()
    /// A request is with the core (or being answered) and the next must wait.
    private(set) var isBusy = false
    private(set) var queue: OutboundQueue
    /// What `session.negotiate` granted; a request needing anything else is `CapabilityNotGranted`.
    private(set) var granted: Set<Capability> = []
    /// The seq the next event will carry; the first event of a connection is seq 1.
    private(set) var nextSeq: Int64 = 1
    /// The agent is stopping: nothing more is read, and requests not yet handled are answered `ShuttingDown`.
    private(set) var isStopping = false
    private var hasGreeted = false
    /// The goodbye waits for the request with the core: `unfinishedRecords` of the stop.
    private var pendingGoodbye: Int?
    /// The goodbye (or the deadline's error) is queued: close once everything queued is written.
    private var closesWhenFlushed = false
    /// The goodbye (or the deadline's error) is queued and is the connection's last line: nothing is read, handled,
    /// answered or sent after it. A client may stop reading at `agent.stopping`, as Protocol/README.md tells it.
    private var lastLineQueued = false
    /// The client closed its sending side: close once everything is answered and written.
    private var isInputClosed = false

    init(limits: Limits, sessionID: String = "s-0", discoverDocument: RPCValue = [:]) {
        self.limits = limits
        self.sessionID = sessionID
        self.discoverDocument = discoverDocument
        self.queue = OutboundQueue(limits: limits.queue)
    }

    // MARK: The connection's life

    /// Queues `hello` (once, however the handler learned the channel is active); true when it did.
    mutating func greet(hello params: RPCValue) -> Bool {
        guard !hasGreeted else { return false }
        hasGreeted = true
        enqueueReply(RPCMessage.notification(.hello, params))
        return true
    }

    /// The negotiation deadline passed: unless the client negotiated (or the connection ends anyway), one
    /// `NotNegotiated` line with `id` null, then the close once it is written. True when it queued the line.
    mutating func negotiationTimedOut(seconds: Int64) -> Bool {
        guard !isNegotiated, !closesWhenFlushed, pendingGoodbye == nil else { return false }
        enqueueReply(RPCMessage.error(id: nil, RPCErrorObject(
            code: RPCErrorCode.invalidRequest, type: .notNegotiated,
            message: "no session.negotiate within \(seconds) s of hello; the connection is closed")))
        closesWhenFlushed = true
        lastLineQueued = true
        return true
    }

    /// The agent stops: requests not yet handled get `ShuttingDown`, and `agent.stopping` follows the reply of the
    /// request with the core (`goodbyeIfIdle`). False when a stop is already under way.
    mutating func stopRequested(unfinishedRecords: Int) -> Bool {
        guard pendingGoodbye == nil, !closesWhenFlushed else { return false }
        pendingGoodbye = unfinishedRecords
        beginStopping()
        return true
    }

    /// Queues `agent.stopping` after everything else once no request is with the core (its reply, e.g. a
    /// `flow.complete`'s, comes first); when the shutdown bound left records unfinished their replies will not
    /// come, so it does not wait. True when it queued the goodbye.
    mutating func goodbyeIfIdle() -> Bool {
        guard let unfinished = pendingGoodbye, !isBusy || unfinished > 0 else { return false }
        pendingGoodbye = nil
        enqueueStoppingNotice(AgentEvent(.agentStopping, data: ["unfinishedRecords": .integer(Int64(unfinished))]))
        closesWhenFlushed = true
        lastLineQueued = true
        return true
    }

    /// The client closed its sending side (socat at the end of its script): answer it all, then close.
    mutating func inputClosed() {
        isInputClosed = true
    }

    /// Whether to close now; each close is returned once.
    mutating func closeAction() -> CloseAction? {
        if isInputClosed && isIdle {
            isInputClosed = false
            return .close
        }
        if closesWhenFlushed && queue.isEmpty {
            closesWhenFlushed = false
            return .closeAfterFlush
        }
        return nil
    }

    var isNegotiated: Bool {
        if case .negotiated = negotiation { return true }
        return false
    }

    /// Whether the handler should ask the channel for more bytes.
    var shouldRead: Bool {
        pending.count < limits.maximumInFlight && negotiation != .closed && !isStopping && !lastLineQueued
    }

    /// The seq of the last event queued, 0 when none was; `session.sync` and `events.subscribe` report it.
    var lastSeq: Int64 { nextSeq - 1 }

    // MARK: Inbound

    /// A decoded frame: queued, to be answered in order by `nextRequest`.
    mutating func frameReceived(_ frame: JSONLineFrameDecoder.Frame, maximumLineBytes: Int) {
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

    /// Nothing is waiting to be handled or written: a client that closed its sending side can be let go.
    var isIdle: Bool { pending.isEmpty && !isBusy && queue.isEmpty }

    /// The next request to act on, when no other is being handled.
    ///
    /// - Parameter eventsInFlight: Whether an event published to this connection may still be on its way to it
    ///   (`ConnectionHandle.hasEventsInFlight`, read after the queued requests were received). When none is,
    ///   `session.sync` is answered here.
    mutating func nextRequest(eventsInFlight: Bool = true) -> RequestAction? {
        guard !isBusy, negotiation != .closed, !lastLineQueued, let next = pending.popFirst() else { return nil }
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
        isBusy = true
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

    /// The request in hand was answered; the next may go.
    mutating func requestFinished() {
        isBusy = false
    }

    /// Takes every queued request it can: bad lines, refusals and the local methods are answered here, in order;
    /// what needs the outside world is returned. Nil when nothing more can go now (none queued, or one is with the
    /// core). `eventsInFlight` as for `nextRequest`.
    mutating func nextAction(eventsInFlight: Bool = true) -> Action? {
        while let step = nextRequest(eventsInFlight: eventsInFlight) {
            switch step {
            case .fail(let failure):
                enqueueReply(RPCMessage.error(id: failure.id, failure.error))
            case .reject(let id, let error):
                enqueueReply(RPCMessage.error(id: id, error))
            case .handleLocally(let request, let method):
                let outcome = handleLocally(request, method)
                enqueueReply(reply(to: request.id, outcome))
                requestFinished()
                if case .success = outcome, method == .sessionNegotiate {
                    if case .string(let client)? = request.params["client"] {
                        return .negotiated(client: client, capabilities: granted)
                    }
                    return .negotiated(client: nil, capabilities: granted)
                }
            case .dispatch(let request, let method):
                return .dispatch(request, method)
            }
        }
        return nil
    }

    /// The core answered the request in hand: its reply is queued (after every event it sent first) and the next
    /// request may go.
    mutating func requestCompleted(_ id: RPCID, _ outcome: DispatchOutcome) {
        // The goodbye went first (the shutdown bound ran out with this record unfinished, and it said so): it stays
        // the last line, and the client learns the record's fate from `flow.get` or `records.get` after the restart.
        guard !lastLineQueued else {
            requestFinished()
            return
        }
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
        requestFinished()
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

    private func reply(to id: RPCID, _ outcome: Result<RPCValue, RPCErrorObject>) -> RPCValue {
        switch outcome {
        case .success(let result): RPCMessage.result(id: id, result)
        case .failure(let error): RPCMessage.error(id: id, error)
        }
    }

    /// `session.negotiate {client, version, capabilities?}`: picks the version or refuses.
    mutating func negotiate(_ params: [String: RPCValue], sessionID: String) -> Result<RPCValue, RPCErrorObject> {
        do throws(RPCErrorObject) {
            let reader = try ParamsReader(params, allowed: ["client", "version", "capabilities"])
            _ = try reader.string("client")
            let version = try reader.integer("version")
            var wanted: [String]? = nil
            if reader.optionalValue("capabilities") != nil { wanted = try reader.stringArray("capabilities") }
            guard !isNegotiated else {
                throw .domain(.alreadyNegotiated, "this connection is already negotiated")
            }
            guard ProtocolInfo.versions.contains(version) else {
                throw .domain(
                    .unsupportedVersion, "this protocol version is not supported; data.supported lists the versions",
                    details: ["supported": .array(ProtocolInfo.versions.map(RPCValue.integer))])
            }
            negotiation = .negotiated(version: version, session: sessionID)
            // No list: everything (older clients); a list: what it names that this agent has, unknown names ignored.
            let granted = Capability.allCases.filter { wanted?.contains($0.rawValue) ?? true }
            self.granted = Set(granted)
            return .success([
                "version": .integer(version), "session": .string(sessionID),
                "capabilities": .array(granted.map { .string($0.rawValue) }),
            ])
        } catch {
            return .failure(error)
        }
    }

    /// The agent stops: the request with the core (if any) is still answered, the others get `ShuttingDown`.
    mutating func beginStopping() {
        isStopping = true
    }

    /// Queues `agent.stopping`: for every client, negotiated or not, subscribed or not, and never dropped, since
    /// it is the last message of the connection.
    mutating func enqueueStoppingNotice(_ event: AgentEvent) {
        queue.appendReply(OutboundQueue.render(seq: nextSeq, event))
        nextSeq += 1
    }

    mutating func connectionClosed() {
        negotiation = .closed
        pending.removeAll()
    }

    // MARK: Outbound

    /// An event for this client; false (dropped) until negotiated (no events before the handshake) and once the
    /// connection's last line is queued.
    mutating func eventReceived(_ event: AgentEvent) -> Bool {
        // Events published while the agent stops come before the goodbye, never after it.
        guard isNegotiated, !lastLineQueued else { return false }
        if queue.coalesce(event) { return true }
        switch queue.appendEvent(event, seq: nextSeq) {
        case .appended, .overflowed(consumedSeq: true): nextSeq += 1
        case .coalesced, .overflowed(consumedSeq: false): break
        }
        return true
    }

    mutating func enqueueReply(_ message: RPCValue) {
        queue.appendReply(message.jsonLine)
    }

    mutating func popOutbound() -> ByteBuffer? {
        queue.popFirst()
    }
}
