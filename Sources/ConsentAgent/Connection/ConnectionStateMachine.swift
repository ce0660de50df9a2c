import AgentProtocol
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
/// the goodbye of a stopping agent, a client that sent everything): ConnectionStateMachine+Closing.swift.
///
/// The inputs are here (the greeting, events), in ConnectionStateMachine+Requests.swift (lines and replies) and in
/// ConnectionStateMachine+Closing.swift (the deadline, the stop, the client's end, the channel's).
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
    // Set only by this type's files (ConnectionStateMachine+*.swift): `internal` for them, not for the shell.
    var state = State.serving(Session())
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
}
