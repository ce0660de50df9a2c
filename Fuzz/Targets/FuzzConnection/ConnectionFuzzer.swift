// The harness is compiled in debug builds only: `ConnectionStateMachine` is internal to ConsentAgent and reached
// with `@testable import`, which needs `-enable-testing` (SwiftPM passes it, and defines DEBUG, in the debug
// configuration). A release build of the package gets the stub of Entry.swift.
#if DEBUG
import AgentProtocol
import ConsentCore
import FuzzSupport
import NIOCore

@testable import ConsentAgent

/// Drives one `ConnectionStateMachine` alone, with no socket, event loop or core, through a byte-coded sequence of
/// what happens to a connection: the client writes lines, the kernel hands them over (when the handler reads), the
/// core answers the request in hand, the hub publishes events, the client stops and resumes reading (the channel's
/// writability), closes its sending side, the agent stops, the negotiation deadline passes, the peer goes away.
///
/// `FuzzedConnection` below gives the machine the input `RPCConnectionHandler` gives it for each of those, and carries
/// out the actions with the handler's own executor (`ConnectionShell.execute`): so what is fuzzed is the machine and
/// the executor, under every interleaving the handler can produce. Every line it writes is checked as a client would read it.
///
/// Input layout: operations of one byte (modulo `Op.allCases.count`) and their argument bytes (`Op` says which);
/// an argument past the end reads as 0. At the end of the input, unless the connection closed, the client reads
/// everything and the core answers everything (`FuzzedConnection.drain`), and then every line must have been answered.
///
/// Checks beyond crashes, on the bytes written:
/// - every written line is one JSON-RPC 2.0 message ending in its only newline: a response (an id, exactly one of
///   `result` and `error`, an error with a code, a message and a documented `data.type`) or a notification (a
///   known method with `params`); `hello` first and once;
/// - every line the client sent is answered exactly once, in the order sent (the ids of the harness's own lines);
/// - no event before the connection is negotiated, and none after `agent.stopping`, which is the last line; after
///   the deadline's `NotNegotiated` line nothing more is written;
/// - event `seq`s rise by one, skipping only where an `events.overflow` says events were dropped;
///   `session.sync`'s and `events.subscribe`'s `seq` is a barrier (no event at or below it follows its reply);
/// - ink is never reordered or duplicated (a lagging client's queue merges batches), and when nothing overflowed
///   every point the machine accepted is written;
/// - a request reaches the core only after negotiation, with the capabilities it needs granted, and one at a time;
/// - the connection closes only when it says everything was answered and written.
struct ConnectionFuzzer {
    enum Op: UInt8, CaseIterable {
        /// arg: which of `Self.lines`. The client writes one of the harness's lines.
        case send
        /// arg: a length n < 64 (bits 0-5) and whether a newline follows (bit 6), then n bytes: the client writes
        /// them, through the line decoder, so a line may span pieces.
        case sendRaw
        /// The client writes a line longer than the limit (the decoder's `lineTooLong`).
        case sendTooLong
        /// The kernel has the client's bytes: the handler reads them, if it reads now.
        case deliver
        /// arg: the outcome. The core answers the request in hand.
        case answer
        /// arg: which event. The hub publishes an event to the connection.
        case publish
        /// The client stops reading (the channel turns unwritable) or starts again.
        case toggleWritable
        /// The client closes its sending side.
        case closeInput
        /// arg: records still being written, 0...2. The agent stops.
        case stop
        /// The negotiation timer fires.
        case deadline
        /// The handler is told again that the channel is active (`handlerAdded` and `channelActive` both greet).
        case activeAgain
        /// The peer goes away: the rest of the input is not read.
        case disconnect
    }

    /// Small bounds, so that short inputs reach them: a long reply (`answer`) holds the next line back.
    static let limits = ConnectionStateMachine.Limits(
        maximumInFlight: 4, queue: .init(maximumMessages: 6, maximumBytes: 1024), maximumUnsentBytes: 256)
    static let maximumLineBytes = 512
    static let hello: RPCValue = ["protocol": "consent-kiosk-agent", "versions": [1]]

