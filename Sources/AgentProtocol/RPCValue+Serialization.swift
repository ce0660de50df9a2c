import NIOCore

extension RPCValue {
    /// Writes the value as JSON with sorted keys and only ASCII bytes.
    ///
    /// Sorted keys make every line reproducible (golden transcripts, `jq -S` diffs); escaping everything above
    /// 0x7E as `\uXXXX` (surrogate pairs above the BMP, as QMP does) means the output is valid UTF-8 and safe for
    /// any terminal, whatever a study text or device name contains. Non-finite numbers, which JSON cannot carry,
    /// become `null`.
    public func write(to buffer: inout ByteBuffer) {
        switch self {
        case .null:
            buffer.writeStaticString("null")
        case .bool(let b):
            if b { buffer.writeStaticString("true") } else { buffer.writeStaticString("false") }
        case .integer(let i):
            buffer.writeString(String(i))
        case .number(let d):
            if !d.isFinite {
                buffer.writeStaticString("null")
            } else if d == d.rounded(.towardZero), abs(d) < 9.0e15 {
                buffer.writeString(String(Int64(d)))
            } else {
                // Swift's shortest round-trip description ("0.25", "1e-05") is valid JSON for finite values.
                buffer.writeString(d.description)
            }
        case .string(let s):
            Self.writeString(s, to: &buffer)
        case .array(let items):
            buffer.writeInteger(UInt8(ascii: "["))
            for (i, item) in items.enumerated() {
                if i > 0 { buffer.writeInteger(UInt8(ascii: ",")) }
                item.write(to: &buffer)
            }
            buffer.writeInteger(UInt8(ascii: "]"))
        case .object(let members):
            buffer.writeInteger(UInt8(ascii: "{"))
            for (i, key) in members.keys.sorted().enumerated() {
                if i > 0 { buffer.writeInteger(UInt8(ascii: ",")) }
                Self.writeString(key, to: &buffer)
                buffer.writeInteger(UInt8(ascii: ":"))
                members[key].map { $0.write(to: &buffer) }
            }
            buffer.writeInteger(UInt8(ascii: "}"))
        }
    }

    /// The value as one JSON line, terminated by `\n`.
    public var jsonLine: ByteBuffer {
        // Most lines (replies, ink batches) fit: no regrowth while writing.
        var buffer = ByteBufferAllocator().buffer(capacity: 512)
        write(to: &buffer)
        buffer.writeInteger(UInt8(ascii: "\n"))
        return buffer
    }

    /// The value as JSON text (no newline), for logs and tests.
    public var jsonText: String {
        var buffer = ByteBuffer()
        write(to: &buffer)
        return String(buffer: buffer)
    }

    private static let hexDigits: [UInt8] = Array("0123456789abcdef".utf8)

    private static func writeString(_ s: String, to buffer: inout ByteBuffer) {
        buffer.writeInteger(UInt8(ascii: "\""))
        // Fast path: printable ASCII without a quote or backslash (keys, ids, methods, timestamps, node paths) is
        // written as it is, in one copy. Writing byte by byte made strings the bulk of an ink.points event's cost.
        let isPlain = s.utf8.withContiguousStorageIfAvailable { bytes in
            for b in bytes where b < 0x20 || b > 0x7E || b == 0x22 || b == 0x5C { return false }
            buffer.writeBytes(bytes)
            return true
        }
        if isPlain == true {
            buffer.writeInteger(UInt8(ascii: "\""))
            return
        }
        for unit in s.utf16 {
            switch unit {
            case 0x22: buffer.writeStaticString("\\\"")
            case 0x5C: buffer.writeStaticString("\\\\")
            case 0x0A: buffer.writeStaticString("\\n")
            case 0x0D: buffer.writeStaticString("\\r")
            case 0x09: buffer.writeStaticString("\\t")
            case 0x20...0x7E: buffer.writeInteger(UInt8(unit))
            default:
                buffer.writeStaticString("\\u")
                buffer.writeInteger(hexDigits[Int(unit >> 12) & 0xF])
                buffer.writeInteger(hexDigits[Int(unit >> 8) & 0xF])
                buffer.writeInteger(hexDigits[Int(unit >> 4) & 0xF])
                buffer.writeInteger(hexDigits[Int(unit) & 0xF])
            }
        }
        buffer.writeInteger(UInt8(ascii: "\""))
    }
}
