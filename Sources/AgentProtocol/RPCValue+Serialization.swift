import NIOCore

// The wire's form of a value (`JSONValueWriter.Style.wire`: sorted keys, only ASCII bytes) into NIO's buffers.

extension RPCValue {
    /// Writes the value as JSON in the wire's form.
    public func write(to buffer: inout ByteBuffer) {
        buffer.writeBytes(wireBytes)
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