    /// How a reply names the line it answers.
    enum ReplyID {
        /// The line's id, an integer.
        case integer
        /// The line's id, as the string `s-<id>`.
        case string
        /// `null`: the line has no id the agent could read.
        case null
    }

    /// The harness's own lines, each cut at its `#`, where the line's id goes (no tail: no id), so replies can be
    /// matched to them.
    static let lines: [(head: [UInt8], tail: [UInt8]?, reply: ReplyID)] = templates.map { text, reply in
        let parts = text.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false)
        return (Array(parts[0].utf8), parts.count > 1 ? Array(parts[1].utf8) : nil, reply)
    }

    private static let templates: [(String, ReplyID)] = [
        (#"{"jsonrpc":"2.0","id":#,"method":"session.negotiate","params":{"client":"fuzz-ui/1","version":1}}"#, .integer),
        (#"{"jsonrpc":"2.0","id":#,"method":"session.negotiate","params":{"client":"fuzz-ui/1","version":1,"capabilities":["events"]}}"#, .integer),
        (#"{"jsonrpc":"2.0","id":#,"method":"session.negotiate","params":{"client":"fuzz-ui/1","version":99}}"#, .integer),
        (#"{"jsonrpc":"2.0","id":#,"method":"rpc.discover"}"#, .integer),
        (#"{"jsonrpc":"2.0","id":#,"method":"session.sync"}"#, .integer),
        (#"{"jsonrpc":"2.0","id":#,"method":"events.subscribe","params":{"topics":["flow","ink","pad"]}}"#, .integer),
        (#"{"jsonrpc":"2.0","id":#,"method":"events.subscribe","params":{"topics":["flow"]}}"#, .integer),
        (#"{"jsonrpc":"2.0","id":#,"method":"flow.get","params":{"flow":"f-1"}}"#, .integer),
        (#"{"jsonrpc":"2.0","id":#,"method":"records.get"}"#, .integer),
        (#"{"jsonrpc":"2.0","id":#,"method":"signature.submit","params":{"flow":"f-1","strokes":[]}}"#, .integer),
        (#"{"jsonrpc":"2.0","id":#,"method":"no.such.method"}"#, .integer),
        (#"{"jsonrpc":"2.0","id":"s-#","method":"pads.list"}"#, .string),
        (#"{"jsonrpc":"2.0","id":#,"method":"flow.get","params":[]}"#, .integer),
        (#"{"jsonrpc":"2.0","id":#,"#, .null),
        (#"{"jsonrpc":"2.0","method":"session.sync"}"#, .null),
        (#"[{"jsonrpc":"2.0","id":#,"method":"session.sync"}]"#, .null),
    ]

    func run(_ input: [UInt8]) {
        var reader = FuzzByteReader(bytes: input)
        let connection = FuzzedConnection()
        connection.active()
        while !connection.isClosed, let byte = reader.byte() {
            guard let op = Op(rawValue: byte % UInt8(Op.allCases.count)) else { preconditionFailure("op out of range") }
            switch op {
            case .send: connection.clientWrites(line: Int(reader.arg()))
            case .sendRaw:
                let arg = reader.arg()
                connection.clientWrites(raw: reader.bytes(upTo: Int(arg & 0x3f)), endsLine: arg & 0x40 != 0)
            case .sendTooLong: connection.clientWritesTooLong()
            case .deliver: connection.deliver()
            case .answer: connection.answer(reader.arg())
            case .publish: connection.publish(reader.arg())
            case .toggleWritable: connection.setWritable(!connection.isWritable)
            case .closeInput: connection.inputClosed()
            case .stop: connection.stop(unfinishedRecords: Int(reader.arg() % 3))
            case .deadline: connection.deadlinePassed()
            case .activeAgain: connection.activeAgain()
            case .disconnect: connection.disconnect()
            }
        }
        if !connection.isClosed { connection.drain() }
    }
}

/// One connection as `RPCConnectionHandler` runs it (the same inputs, the same executor), with the client, the
/// kernel and the core played by the harness, and the client's checks of everything written.
final class FuzzedConnection: ConnectionShell {
    /// What the client expects of the reply to a line it sent.
    enum Expected {
        /// The harness's own line: the reply carries this id (nil: `id` null, a line with no usable id).
        case id(RPCID?)
        /// Raw bytes: any id.
        case any
    }

    var machine = ConnectionStateMachine(
        limits: ConnectionFuzzer.limits, sessionID: "s-1", discoverDocument: ["methods": []])
    private(set) var isWritable = true
    /// The hub's events reach this machine at once (`publish`): none is ever on its way (`deliver`).
    let eventsInFlight = false
    private(set) var isClosed = false
    /// Lines the client wrote that the handler has not read.
    private var socket: [JSONLineFrameDecoder.Frame] = []
    private var expectedInSocket: [Expected] = []
    /// Lines read and not answered yet, oldest first.
    private var awaited: [Expected] = []
    private var nextID: Int64 = 1
    private let decoder = NIOSingleStepByteToMessageProcessor(
        JSONLineFrameDecoder(maximumLineBytes: ConnectionFuzzer.maximumLineBytes), maximumBufferSize: nil)
    /// The request with the core: its id and method.
    private var inHand: (id: RPCID, method: Method)?
    private var deadlineArmed = false
    /// The goodbye or the deadline's error is queued: the connection's last line.
    private var lastLineQueued = false

    // What the client has seen.
    private var linesWritten = 0
    private var negotiatedReplyWritten = false
    private var lastEventSeq: Int64 = 0
    private var barrierSeq: Int64 = 0
    private var overflowWritten = false
    private var finalLineWritten: String?
    // Ink: every point is a distinct x, 1, 2, 3, …
    private var nextInkX = 1
    private var inkAccepted = 0
    private var inkWritten = 0
    private var lastInkXWritten = 0

    // MARK: The client

    func clientWrites(line index: Int) {
        let line = ConnectionFuzzer.lines[index % ConnectionFuzzer.lines.count]
        let id = nextID
        nextID += 1
        var bytes = ByteBuffer(bytes: line.head)
        if let tail = line.tail {
            bytes.writeString(String(id))
            bytes.writeBytes(tail)
        }
        socket.append(.line(bytes))
        switch line.reply {
        case .integer: expectedInSocket.append(.id(.integer(id)))
        case .string: expectedInSocket.append(.id(.string("s-\(id)")))
        case .null: expectedInSocket.append(.id(nil))
        }
    }

    func clientWrites(raw bytes: ArraySlice<UInt8>, endsLine: Bool) {
        var buffer = ByteBuffer(bytes: bytes)
        if endsLine { buffer.writeInteger(UInt8(ascii: "\n")) }
        do {
            try decoder.process(buffer: buffer) { frame in
                socket.append(frame)
                expectedInSocket.append(.any)
            }
        } catch {
            preconditionFailure("the line decoder threw \(error)")
        }
    }

    func clientWritesTooLong() {
        socket.append(.lineTooLong)
        expectedInSocket.append(.id(nil))
    }

    // MARK: RPCConnectionHandler's inputs, carried out by the executor it runs (`ConnectionShell.execute`)

    /// `channelActive`.
    func active() {
        let actions = machine.greet(hello: ConnectionFuzzer.hello)
        precondition(actions.contains(.greeted), "no hello on a new connection")
        execute(actions)
    }

    func activeAgain() {
        precondition(machine.greet(hello: ConnectionFuzzer.hello).isEmpty, "a second hello")
    }

    /// `read` and `channelRead`: NIO reads only when the handler asks, and the handler asks only when the machine
    /// says so and the client reads its replies; then one read hands over every line waiting.
    func deliver() {
        guard machine.shouldRead, isWritable, !socket.isEmpty else { return }
        let frames = socket
        awaited += expectedInSocket
        socket.removeAll()
        expectedInSocket.removeAll()
        // The hub's events reach this machine at once (`publish`), so none is ever on its way when requests are
        // taken: `session.sync` is answered by the machine, as the handler answers it when its handle has no event
        // in flight. (The core's path, which it takes otherwise, is every other method's.)
        for frame in frames where !isClosed {
            execute(machine.frameReceived(frame, maximumLineBytes: ConnectionFuzzer.maximumLineBytes, eventsInFlight: false))
        }
    }

    /// `requestCompleted`, with what the core would answer the method in hand.
    func answer(_ choice: UInt8) {
        guard let (id, method) = inHand else { return }
        inHand = nil
        let outcome: DispatchOutcome
        switch method {
        case .sessionSync:
            outcome = .synced
        case .eventsSubscribe where choice % 2 == 0:
            outcome = .subscribed(snapshot: ["flows": []])
        default:
            switch choice % 3 {
            case 0: outcome = .result(["ok": true])
            case 1: outcome = .error(.domain(.unknownFlow, "no flow has this id"))
            // Long enough that a few of them pass the queue's byte bound.
            default: outcome = .result(["text": .string(String(repeating: "x", count: 100 + Int(choice)))])
            }
        }
        execute(machine.requestCompleted(id, outcome, eventsInFlight: false))
    }

    /// `eventArrived`, from the hub.
    func publish(_ choice: UInt8) {
        let event: AgentEvent
        var inkPoints = 0
        switch choice % 8 {
        case 0...3:
            inkPoints = Int(choice >> 3) % 3 + 1
            let points = (0..<inkPoints).map { i in
                StrokePoint(x: Double(nextInkX + i), y: 0.5, t: Double(i), p: nil)
            }
            let batch = InkBatch(
                flow: choice % 4 < 2 ? "f-1" : "f-2", pad: "pad-1", stroke: Int(choice % 2), points: points,
                role: .participant)
            event = AgentEvent(ink: batch, clock: Self.clock)
        case 4: event = AgentEvent(.flowChanged, data: ["flow": "f-1", "step": "review"], clock: Self.clock)
        case 5: event = AgentEvent(.padAdded, data: ["pad": "pad-2"], clock: Self.clock)
        case 6: event = AgentEvent(.inkStrokeEnded, data: ["flow": "f-1", "stroke": 0], clock: Self.clock)
        default: event = AgentEvent(.flowExpired, data: ["flow": "f-2"], clock: Self.clock)
        }
        nextInkX += inkPoints
        guard !isClosed else { return }
        let wanted = machine.isNegotiated && !lastLineQueued
        let actions = machine.eventReceived(event)
        let accepted = !actions.isEmpty
        precondition(accepted == wanted, "an event \(accepted ? "taken" : "refused") \(wanted ? "" : "before negotiation or after the last line")")
        if accepted { inkAccepted += inkPoints }
        execute(actions)
    }

    /// `channelWritabilityChanged` (a read the handler held back happens with `deliver`).
    func setWritable(_ writable: Bool) {
        isWritable = writable
        execute(machine.writabilityChanged(isWritable: writable))
    }

    /// `userInboundEventTriggered(ChannelEvent.inputClosed)`.
    func inputClosed() {
        execute(machine.inputClosed())
    }

    /// `userInboundEventTriggered(AgentStopping)`.
    func stop(unfinishedRecords: Int) {
        execute(machine.stopRequested(unfinishedRecords: unfinishedRecords, eventsInFlight: false))
    }

    /// The negotiation timer (cancelled once negotiated).
    func deadlinePassed() {
        guard deadlineArmed else { return }
        deadlineArmed = false
        execute(machine.negotiationTimedOut(seconds: 10))
    }

    /// `channelInactive`.
    func disconnect() {
        machine.connectionClosed()
        isClosed = true
        precondition(machine.nextRequest() == nil, "a closed connection still acts")
    }

    // MARK: ConnectionShell: the channel, the core and the timer, played by the harness

    func write(_ bytes: ByteBuffer) {
        guard !isClosed else { return }
        written(bytes)
    }

    func flush() {}

    func perform(_ action: ConnectionStateMachine.Action) {
        guard !isClosed else { return }
        switch action {
        case .greeted:
            deadlineArmed = true
        case .negotiated:
            precondition(machine.isNegotiated, "negotiated, says the action, but not the machine")
            deadlineArmed = false
        case .dispatch(let request, let method):
            precondition(inHand == nil, "a second request handed to the core before the first was answered")
            precondition(machine.isNegotiated, "\(method.rawValue) reached the core before negotiation")
            precondition(
                Capability.required(by: method, params: request.params).allSatisfy(machine.granted.contains),
                "\(method.rawValue) reached the core without its capabilities")
            precondition(!machine.isStopping, "\(method.rawValue) reached the core while stopping")
            inHand = (request.id, method)
        case .notNegotiatedInTime, .saidGoodbye:
            lastLineQueued = true
        case .close:
            precondition(machine.isIdle && inHand == nil, "closed with requests or bytes left")
            // Lines after the last line (the goodbye, the deadline's error) are not answered, nor a request the
            // goodbye did not wait for.
            precondition(awaited.isEmpty || lastLineQueued, "closed with \(awaited.count) lines unanswered")
            close()
        case .closeAfterFlush:
            precondition(machine.popOutbound() == nil, "closed after the flush with bytes left")
            close()
        case .resumeReading, .flush:
            break
        }
    }

    private func close() {
        machine.connectionClosed()
        isClosed = true
    }

    /// The end of the input: the client reads everything and the core answers everything, as long as anything
    /// moves; then every line read is answered.
    func drain() {
        setWritable(true)
        // Each round answers a line or writes one, or nothing moves and the drain ends: the bound only turns a
        // livelock into a finding.
        var rounds = 0
        while !isClosed {
            rounds += 1
            precondition(rounds < 10_000, "the connection never settles")
            let before = (awaited.count, socket.count, inHand == nil, linesWritten)
            answer(0)
            deliver()
            execute([.flush])
            if (awaited.count, socket.count, inHand == nil, linesWritten) == before { break }
        }
        guard !isClosed else { return }
        precondition(inHand == nil, "a request is still with the core")
        precondition(awaited.isEmpty, "\(awaited.count) lines read and never answered")
        precondition(machine.popOutbound() == nil, "bytes queued for a client that reads")
        if !machine.isStopping { precondition(socket.isEmpty, "lines never read from a client whose requests are all answered") }
        if !overflowWritten {
            precondition(inkWritten == inkAccepted, "\(inkAccepted) ink points taken, \(inkWritten) written, nothing overflowed")
        }
    }

    static let clock = EventClock(wallMilliseconds: { 1_790_000_000_000 }, monotonicMicroseconds: { 42 })

    // MARK: The client's checks

    private func written(_ bytes: ByteBuffer) {
        linesWritten += 1
        let view = bytes.readableBytesView
        precondition(view.last == UInt8(ascii: "\n"), "a line without its newline")
        precondition(view.dropLast().firstIndex(of: UInt8(ascii: "\n")) == nil, "a line with a newline inside")
        if let final = finalLineWritten { preconditionFailure("a line written after \(final)") }
        let message: [String: RPCValue]
        do {
            guard case .object(let members) = try RPCValue.parse(view.dropLast()) else { preconditionFailure("a line that is no object") }
            message = members
        } catch {
            preconditionFailure("a line that is no JSON: \(error)")
        }
        precondition(message["jsonrpc"] == "2.0", "a line without jsonrpc 2.0")
        if case .string(let name)? = message["method"] {
            notificationWritten(name, message)
        } else {
            responseWritten(message)
        }
    }

    private func notificationWritten(_ name: String, _ message: [String: RPCValue]) {
        precondition(message["id"] == nil && message.count == 3, "a notification with other members")
        guard let event = EventName(rawValue: name), case .object(let params)? = message["params"] else {
            preconditionFailure("an unknown notification \(name)")
        }
        precondition((event == .hello) == (linesWritten == 1), "hello is not the first line, or not only the first")
        guard event != .hello else { return }
        guard case .integer(let seq)? = params["seq"], case .string? = params["time"], case .integer? = params["mono_us"],
            params["data"] != nil
        else { preconditionFailure("\(name) without seq, time, mono_us and data") }
        precondition(negotiatedReplyWritten || event == .agentStopping, "\(name) before the connection was negotiated")
        if event == .eventsOverflow {
            guard case .integer(let dropped)? = params["data"]?["dropped"], dropped >= 1 else {
                preconditionFailure("events.overflow without a count")
            }
            precondition(seq > lastEventSeq, "events.overflow seq \(seq) after \(lastEventSeq)")
            overflowWritten = true
        } else {
            precondition(seq == lastEventSeq + 1, "event seq \(seq) after \(lastEventSeq) with nothing dropped")
        }
        precondition(seq > barrierSeq, "event seq \(seq) after a barrier at \(barrierSeq)")
        lastEventSeq = seq
        if event == .agentStopping { finalLineWritten = "agent.stopping" }
        if event == .inkPoints { inkWritten(params) }
    }

    private func inkWritten(_ params: [String: RPCValue]) {
        guard case .array(let points)? = params["data"]?["points"], !points.isEmpty else {
            preconditionFailure("ink.points without points")
        }
        for point in points {
            guard case .array(let members) = point, members.count == 4, let x = Self.wholeNumber(members[0]) else {
                preconditionFailure("an ink point that is not [x,y,t,p] with the harness's x")
            }
            precondition(x > lastInkXWritten, "ink point \(x) after \(lastInkXWritten): reordered or repeated")
            lastInkXWritten = x
            inkWritten += 1
        }
    }

    private static func wholeNumber(_ value: RPCValue) -> Int? {
        switch value {
        case .integer(let i): Int(exactly: i)
        case .number(let d): Int(exactly: d)
        default: nil
        }
    }

    private func responseWritten(_ message: [String: RPCValue]) {
        guard let rawID = message["id"] else { preconditionFailure("a line with neither method nor id") }
        let result = message["result"]
        precondition((result == nil) != (message["error"] == nil) && message.count == 3, "a response without exactly one of result and error")
        let id = RPCID(rawID)
        precondition(id != nil || rawID == .null, "a response id that is no string, integer or null")
        if let error = message["error"] {
            guard case .integer? = error["code"], case .string(let text)? = error["message"], !text.isEmpty,
                case .string(let type)? = error["data"]?["type"], let errorType = RPCErrorType(rawValue: type)
            else { preconditionFailure("an error without code, message and a documented data.type") }
            // A request refused before negotiation carries its id: `NotNegotiated` with id null is the deadline's
            // line, which answers no line of the client's and is the connection's last.
            if id == nil, errorType == .notNegotiated {
                finalLineWritten = "the negotiation deadline's error"
                return
            }
        }
        guard !awaited.isEmpty else { preconditionFailure("a reply to no line the client sent") }
        if case .id(let want) = awaited.removeFirst() {
            precondition(want == id, "the reply for \(want.map(String.init(describing:)) ?? "null") carries \(id.map(String.init(describing:)) ?? "null")")
        }
        // The harness's core never answers with these members: a reply that has them is the machine's own.
        if result?["session"] != nil { negotiatedReplyWritten = true }
        if let seq = result?["seq"] {
            // session.sync's and events.subscribe's: every event at or below it was written before, or dropped.
            guard case .integer(let seq) = seq else { preconditionFailure("a barrier's seq that is no integer") }
            precondition(seq >= lastEventSeq, "a barrier at \(seq) after event \(lastEventSeq) was written")
            barrierSeq = max(barrierSeq, seq)
        }
    }
}
#endif
