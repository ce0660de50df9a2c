import AgentProtocol
import NIOCore
import NIOWebSocket
import Testing

@testable import KioskBridge

/// A page's messages as the bridge hands them to the agent (`PageLines`): each is decided on as the agent's line
/// decoder and parser will read it, and whatever is sent, read again by the agent's decoder, asks for no capability
/// beyond the page's ceiling.
struct PageLinesTests {
    static let negotiate = #"{"jsonrpc":"2.0","id":1,"method":"session.negotiate","params":{"client":"p","version":1}}"#
    static let participant = PageRole.participant.ceiling.allowed.map(\.rawValue)

    /// The outcomes of `messages`, sent one after the other on one WebSocket of the participant's page.
    static func outcomes(_ messages: [String]) -> [PageLines.Outcome] {
        var lines = PageLines(ceiling: PageRole.participant.ceiling, maximumLineBytes: 4096)
        return messages.map { lines.line(for: ByteBuffer(string: $0)) }
    }

    static func outcome(_ message: String) -> PageLines.Outcome { outcomes([message])[0] }

    /// What the agent reads of what was sent: its own decoder over the lines, each with its newline, then its own
    /// request parser. The capabilities each `session.negotiate` among them is granted (nil: the request asks for all).
    static func agentGrants(_ outcomes: [PageLines.Outcome]) throws -> [[String]?] {
        var stream = ByteBuffer()
        for case .send(var line) in outcomes {
            stream.writeBuffer(&line)
            stream.writeInteger(UInt8(ascii: "\n"))
        }
        var decoder = JSONLineFrameDecoder(maximumLineBytes: 4096)
        var grants: [[String]?] = []
        while let frame = try decoder.decode(buffer: &stream) {
            guard case .line(let line) = frame, case .success(let request) = RPCRequestParser.parse(line),
                request.method == Method.sessionNegotiate.rawValue
            else { continue }
            // As the agent reads it (`Capability.requested`); a negotiation it cannot read grants nothing.
            do throws(RPCErrorObject) {
                grants.append(try Capability.requested(by: ParamsReader(request.params, allowed: Capability.negotiationParams)))
            } catch {
                continue
            }
        }
        return grants
    }

    static func grants(_ messages: [String]) throws -> [[String]?] { try agentGrants(outcomes(messages)) }

    @Test func aByteOrderMarkFirstIsDroppedAsTheAgentDropsItAndTheCeilingHolds() throws {
        let sent = Self.outcome("\u{FEFF}" + Self.negotiate)
        guard case .send(let line) = sent else { Issue.record("\(sent)"); return }
        #expect(!line.readableBytesView.starts(with: [0xEF, 0xBB, 0xBF]))
        #expect(try Self.grants(["\u{FEFF}" + Self.negotiate]) == [Self.participant])
    }

    @Test func aByteOrderMarkAnywhereElseIsRefused() {
        let refused = PageLines.Outcome.refuse(.dataInconsistentWithMessage, reason: "a message must be one JSON value")
        // Twice at the start (the agent drops one), on a later message, inside the JSON.
        #expect(Self.outcome("\u{FEFF}\u{FEFF}" + Self.negotiate) == refused)
        #expect(Self.outcomes([#"{"jsonrpc":"2.0","id":0,"method":"rpc.discover"}"#, "\u{FEFF}" + Self.negotiate])[1] == refused)
        #expect(Self.outcome(#"{"jsonrpc":"2.0",\#u{FEFF}"id":1,"method":"session.negotiate","params":{"client":"p","version":1}}"#) == refused)
        #expect(Self.outcome(" \u{FEFF}" + Self.negotiate) == refused)
    }

    @Test func blankSpaceAndACarriageReturnAreReadAsTheAgentReadsThem() throws {
        let variants = [
            Self.negotiate + "\r", "  \t" + Self.negotiate + " \t",
            #"{"jsonrpc":"2.0",\#r"id":1,"method":"session.negotiate",  "params":{"client":"p","version":1}}"#,
            "\r\r" + Self.negotiate,
        ]
        for variant in variants {
            #expect(try Self.grants([variant]) == [Self.participant], "\(variant.debugDescription)")
        }
    }

    @Test func whatTheAgentSkipsIsSkipped() {
        for skipped in ["", " ", "\t \t", "\r", "#", "# " + Self.negotiate, "  # comment"] {
            #expect(Self.outcome(skipped) == .skip, "\(skipped.debugDescription)")
        }
        // A mark alone first: dropped, then blank.
        #expect(Self.outcome("\u{FEFF}") == .skip)
    }

