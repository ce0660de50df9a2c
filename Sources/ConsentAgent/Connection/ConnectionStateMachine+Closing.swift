import AgentProtocol

/// How a connection ends, and where it decides to close (`closeIfDone`): the negotiation deadline, the goodbye of a
/// stopping agent, a client that sent everything, the channel going away.
extension ConnectionStateMachine {
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
