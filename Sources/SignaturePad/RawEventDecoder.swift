/// Decodes raw `struct input_event` records as read from an evdev node or a pipe of them.
///
/// ```
///  0        8        16     18     20       24
///  +--------+--------+------+------+--------+
///  | tv_sec | tv_usec| type | code | value  |   64-bit Linux (x86_64, aarch64), little endian
///  +--------+--------+------+------+--------+
/// ```
/// Partial records are kept until the rest arrives, so any chunking of the byte stream decodes identically.
public struct RawEventDecoder: Sendable {
    /// `sizeof(struct input_event)` on 64-bit Linux.
    public static let recordSize = 24
    private var partial: [UInt8] = []

    public init() {}

    /// Appends the events in `bytes` (plus any partial record left over) to `events`.
    public mutating func decode(_ bytes: UnsafeRawBufferPointer, into events: inout [InputEvent]) {
        var offset = 0
        if !partial.isEmpty {
            let need = Self.recordSize - partial.count
            let take = min(need, bytes.count)
            partial.append(contentsOf: bytes[0..<take])
            offset = take
            guard partial.count == Self.recordSize else { return }
            partial.withUnsafeBytes { events.append(Self.decodeRecord($0, at: 0)) }
            partial.removeAll(keepingCapacity: true)
        }
        while bytes.count - offset >= Self.recordSize {
            events.append(Self.decodeRecord(bytes, at: offset))
            offset += Self.recordSize
        }
        if offset < bytes.count { partial.append(contentsOf: bytes[offset...]) }
    }

    /// Bytes of an incomplete record waiting for the rest.
    public var pendingByteCount: Int { partial.count }

    @inline(__always)
    static func decodeRecord(_ bytes: UnsafeRawBufferPointer, at offset: Int) -> InputEvent {
        let sec = Int64(littleEndian: bytes.loadUnaligned(fromByteOffset: offset, as: Int64.self))
        let usec = Int64(littleEndian: bytes.loadUnaligned(fromByteOffset: offset + 8, as: Int64.self))
        let type = UInt16(littleEndian: bytes.loadUnaligned(fromByteOffset: offset + 16, as: UInt16.self))
        let code = UInt16(littleEndian: bytes.loadUnaligned(fromByteOffset: offset + 18, as: UInt16.self))
        let value = Int32(littleEndian: bytes.loadUnaligned(fromByteOffset: offset + 20, as: Int32.self))
        // Wrapping arithmetic: a garbage timestamp must not trap.
        return InputEvent(type: type, code: code, value: value, timestamp: sec &* 1_000_000 &+ usec)
    }

    /// Encodes one event as a raw record (for tests, the benchmark and FIFO feeders).
    public static func encode(_ event: InputEvent) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(recordSize)
        func put<T: FixedWidthInteger>(_ v: T) { withUnsafeBytes(of: v.littleEndian) { out.append(contentsOf: $0) } }
        let sec = event.timestamp >= 0 ? event.timestamp / 1_000_000 : (event.timestamp - 999_999) / 1_000_000
        put(sec)
        put(event.timestamp - sec * 1_000_000)
        put(event.type)
        put(event.code)
        put(event.value)
        return out
    }
}
