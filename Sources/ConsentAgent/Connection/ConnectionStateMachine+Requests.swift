import AgentProtocol
import EnteredText
import NIOCore

/// Lines in, replies out: one request at a time, in the order the lines came.
extension ConnectionStateMachine {
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
}
