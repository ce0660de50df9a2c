import NIOCore
import NIOWebSocket

/// A frame or message the bridge refuses under RFC 6455, with the close code it answers.
enum WebSocketViolation: Error, Equatable {
    /// A client frame without a mask (section 5.1: the server must close the connection).
    case unmasked
    /// RSV1-3 set with no extension negotiated (section 5.2).
    case reservedBits
    /// An opcode RFC 6455 reserves (0x3-0x7, 0xB-0xF; section 5.2).
    case reservedOpcode
    /// A close frame of one byte, or with a code no endpoint may send (section 7.4).
    case badClose
    /// A text message, or a close reason, that is not UTF-8 (section 8.1).
    case invalidUTF8

    var closeCode: WebSocketErrorCode {
        switch self {
        case .unmasked, .reservedBits, .reservedOpcode, .badClose: return .protocolError
        case .invalidUTF8: return .dataInconsistentWithMessage
        }
    }
}

/// Checks each frame from the browser before it is aggregated: the rules of RFC 6455 that NIO's decoder leaves to
/// the application (masking, reserved bits and opcodes). The first violation is raised as an error, which the
/// relay answers with its close code; every frame after it is dropped, since the connection is closing.
final class WebSocketFrameCheck: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = WebSocketFrame
    typealias InboundOut = WebSocketFrame

    private var failed = false

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard !failed else { return }
        let frame = unwrapInboundIn(data)
        if let violation = Self.violation(in: frame) {
            failed = true
            context.fireErrorCaught(violation)
            return
        }
        context.fireChannelRead(data)
    }

    static func violation(in frame: WebSocketFrame) -> WebSocketViolation? {
        if frame.maskKey == nil { return .unmasked }
        if frame.rsv1 || frame.rsv2 || frame.rsv3 { return .reservedBits }
        switch frame.opcode {
        case .continuation, .text, .binary, .connectionClose, .ping, .pong: return nil
        default: return .reservedOpcode
        }
    }

    /// The code to answer a close frame's (unmasked) payload with: the peer's own code when it is one an endpoint
    /// may send and its reason is UTF-8; 1000 for an empty payload; otherwise the violation.
    static func reply(toClose payload: ByteBuffer) -> Result<WebSocketErrorCode, WebSocketViolation> {
        var payload = payload
        if payload.readableBytes == 0 { return .success(.normalClosure) }
        guard let raw = payload.readInteger(as: UInt16.self) else { return .failure(.badClose) }
        guard isSendable(closeCode: raw) else { return .failure(.badClose) }
        guard isUTF8(payload) else { return .failure(.invalidUTF8) }
        return .success(WebSocketErrorCode(codeNumber: Int(raw)))
    }

    /// RFC 6455 section 7.4: 1000-1003 and 1007-1011 are defined for endpoints to send (1004 is reserved; 1005,
    /// 1006 and 1015 must never be sent); 3000-4999 are for libraries and applications; the rest are not valid.
    static func isSendable(closeCode code: UInt16) -> Bool {
        switch code {
        case 1000...1003, 1007...1011, 3000...4999: return true
        default: return false
        }
    }

    static func isUTF8(_ bytes: ByteBuffer) -> Bool {
        String(validating: bytes.readableBytesView, as: UTF8.self) != nil
    }
}