    @Test func aNewlineIsRefused() {
        #expect(Self.outcome(Self.negotiate + "\n") == .refuse(.protocolError, reason: "a frame must not contain a newline"))
        #expect(Self.outcome("{}\n" + Self.negotiate) == .refuse(.protocolError, reason: "a frame must not contain a newline"))
    }

    /// JSONParser keeps the last of a repeated member, on both sides.
    @Test func aMemberGivenTwiceIsReadAsTheAgentReadsIt() throws {
        let methodTwice = #"{"jsonrpc":"2.0","id":1,"method":"flow.start","method":"session.negotiate","params":{"client":"p","version":1,"capabilities":["records"]}}"#
        #expect(try Self.grants([methodTwice]) == [[]])
        let paramsTwice = #"{"jsonrpc":"2.0","id":1,"method":"session.negotiate","params":{"client":"p","version":1,"capabilities":["events"]},"params":{"client":"p","version":1}}"#
        #expect(try Self.grants([paramsTwice]) == [Self.participant])
        let capabilitiesTwice = #"{"jsonrpc":"2.0","id":1,"method":"session.negotiate","params":{"client":"p","version":1,"capabilities":["events"],"capabilities":["records","events","ui-strokes"]}}"#
        #expect(try Self.grants([capabilitiesTwice]) == [["events", "ui-strokes"]])
        // The last method is not negotiate: the line goes as it came.
        let notNegotiate = #"{"jsonrpc":"2.0","id":1,"method":"session.negotiate","method":"flow.start"}"#
        #expect(Self.outcome(notNegotiate) == .send(ByteBuffer(string: notNegotiate)))
    }

    /// `"capabilities": null` is no list, and the agent reads it as none given (every capability): it gets the
    /// page's ceiling, as no list does. (It once passed unchanged, "not a list", and the agent granted everything.)
    /// A list the agent refuses goes as it came, for the agent's own error.
    @Test func aNullListIsReadAsNoneGiven() throws {
        let null = #"{"jsonrpc":"2.0","id":1,"method":"session.negotiate","params":{"client":"p","version":1,"capabilities":null}}"#
        #expect(try Self.grants([null]) == [Self.participant])
        for refused in [
            #"{"jsonrpc":"2.0","id":1,"method":"session.negotiate","params":{"client":"p","version":1,"capabilities":"records"}}"#,
            #"{"jsonrpc":"2.0","id":1,"method":"session.negotiate","params":{"client":"p","version":1,"capabilities":["events",1]}}"#,
            #"{"jsonrpc":"2.0","id":1,"method":"session.negotiate","params":{"client":"p","version":1,"capabilities":{},"x":1}}"#,
        ] {
            #expect(Self.outcome(refused) == .send(ByteBuffer(string: refused)), "\(refused)")
            #expect(try Self.grants([refused]) == [], "the agent grants nothing: \(refused)")
        }
    }

    @Test func escapesAndUnknownNamesAreHeldToo() throws {
        let escaped = #"{"jsonrpc":"2.0","id":1,"\u006dethod":"session\u002enegotiate","params":{"client":"p","version":1,"capabilities":["rec\u006frds","events","x"]}}"#
        #expect(try Self.grants([escaped]) == [["events"]])
    }

    @Test func whatIsNotOneJSONValueIsRefused() {
        let deep = String(repeating: "[", count: 65) + String(repeating: "]", count: 65)
        for text in ["not json", Self.negotiate + " x", Self.negotiate + Self.negotiate, "{", deep, #"{"a":"\ud800"}"#, "\u{0}"] {
            #expect(
                Self.outcome(text) == .refuse(.dataInconsistentWithMessage, reason: "a message must be one JSON value"),
                "\(text.prefix(40).debugDescription)")
        }
    }

    @Test func otherLinesPassByteForByte() {
        for text in [#"{"jsonrpc":"2.0","id":2,"method":"flow.start"}"#, #"[1,2]"#, #"  {"id": 3 }  "#, "42"] {
            #expect(Self.outcome(text) == .send(ByteBuffer(string: text)), "\(text)")
        }
    }

    @Test func aMessageLongerThanTheAgentTakesIsRefused() {
        var lines = PageLines(ceiling: PageRole.participant.ceiling, maximumLineBytes: 16)
        #expect(lines.line(for: ByteBuffer(string: String(repeating: " ", count: 17) + "1"))
            == .refuse(.messageTooLarge, reason: "message longer than the agent's maxLineBytes"))
    }
}
