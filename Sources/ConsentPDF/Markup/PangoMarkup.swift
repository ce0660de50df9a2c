/// Escaping for Pango markup (GMarkup rules): the only way text enters markup.
enum PangoMarkup {
    /// Escapes the five characters GMarkup gives meaning to.
    static func escape(_ text: String) -> String {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(text.utf8.count)
        for byte in text.utf8 { appendEscaped(byte, to: &bytes) }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Removes the control characters GMarkup rejects even when escaped (all C0 controls but tab and newline),
    /// so one stray byte cannot make pango drop a paragraph.
    static func clean(_ text: String) -> String {
        guard text.utf8.contains(where: { isRejectedControl($0) }) else { return text }
        return String(decoding: text.utf8.filter { !isRejectedControl($0) }, as: UTF8.self)
    }

    @inline(__always)
    static func isRejectedControl(_ byte: UInt8) -> Bool {
        byte < 0x20 && byte != 0x09 && byte != 0x0A || byte == 0x7F
    }

    @inline(__always)
    static func appendEscaped(_ byte: UInt8, to bytes: inout [UInt8]) {
        switch byte {
        case UInt8(ascii: "&"): bytes += Array("&amp;".utf8)
        case UInt8(ascii: "<"): bytes += Array("&lt;".utf8)
        case UInt8(ascii: ">"): bytes += Array("&gt;".utf8)
        case UInt8(ascii: "\""): bytes += Array("&quot;".utf8)
        case UInt8(ascii: "'"): bytes += Array("&#39;".utf8)
        default: bytes.append(byte)
        }
    }

    /// Escapes an attribute value for markup (same rules as text).
    static func attribute(_ value: String) -> String { escape(clean(value)) }
}
