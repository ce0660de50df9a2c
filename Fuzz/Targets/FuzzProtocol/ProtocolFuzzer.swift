// The harness is compiled in debug builds only: it reaches the agent's internals with `@testable import`, which
// needs `-enable-testing` (SwiftPM passes it, and defines DEBUG, in the debug configuration). A release build of
// the package gets the stub of Entry.swift.
#if DEBUG
import AgentProtocol
import ConsentCore
import Foundation
import FuzzStudy
import Logging
import NIOConcurrencyHelpers
import NIOCore
import SampleStudy

@testable import ConsentAgent

/// Drives one client's bytes through the agent as `RPCConnectionHandler` does, without a socket or event loop:
/// `JSONLineFrameDecoder` (in `NIOSingleStepByteToMessageProcessor`, fed in uneven chunks) → `ConnectionStateMachine`
/// (parse, gating, order, the outbound queue) → `AgentCore.handle` with a recording `ConnectionHandle`.
///
/// One core serves every input (building one loads the sample study). Inputs stay independent: after each, the
/// subscription is dropped and the manual clock jumps past the inactivity timeout, so every flow the input started
/// expires, and at most `maximumEndedFlows` ended flows are kept.
///
/// Flow ids are random, so the fuzzer cannot know them: a `"flow"` param that starts with `$` (the placeholder of
/// Protocol/examples) names a flow this input started, `$` or `$flow` the last, `$<n>` the n-th.
///
/// Besides crashes and sanitizer reports it checks: every line the connection would write is one JSON object
/// line with `"jsonrpc":"2.0"`, and the serialisation of every parsed line is a fixed point of parse + write.
final class ProtocolFuzzer: Sendable {
    static let maximumLineBytes = 2048
    /// Chunk sizes the input is fed in, cycled from an offset the input's length picks.
    static let chunkSizes = [1, 3, 4096, 16, 2, 113, 7]

    let core: AgentCore
    let clock = NIOLockedValueBox<Duration>(.zero)
    let deliveries = NIOLockedValueBox<[ConnectionHandle.Delivery]>([])
    let handle: ConnectionHandle
    let inactivityTimeout: Duration
    let discover: RPCValue

    init() throws {
        guard let folder = SampleStudy.folder else { throw CocoaError(.fileNoSuchFile) }
        // The core keeps it for the whole run: FuzzStudy says why not `Study.load` as it is.
        let study = FuzzStudy.ownedByThisThread(try Study.load(from: folder))
        let state = FileManager.default.temporaryDirectory.appendingPathComponent("consent-fuzz-\(getpid())")
        let settings = AgentCore.Settings(maximumEndedFlows: 8, stateDirectory: state)
        let clock = self.clock
        core = AgentCore(
            studies: [study], settings: settings, hub: EventHub(), recordMaker: FuzzRecordMaker(),
            logger: Logger(label: "fuzz", factory: { _ in SwiftLogNoOpLogHandler() }),
            eventClock: EventClock(wallMilliseconds: { 1_777_000_000_000 }, monotonicMicroseconds: { 0 }),
            now: { clock.withLockedValue { $0 } })
        inactivityTimeout = settings.inactivityTimeout
        let deliveries = self.deliveries
        handle = ConnectionHandle(id: 1, recorder: { delivery in deliveries.withLockedValue { $0.append(delivery) } })
        // `rpc.discover` serves a constant; the real 40 KB document would only slow every input that asks for it.
        discover = ["openrpc": "1.3.2", "methods": []]
    }

    func run(_ input: [UInt8]) async {
        let connection = Connection(fuzzer: self)
        let processor = NIOSingleStepByteToMessageProcessor(
            JSONLineFrameDecoder(maximumLineBytes: Self.maximumLineBytes), maximumBufferSize: nil)
        var offset = 0
        var turn = input.count % Self.chunkSizes.count
        while offset < input.count {
            let end = min(input.count, offset + Self.chunkSizes[turn])
            turn = (turn + 1) % Self.chunkSizes.count
            var frames: [JSONLineFrameDecoder.Frame] = []
            do {
                try processor.process(buffer: ByteBuffer(bytes: input[offset..<end])) { frames.append($0) }
            } catch {
                fatalError("the line decoder threw \(error)")
            }
            offset = end
            await connection.receive(frames)
        }
        var frames: [JSONLineFrameDecoder.Frame] = []
        do {
            try processor.finishProcessing(seenEOF: true) { frames.append($0) }
        } catch {
            fatalError("the line decoder threw at EOF \(error)")
        }
        await connection.receive(frames)
        connection.finish()

        // Forget this input: no subscriber, every flow it started expired.
        core.hub.remove(connection: handle.id)
        clock.withLockedValue { $0 += inactivityTimeout + .seconds(1) }
        await core.expireIdleFlows()
        deliveries.withLockedValue { $0.removeAll() }
    }

