// The harness is compiled in debug builds only: the params types it drives are internal to ConsentAgent and reached
// with `@testable import`, which needs `-enable-testing` (SwiftPM passes it, and defines DEBUG, in the debug
// configuration). A release build of the package gets the stub of Entry.swift.
#if DEBUG
import AgentProtocol
import ConsentCore
import EnteredText
import Foundation
import Logging
import NIOCore
import SignaturePad

@testable import ConsentAgent
@testable import ConsentRecords

/// Runs one input through the request path as far as a request goes before the core touches anything, with no
/// socket, event loop or `AgentCore`: `JSONLineFrameDecoder` → `ConnectionStateMachine` (`RPCRequestParser` and
/// `JSONParser`, the envelope, the method table, negotiation gating, `Capability.required`, the local methods
/// `session.negotiate` and `rpc.discover`), run by the handler's executor (`ConnectionShell.execute`) → the method's
/// params type, read by `MethodCall` as `AgentCore.dispatch` reads it (`ParamsReader`, `FlowActionParams`,
/// `FlowCompleteParams` with `FHIRInputCheck`, `SignatureSubmitParams` with `UIDrawnStrokes.read`, …) → its error
/// through `RPCErrorMapping` → the reply as the client would get it.
/// Running an accepted request's method is FuzzProtocol's job (slow); here the next line follows.
///
/// Input layout:
///
/// ```
///  byte 0   modulo (methods + 2): below the method count, the method of `Method.allCases` (in its order);
///           then two raw modes
///  method   the rest is the params' JSON text: the line `{"jsonrpc":"2.0","id":1,"method":"<name>","params":REST}`
///           (no "params" member when the rest is empty), on a negotiated connection granted every capability
///  raw 1    the rest is the client's bytes, in one piece, on a negotiated connection; lines cut at 256 bytes,
///           the first 8 lines answered
///  raw 2    the same on a connection that has not negotiated, fed in uneven chunks (a drip-fed line, a BOM)
/// ```
///
/// Checks beyond crashes: every line of the client is answered exactly once, before the next is taken; every
/// refusal is an error whose `data.type` is documented in Protocol/errors.json with the `code` it has there (so no
/// params decoding ends in `InternalError`, the answer to a foreign error); no error's `message` or `data` echoes
/// the marker `Zebulon` that a client string carried (name the field, not the value; `data.field` may
/// carry it only as a plain member name); accepted `signature.submit` strokes pass the submit check again and give
/// the record's PNG a size in its bounds (D1); a step method's params become that method's action; an accepted
/// `flow.complete` patient or location holds no control, bidi or invisible formatting character (`EnteredText`).
struct RequestFuzzer: Sendable {
    static let methods = Method.allCases
    /// The text a client string carries to be looked for in the errors; no message of the agent contains it.
    static let marker = Array("Zebulon".utf8)
    /// Raw modes: short enough that an input of `-max_len` (1024) reaches `LineTooLong`.
    static let rawLineBytes = 256
    /// Lines of one input that reach the connection; the decoder still reads all of its bytes. Each line costs a
    /// parse, a reply written and parsed again, so an input of hundreds of tiny lines would run at a tenth of the
    /// rate while ordering and gating need only a few.
    static let maximumLines = 8
    /// Method mode: the whole envelope of the longest input fits, so the params are always parsed.
    static let methodLineBytes = 8192
    /// Chunk sizes of the second raw mode, cycled from an offset the input's length picks.
    static let chunkSizes = [1, 3, 2, 64, 5, 4096, 8, 13]
    static let client = "fuzz-ui/1.0"

    /// `data.type` → `code`, from Protocol/errors.json (what clients are promised).
    let documented: [String: Int64]
    /// A connection after `session.negotiate` without a capability list, so every capability is granted.
    let negotiated: ConnectionStateMachine
    /// A connection that has not negotiated yet.
    let fresh: ConnectionStateMachine
    /// What `AgentCore.submitSignature` holds UI-drawn strokes to, from the agent's default settings.
    let requirements: SignatureRequirements
    let logger = Logger(label: "fuzz", factory: { _ in SwiftLogNoOpLogHandler() })

    struct Unusable: Error, CustomStringConvertible {
        var description: String
    }

