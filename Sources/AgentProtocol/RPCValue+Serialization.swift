import NIOCore

// The wire's form of a value (`JSONValueWriter.Style.wire`: sorted keys, only ASCII bytes) into NIO's buffers.

extension RPCValue {
    /// Writes the value as JSON in the wire's form.
    ///
    /// Scalars and plain strings go straight into `buffer` (an ink.points line writes about ten per pad frame, and
    /// an array per value cost 14 % of a frame's instructions, callgrind); the rest through `JSONValueWriter`. The
    /// rules (which strings are plain, how a number is written) are the writer's alone.
    public func write(to buffer: inout ByteBuffer) {
        switch self {
        case .null: buffer.writeStaticString("null")
        case .bool(let b): if b { buffer.writeStaticString("true") } else { buffer.writeStaticString("false") }
        case .integer(let i): buffer.writeString(String(i))
        case .number(let d): buffer.writeString(JSONValueWriter.wireText(of: d))
        case .string(let s):
            let written = s.utf8.withContiguousStorageIfAvailable { utf8 -> Bool in
                guard JSONValueWriter.isPlainOnTheWire(utf8) else { return false }
                buffer.writeInteger(UInt8(ascii: "\""))
                buffer.writeBytes(UnsafeRawBufferPointer(utf8))
                buffer.writeInteger(UInt8(ascii: "\""))
                return true
            }
            if written != true { buffer.writeBytes(wireBytes) }
        case .array, .object: buffer.writeBytes(wireBytes)
        }
    }

    /// The value as one JSON line, terminated by `\n`.
    public var jsonLine: ByteBuffer {
        // Most lines (replies, ink batches) fit: no regrowth while writing.
        var writer = JSONValueWriter(style: .wire, capacity: 512)
        // The wire's form never throws (non-finite numbers become null, and it has no depth limit).
        try? writer.write(self)
        writer.append(UInt8(ascii: "\n"))
        return ByteBuffer(bytes: writer.bytes)
    }
}