    /// One connection for one input: the `ConnectionStateMachine` the handler keeps, run by the handler's executor
    /// (`ConnectionShell.execute`), with the core awaited in place of a task; and the flows it started.
    final class Connection: ConnectionShell {
        let fuzzer: ProtocolFuzzer
        var machine: ConnectionStateMachine
        var flows: [String] = []
        /// The client reads everything after each chunk; within one, events may pile up and overflow.
        private(set) var isWritable = false
        /// The request handed to the core, awaited by `runCore`.
        private var inHand: (RPCRequest, Method)?
        private var isClosed = false

        init(fuzzer: ProtocolFuzzer) {
            self.fuzzer = fuzzer
            machine = ConnectionStateMachine(
                limits: .init(maximumInFlight: 16, queue: .init(maximumMessages: 24, maximumBytes: 16 << 10)),
                sessionID: "s-1", discoverDocument: fuzzer.discover)
            execute(machine.greet(hello: ["protocol": "consent-kiosk-agent"]))
        }

        func receive(_ frames: [JSONLineFrameDecoder.Frame]) async {
            for frame in frames {
                if case .line(let bytes) = frame { Self.checkRoundTrip(bytes) }
                execute(machine.frameReceived(frame, maximumLineBytes: ProtocolFuzzer.maximumLineBytes))
                await runCore()
            }
            isWritable = true
            execute(machine.writabilityChanged(isWritable: true))
            // The lines that waited for the client to read its replies (`isBackedUp`) go now, each in turn.
            await runCore()
            isWritable = false
        }

        /// The client closed its sending side after its last byte: everything is answered, so the connection closes.
        func finish() {
            execute(machine.inputClosed())
            precondition(isClosed, "a client that sent everything was not answered and let go")
        }

        /// The request in hand through the core, and each that its reply lets go.
        private func runCore() async {
            while case (var request, let method)? = inHand {
                inHand = nil
                if case .string(let name)? = request.params["flow"], name.hasPrefix("$"), !flows.isEmpty {
                    let index = Int(name.dropFirst()) ?? (flows.count - 1)
                    request.params["flow"] = .string(flows[abs(index % flows.count)])
                }
                await fuzzer.core.handle(request, method: method, from: fuzzer.handle)
                drainDeliveries(method: method)
                precondition(inHand != nil || !machine.isBusy, "the core returned without answering \(method.rawValue)")
            }
        }

        /// What the core sent through the handle, in order: events, then the reply.
        private func drainDeliveries(method: Method) {
            let delivered = fuzzer.deliveries.withLockedValue { all in
                defer { all.removeAll() }
                return all
            }
            for delivery in delivered {
                switch delivery {
                case .event(let event):
                    execute(machine.eventReceived(event))
                case .reply(let id, let outcome):
                    precondition(machine.isBusy, "a second reply to one request")
                    if method == .flowStart, case .result(let result) = outcome, case .string(let flow)? = result["flow"] {
                        flows.append(flow)
                    }
                    execute(machine.requestCompleted(id, outcome))
                }
            }
        }

        // MARK: ConnectionShell

        func write(_ bytes: ByteBuffer) { Self.checkOutbound(bytes) }

        func flush() {}

        func perform(_ action: ConnectionStateMachine.Action) {
            switch action {
            case .dispatch(let request, let method): inHand = (request, method)
            case .close, .closeAfterFlush: isClosed = true
            case .greeted, .flush, .negotiated, .resumeReading, .notNegotiatedInTime, .saidGoodbye: break
            }
        }

        /// A line the agent writes is one JSON object with `"jsonrpc":"2.0"`, ending in its only `\n`.
        private static func checkOutbound(_ line: ByteBuffer) {
            let view = line.readableBytesView
            precondition(view.last == UInt8(ascii: "\n"), "an outbound line without its newline")
            precondition(view.dropLast().firstIndex(of: UInt8(ascii: "\n")) == nil, "a newline inside an outbound line")
            guard let message = try? RPCValue.parse(view.dropLast()) else {
                fatalError("the agent wrote a line that is not JSON: \(String(buffer: line))")
            }
            precondition(message["jsonrpc"] == .string("2.0"), "an outbound message without jsonrpc 2.0")
        }

        /// write(parse(line)) is a fixed point: parsing what we write gives back the same value.
        private static func checkRoundTrip(_ line: ByteBuffer) {
            guard let value = try? RPCValue.parse(line.readableBytesView) else { return }
            let written = value.jsonText
            guard let again = try? RPCValue.parse(Array(written.utf8)) else {
                fatalError("RPCValue wrote text it cannot parse: \(written)")
            }
            precondition(again.jsonText == written, "RPCValue round trip changed \(written) into \(again.jsonText)")
        }
    }
}

/// Completes flows without writing anything; a completion without a patient and with `deidentify` fails, so the
/// failure path (the flow stays open) is reachable too.
struct FuzzRecordMaker: RecordMaking {
    struct Refused: Error {}

    func makeRecord(for outcome: ConsentOutcome, study: Study, options: CompletionOptions) async throws -> RecordReceipt {
        if options.deidentify && options.patient == nil { throw Refused() }
        return RecordReceipt(id: "r-fuzz", directory: URL(fileURLWithPath: "/nonexistent/r-fuzz"), files: ["consent.pdf"])
    }
}
#endif
