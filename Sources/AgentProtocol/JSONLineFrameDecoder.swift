import NIOCore

/// Splits the inbound byte stream into lines of at most `maximumLineBytes`, for the JSON-RPC layer.
///
/// ```
///   {"jsonrpc":"2.0",...}\n        -> .line({"jsonrpc":"2.0",...})
///   {"jsonrpc":"2.0",...}\r\n      -> .line({"jsonrpc":"2.0",...})     (the \r is dropped)
///   \n   or   \r\n                 -> nothing (blank line)
///   # a comment\n                  -> nothing (socat scripts stay readable)
///   <more than max bytes ...>\n    -> .lineTooLong once, then the rest up to \n is drained
/// ```
/// Unlike NIOExtras' `LineBasedFrameDecoder`, an over-long line does not kill the connection: the decoder reports
/// it as soon as the limit is passed, throws away bytes up to the next `\n` without buffering them, and carries
/// on with the next line. It remembers how far it has scanned, so a drip-fed line is never rescanned.
public struct JSONLineFrameDecoder: NIOSingleStepByteToMessageDecoder {
    public enum Frame: Sendable, Hashable {
        /// One line without its terminator; never blank and never a comment.
        case line(ByteBuffer)
        /// A line exceeded the limit; its bytes are being discarded up to the next `\n`.
        case lineTooLong
    }

    public typealias InboundOut = Frame

    public let maximumLineBytes: Int
    /// Bytes of the current line already scanned for `\n` (relative to the reader index).
    private var scanned = 0
    /// Whether the current line went over the limit and is being discarded.
    private var isDraining = false
    /// Whether the start of the stream was checked for a UTF-8 byte-order mark.
    private var isPastStreamStart = false
    private static let byteOrderMark: [UInt8] = [0xEF, 0xBB, 0xBF]

    public init(maximumLineBytes: Int = 1 << 20) {
        precondition(maximumLineBytes > 0, "maximumLineBytes must be positive")
        self.maximumLineBytes = maximumLineBytes
    }

    public mutating func decode(buffer: inout ByteBuffer) throws -> Frame? {
        guard skipByteOrderMark(&buffer, atEOF: false) else { return nil }
        while true {
            let view = buffer.readableBytesView
            let searchStart = view.startIndex + scanned
            guard let newline = view[searchStart...].firstIndex(of: UInt8(ascii: "\n")) else {
                if isDraining {
                    // Nothing of an over-long line is kept: drop what arrived and wait for its end.
                    buffer.moveReaderIndex(forwardBy: buffer.readableBytes)
                    scanned = 0
                    return nil
                }
                // One byte of slack for a `\r` that may precede the `\n`.
                if view.count > maximumLineBytes + 1 {
                    buffer.moveReaderIndex(forwardBy: buffer.readableBytes)
                    scanned = 0
                    isDraining = true
                    return .lineTooLong
                }
                scanned = view.count
                return nil
            }
            var length = newline - view.startIndex
            let consumed = length + 1
            scanned = 0
            if isDraining {
                buffer.moveReaderIndex(forwardBy: consumed)
                isDraining = false
                continue
            }
            if length > 0, view[newline - 1] == UInt8(ascii: "\r") { length -= 1 }
            if length > maximumLineBytes {
                buffer.moveReaderIndex(forwardBy: consumed)
                return .lineTooLong
            }
            guard let line = buffer.readSlice(length: length) else { return nil }
            buffer.moveReaderIndex(forwardBy: consumed - length)
            if Self.isIgnorable(line) { continue }
            return .line(line)
        }
    }

    /// At EOF a final line without `\n` is still a line, so `printf '...' | socat` works.
    public mutating func decodeLast(buffer: inout ByteBuffer, seenEOF: Bool) throws -> Frame? {
        _ = skipByteOrderMark(&buffer, atEOF: true)
        if let frame = try decode(buffer: &buffer) { return frame }
        guard seenEOF, !isDraining, buffer.readableBytes > 0 else {
            buffer.moveReaderIndex(forwardBy: buffer.readableBytes)
            return nil
        }
        var length = buffer.readableBytes
        if buffer.getInteger(at: buffer.readerIndex + length - 1, as: UInt8.self) == UInt8(ascii: "\r") { length -= 1 }
        guard length <= maximumLineBytes, let line = buffer.readSlice(length: length) else {
            buffer.moveReaderIndex(forwardBy: buffer.readableBytes)
            return nil
        }
        buffer.moveReaderIndex(forwardBy: buffer.readableBytes)
        scanned = 0
        return Self.isIgnorable(line) ? nil : .line(line)
    }

    /// Drops a UTF-8 byte-order mark at the very start of the stream: Windows tools (Notepad, PowerShell's
    /// `Out-File`) put one before the first line, and it is no part of the JSON. Only the stream's first bytes are
    /// checked; a mark anywhere else stays and makes that line a `ParseError`.
    ///
    /// - Returns: false while the bytes so far could still be the start of a mark (wait for more).
    private mutating func skipByteOrderMark(_ buffer: inout ByteBuffer, atEOF: Bool) -> Bool {
        guard !isPastStreamStart else { return true }
        let head = Array(buffer.readableBytesView.prefix(Self.byteOrderMark.count))
        if head.count < Self.byteOrderMark.count, head == Array(Self.byteOrderMark.prefix(head.count)), !atEOF {
            return false
        }
        isPastStreamStart = true
        if head == Self.byteOrderMark { buffer.moveReaderIndex(forwardBy: Self.byteOrderMark.count) }
        return true
    }

    /// Blank (only spaces and tabs) and `#` comment lines carry no message.
    private static func isIgnorable(_ line: ByteBuffer) -> Bool {
        for byte in line.readableBytesView {
            switch byte {
            case UInt8(ascii: " "), UInt8(ascii: "\t"): continue
            case UInt8(ascii: "#"): return true
            default: return false
            }
        }
        return true
    }
}
