import AgentProtocol
import NIOCore
import NIOWebSocket

/// What a page's text messages become on the agent's socket, one message at a time.
///
/// The bridge writes each message and a newline to consentd, which cuts what it reads into lines with
/// `JSONLineFrameDecoder` (a UTF-8 byte-order mark at the start of the connection dropped, a `\r` before the newline
/// dropped, blank and `#` comment lines skipped) and parses each line with `RPCValue.parse`. So the bridge runs the
/// same decoder over the same bytes first and decides on the line it yields, with the same parser: reading the
/// message as it came, the ceiling could not parse a first message that began with a byte-order mark and passed it
/// on, and the agent, dropping the mark, read a `session.negotiate` that asked for every capability.
///
/// - A message holding a newline would be two lines: refused (1002).
/// - A blank or comment line is skipped, as the agent skips it: nothing is written.
/// - A line that is not one JSON value is refused (1007): what the bridge cannot read does not pass, and the relay
///   closes, as it does for its other refusals (a message that is not UTF-8, a binary frame, a newline).
/// - Any other line is held to the page's ceiling (`CapabilityCeiling`) and written without what the decoder
///   dropped. The agent's decoder leaves such a line as it is: it parses, so it has no mark in front, is not
///   blank and is no comment; and a line that ended in `\r` was the same JSON without it (blank space).
///
/// A value: `BrowserSideHandler` keeps one per WebSocket and writes what it returns; the unit tests and the FuzzBridge
/// harness drive it the same way.
struct PageLines {
    enum Outcome: Equatable {
        /// Write this line, and a newline, to the agent.
        case send(ByteBuffer)
        /// Nothing for the agent: a blank or comment line, which it would skip.
        case skip
        /// Close the WebSocket with this code; nothing of the message reaches the agent.
        case refuse(WebSocketErrorCode, reason: String)
    }

    let ceiling: CapabilityCeiling
    /// The agent's line decoder, fed every message of the page. The agent's own is fed only the lines sent, which it
    /// leaves as they are (above), so a message skipped or refused here cannot make the two read a line differently.
    private var decoder: JSONLineFrameDecoder

    init(ceiling: CapabilityCeiling, maximumLineBytes: Int) {
        self.ceiling = ceiling
        decoder = JSONLineFrameDecoder(maximumLineBytes: maximumLineBytes)
    }

    /// The next message's line for the agent (`message` is one whole text message, UTF-8 and within the frame cap).
    mutating func line(for message: ByteBuffer) -> Outcome {
        guard !message.readableBytesView.contains(UInt8(ascii: "\n")) else {
            return .refuse(.protocolError, reason: "a frame must not contain a newline")
        }
        var stream = message
        stream.writeInteger(UInt8(ascii: "\n"))
        let frame: JSONLineFrameDecoder.Frame?
        do {
            frame = try decoder.decode(buffer: &stream)
        } catch {
            return .refuse(.protocolError, reason: "the message cannot be read as a line")
        }
        // With its newline the message is one whole line: the decoder never waits for more of it.
        guard stream.readableBytes == 0 else { return .refuse(.protocolError, reason: "the message cannot be read as a line") }
        switch frame {
        case nil:
            return .skip
        case .lineTooLong?:
            return .refuse(.messageTooLarge, reason: "message longer than the agent's maxLineBytes")
        case .line(let line)?:
            guard let value = try? RPCValue.parse(line.readableBytesView) else {
                return .refuse(.dataInconsistentWithMessage, reason: "a message must be one JSON value")
            }
            return .send(ceiling.limit(line, parsed: value))
        }
    }
}