    init() throws {
        // #filePath: the harness runs where it was built (scripts/fuzz, the replay test), next to Protocol/.
        // This file is Fuzz/Targets/FuzzRequest/RequestFuzzer.swift: four levels below the package.
        let package = (0..<4).reduce(URL(fileURLWithPath: #filePath)) { url, _ in url.deletingLastPathComponent() }
        let errors = package.appendingPathComponent("Protocol/errors.json")
        let table = try RPCValue.parse(Array(Data(contentsOf: errors)))
        guard case .object(let entries) = table else { throw Unusable(description: "\(errors.path) is not an object") }
        var documented: [String: Int64] = [:]
        for (type, entry) in entries {
            guard case .integer(let code)? = entry["code"] else { throw Unusable(description: "\(type) has no code") }
            documented[type] = code
        }
        for type in RPCErrorType.allCases where documented[type.rawValue] == nil {
            throw Unusable(description: "RPCErrorType.\(type) is not in Protocol/errors.json")
        }
        self.documented = documented

        let limits = ConnectionStateMachine.Limits(
            maximumInFlight: 16, queue: .init(maximumMessages: 24, maximumBytes: 16 << 10))
        // rpc.discover serves a constant: the real 40 KB document would only slow every input that asks for it.
        fresh = ConnectionStateMachine(limits: limits, sessionID: "s-1", discoverDocument: ["methods": []])
        var machine = fresh
        let actions = machine.frameReceived(
            .line(ByteBuffer(string: #"{"jsonrpc":"2.0","id":0,"method":"session.negotiate","params":{"client":"\#(Self.client)","version":1}}"#)),
            maximumLineBytes: Self.methodLineBytes)
        guard actions.contains(where: { if case .negotiated = $0 { true } else { false } }), machine.popOutbound() != nil,
            machine.isIdle
        else {
            throw Unusable(description: "the harness's own session.negotiate failed")
        }
        negotiated = machine

        let settings = AgentCore.Settings(stateDirectory: URL(fileURLWithPath: "/nonexistent"))
        requirements = SignatureRequirements(
            minimumInkLength: settings.minimumInkLength, minimumPoints: settings.minimumSignaturePoints)
    }

    func run(_ input: [UInt8]) {
        guard let selector = input.first else { return }
        let rest = input.dropFirst()
        let choice = Int(selector) % (Self.methods.count + 2)
        if choice < Self.methods.count {
            var line = Array(#"{"jsonrpc":"2.0","id":1,"method":""#.utf8)
            line += Self.methods[choice].rawValue.utf8
            line.append(UInt8(ascii: "\""))
            if !rest.isEmpty {
                line += #","params":"#.utf8
                line += rest
            }
            line += "}\n".utf8
            drive(negotiated, line[...], chunked: false, maximumLineBytes: Self.methodLineBytes)
        } else if choice == Self.methods.count {
            drive(negotiated, rest, chunked: false, maximumLineBytes: Self.rawLineBytes)
        } else {
            drive(fresh, rest, chunked: true, maximumLineBytes: Self.rawLineBytes)
        }
    }

    // MARK: The connection

    /// The bytes through the line decoder into a connection run as the handler runs it, every line answered as it
    /// comes, every reply checked.
    private func drive(
        _ start: ConnectionStateMachine, _ bytes: ArraySlice<UInt8>, chunked: Bool, maximumLineBytes: Int
    ) {
        let connection = Connection(fuzzer: self, machine: start)
        let processor = NIOSingleStepByteToMessageProcessor(
            JSONLineFrameDecoder(maximumLineBytes: maximumLineBytes), maximumBufferSize: nil)
        var frames: [JSONLineFrameDecoder.Frame] = []
        var lines = 0
        var turn = bytes.count % Self.chunkSizes.count
        var offset = bytes.startIndex
        while offset < bytes.endIndex, lines < Self.maximumLines {
            let end = chunked ? min(bytes.endIndex, offset + Self.chunkSizes[turn]) : bytes.endIndex
            turn = (turn + 1) % Self.chunkSizes.count
            do {
                try processor.process(buffer: ByteBuffer(bytes: bytes[offset..<end])) { frames.append($0) }
            } catch {
                preconditionFailure("the line decoder threw \(error)")
            }
            offset = end
            connection.take(&frames, lines: &lines, maximumLineBytes: maximumLineBytes)
        }
        do {
            try processor.finishProcessing(seenEOF: true) { frames.append($0) }
        } catch {
            preconditionFailure("the line decoder threw at EOF \(error)")
        }
        connection.take(&frames, lines: &lines, maximumLineBytes: maximumLineBytes)
        precondition(connection.replies == lines, "\(lines) lines got \(connection.replies) replies")
        precondition(connection.machine.isIdle, "the connection holds requests or bytes after answering every line")
    }

    /// One connection, run by the handler's executor (`ConnectionShell.execute`): the machine answers bad lines,
    /// unknown methods, gating, capabilities not granted and the local methods itself; the core is played by
    /// `dispatch`, which reads the params only. Every reply written is checked.
    final class Connection: ConnectionShell {
        let fuzzer: RequestFuzzer
        var machine: ConnectionStateMachine
        let isWritable = true
        private(set) var replies = 0
        private var inHand: (RPCRequest, Method)?

        init(fuzzer: RequestFuzzer, machine: ConnectionStateMachine) {
            self.fuzzer = fuzzer
            self.machine = machine
        }

        /// Hands `frames` to the connection (up to `maximumLines` in all), each answered before the next is taken.
        func take(_ frames: inout [JSONLineFrameDecoder.Frame], lines: inout Int, maximumLineBytes: Int) {
            for frame in frames {
                guard lines < RequestFuzzer.maximumLines else { break }
                lines += 1
                execute(machine.frameReceived(frame, maximumLineBytes: maximumLineBytes))
                while let (request, method) = inHand {
                    inHand = nil
                    execute(machine.requestCompleted(request.id, fuzzer.dispatch(request, method)))
                }
                precondition(replies == lines, "line \(lines) got \(replies - lines + 1) replies")
            }
            frames.removeAll(keepingCapacity: true)
        }

        func write(_ bytes: ByteBuffer) {
            replies += 1
            fuzzer.check(reply: bytes)
        }

        func flush() {}

        func perform(_ action: ConnectionStateMachine.Action) {
            if case .dispatch(let request, let method) = action { inHand = (request, method) }
        }
    }

    // MARK: The params

    /// What `AgentCore.handle` answers before its handler runs: the params' refusal, mapped as the core maps it;
    /// an empty result when the params are accepted.
    private func dispatch(_ request: RPCRequest, _ method: Method) -> DispatchOutcome {
        do {
            try Self.read(request.params, of: method, requirements: requirements)
            return .result([:])
        } catch {
            let wire = RPCErrorMapping.wireError(for: error, step: nil, requestID: request.id, logger: logger)
            precondition(
                wire.type != .internalError,
                "\(method.rawValue): its params threw \(type(of: error)), which the agent answers InternalError")
            return .error(wire)
        }
    }

    /// The params of `method` as `AgentCore.dispatch` reads them (`MethodCall`), and what the handler reads from the
    /// params before it touches a flow (`UIDrawnStrokes.read` for `signature.submit`).
    static func read(_ params: [String: RPCValue], of method: Method, requirements: SignatureRequirements) throws {
        switch try MethodCall(method, params) {
        case .eventsSubscribe(let subscribe):
            precondition(subscribe.topics.count <= Topic.allCases.count, "more topics than there are")
        case .step(let step):
            precondition(isAction(step.action, of: method), "\(method.rawValue) became another action")
        case .signatureSubmit(let submit):
            if let raw = submit.strokes {
                check(try UIDrawnStrokes.read(raw, client: client, requirements: requirements))
            }
        case .flowComplete(let complete):
            precondition(complete.options.patient?.objectValue != nil || complete.options.patient == nil, "a patient that is no object")
            precondition(complete.options.location?.objectValue != nil || complete.options.location == nil, "a location that is no object")
            // Nothing typed reaches a record with a control, bidi or invisible formatting character in it.
            for fhir in [complete.options.patient, complete.options.location].compactMap({ $0 }) {
                precondition(!holdsControl(fhir), "flow.complete accepted a control character in its FHIR")
            }
        default:
            break
        }
    }

    /// Whether a string (or a member's name) anywhere in `value` holds a character `EnteredText` refuses.
    static func holdsControl(_ value: JSONValue) -> Bool {
        switch value {
        case .string(let text): text.unicodeScalars.contains(where: EnteredText.isControl)
        case .array(let items): items.contains(where: holdsControl)
        case .object(let members): members.contains { holdsControl(.string($0.key)) || holdsControl($0.value) }
        default: false
        }
    }

    private static func isAction(_ action: ConsentAction, of method: Method) -> Bool {
        switch (method, action) {
        case (.eligibilityAnswer, .answerEligibility), (.flowNext, .next), (.flowBack, .back),
            (.sharingChoose, .chooseSharing), (.reviewAgree, .agree), (.reviewDisagree, .disagree),
            (.flowDecline, .decline), (.flowCancel, .cancel), (.withdrawalConfirm, .confirmWithdrawal),
            (.participantSetName, .setName), (.signerSetName, .setSignerName), (.passcodeSet, .setPasscode):
            return true
        case (.comprehensionAnswer, .answerComprehension(let question, let choice)):
            return question >= 0 && choice >= 0
        case (.signerChoose, .chooseSigner(let role)):
            return role == .participant || role == .representative
        default:
            return false
        }
    }

    /// Strokes the agent accepted from a UI: in the submitted ranges, stamped by the agent, and a PNG size the
    /// record composer can use (a trap there at `flow.complete` once: docs/RELIABILITY.md).
    private static func check(_ strokes: SignatureStrokes) {
        do {
            try strokes.validateSubmitted()
        } catch {
            preconditionFailure("accepted strokes fail the submit check: \(error)")
        }
        precondition(strokes.device == UIDrawnStrokes.provenance(client: client), "the UI's strokes lack the agent's provenance")
        let size = ConsentRecordComposer.imageSize(for: strokes)
        precondition(size.width > 0 && size.height > 0 && size.height <= size.width, "a signature image of \(size)")
    }

    // MARK: The errors

    /// A reply as the client reads it: one JSON-RPC response line; an error is checked as `check` says.
    private func check(reply line: ByteBuffer) {
        let view = line.readableBytesView
        precondition(view.last == UInt8(ascii: "\n"), "a reply without its newline")
        guard case .object(let message)? = try? RPCValue.parse(view.dropLast()), message["id"] != nil else {
            preconditionFailure("a reply that is no JSON-RPC response: \(String(buffer: line))")
        }
        guard case .object(let error)? = message["error"] else { return }
        guard case .integer(let code)? = error["code"], case .string(let text)? = error["message"],
            case .object(let data)? = error["data"], case .string(let type)? = data["type"],
            RPCErrorType(rawValue: type) != nil
        else { preconditionFailure("an error without code, message and a known data.type: \(String(buffer: line))") }
        check(error: type, code: code, message: text, data: data)
    }

    /// A documented error that carries no client text: `data` is the error's `data`, `type` its `data.type`. (Read
    /// where they are in the parsed reply: taking `type` out of a copy of `data` and rendering each value's text to
    /// search it made copies that were a tenth of the check's time.)
    private func check(error type: String, code: Int64, message: String, data: [String: RPCValue]) {
        precondition(documented[type] == code, "error \(type) with code \(code), not the one of Protocol/errors.json")
        precondition(!message.isEmpty, "an error without a message")
        precondition(!Self.carriesMarker(message), "\(type)'s message echoes client text: \(message)")
        for (key, value) in data where key != "type" {
            if key == "field", case .string(let field) = value {
                precondition(
                    !Self.carriesMarker(field) || Self.isMemberPath(field),
                    "\(type)'s data.field echoes client text that is no member name: \(field)")
            } else {
                precondition(!Self.carriesMarker(value), "\(type)'s data.\(key) echoes client text")
            }
        }
    }

    /// Whether a value's JSON text would contain the marker: a string or key that contains it (the marker is plain
    /// ASCII, which the wire writes as it is, and text between strings is punctuation and numbers).
    static func carriesMarker(_ value: RPCValue) -> Bool {
        switch value {
        case .string(let text): return carriesMarker(text)
        case .array(let items): return items.contains { carriesMarker($0) }
        case .object(let members): return members.contains { carriesMarker($0.key) || carriesMarker($0.value) }
        case .null, .bool, .integer, .number: return false
        }
    }

    static func carriesMarker(_ text: String) -> Bool {
        var text = text
        return text.withUTF8 { bytes in
            guard bytes.count >= marker.count else { return false }
            for start in 0...(bytes.count - marker.count) where bytes[start] == marker[0] {
                if bytes[start..<(start + marker.count)].elementsEqual(marker) { return true }
            }
            return false
        }
    }

    /// A path of plain member names with indices (`strokes.Zebulon`, `patient.name[0]`): a client's key named as
    /// `RPCErrorObject.plainName` allows, never a value.
    static func isMemberPath(_ field: String) -> Bool {
        field.split(separator: ".", omittingEmptySubsequences: false).allSatisfy { segment in
            var name = Substring(segment)
            while name.hasSuffix("]"), let open = name.lastIndex(of: "[") {
                guard name[name.index(after: open)..<name.index(before: name.endIndex)].allSatisfy(\.isASCII),
                    Int(name[name.index(after: open)..<name.index(before: name.endIndex)]) != nil
                else { return false }
                name = name[..<open]
            }
            return RPCErrorObject.plainName(String(name)) != nil
        }
    }
}
#endif
