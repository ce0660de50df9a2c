/// The one JSON writer, in the two forms the project writes.
///
/// - `.wire`: a JSON-RPC line (`RPCValue.jsonLine`, `jsonText`). Keys sorted, so every line is reproducible (golden
///   transcripts, `jq -S` diffs); everything above 0x7E escaped as `\uXXXX` (surrogate pairs above the BMP, as QMP
///   does), so the output is valid UTF-8 and safe for any terminal whatever a study text or device name contains;
///   a whole number below 9e15 without a fraction; non-finite numbers, which JSON cannot carry, as `null`. It never
///   fails.
/// - `.document` and `.prettyDocument`: records and files (`serializedBytes(pretty:)`), the bytes Foundation's
///   `JSONEncoder` gives with `.sortedKeys` and `.withoutEscapingSlashes` (and `.prettyPrinted`), which wrote every
///   record before: keys in UTF-8 byte order, numbers as Swift describes them (a whole `Double` without its ".0"),
///   only `"`, `\` and control characters escaped (and `/` with `escapesSlashes`, as `JSONEncoder` without
///   `.withoutEscapingSlashes`), two-space indents and `" : "` when pretty. A non-finite number and
///   containers nested `maximumDepth` deep fail with `EncodingError.invalidValue`, as `JSONEncoder` does.
///
/// Both write their bytes themselves: a record's resources are serialised several times per consent (files, digests,
/// the bundle), and `JSONEncoder` first boxes every value of the tree into its own (about 7 % of a consent's
/// instructions, callgrind); on the wire, strings are most of an ink.points event. `JSONValueSerializationTests`
/// hold the document forms to `JSONEncoder`'s bytes, `RPCValueSerializationTests` the wire form.
public struct JSONValueWriter {
    public enum Style: Sendable, Hashable {
        case wire
        case document
        case prettyDocument
    }

    /// `JSONEncoder`'s limit for documents: containers nested this deep are refused.
    public static let maximumDepth = 512

    public let style: Style
    /// Whether a document's `/` is written `\/`, as `JSONEncoder` does without `.withoutEscapingSlashes` (the
    /// envelopes of encrypted records and uploads were written so).
    public let escapesSlashes: Bool
    public private(set) var bytes: [UInt8] = []
    private var indent = 0

    public init(style: Style, escapesSlashes: Bool = false, capacity: Int = 4096) {
        self.style = style
        self.escapesSlashes = escapesSlashes
        bytes.reserveCapacity(capacity)
    }

    /// Appends one value.
    ///
    /// - Throws: `EncodingError.invalidValue` in a document style only (never for `.wire`).
    public mutating func write(_ value: JSONValue) throws(EncodingError) {
        try write(value, depth: 0)
    }

    /// Appends raw bytes (a line's terminator).
    public mutating func append(_ byte: UInt8) {
        bytes.append(byte)
    }

    private var pretty: Bool { style == .prettyDocument }

    private mutating func write(_ value: JSONValue, depth: Int) throws(EncodingError) {
        switch value {
        case .null: bytes.append(contentsOf: "null".utf8)
        case .bool(let b): bytes.append(contentsOf: (b ? "true" : "false").utf8)
        case .integer(let i): bytes.append(contentsOf: String(i).utf8)
        case .number(let d): try writeNumber(d)
        case .string(let s): writeString(s)
        case .array(let items): try writeArray(items, depth: depth + 1)
        case .object(let members): try writeObject(members, depth: depth + 1)
        }
    }

    private mutating func writeNumber(_ d: Double) throws(EncodingError) {
        if style == .wire {
            bytes.append(contentsOf: Self.wireText(of: d).utf8)
            return
        }
        guard d.isFinite else {
            throw EncodingError.invalidValue(
                d, EncodingError.Context(codingPath: [], debugDescription: "Unable to encode Double.\(d) directly in JSON."))
        }
        var text = d.description
        if text.hasSuffix(".0") { text.removeLast(2) }
        bytes.append(contentsOf: text.utf8)
    }

    private mutating func writeArray(_ items: [JSONValue], depth: Int) throws(EncodingError) {
        try checkDepth(depth)
        bytes.append(UInt8(ascii: "["))
        if pretty {
            bytes.append(UInt8(ascii: "\n"))
            indent += 1
        }
        for (i, item) in items.enumerated() {
            if i > 0 { bytes.append(UInt8(ascii: ",")) }
            if pretty {
                if i > 0 { bytes.append(UInt8(ascii: "\n")) }
                writeIndent()
            }
            try write(item, depth: depth)
        }
        if pretty {
            bytes.append(UInt8(ascii: "\n"))
            indent -= 1
            writeIndent()
        }
        bytes.append(UInt8(ascii: "]"))
    }

    private mutating func writeObject(_ members: [String: JSONValue], depth: Int) throws(EncodingError) {
        try checkDepth(depth)
        bytes.append(UInt8(ascii: "{"))
        if pretty {
            bytes.append(UInt8(ascii: "\n"))
            indent += 1
            if !members.isEmpty { writeIndent() }
        }
        // The wire has always sorted keys as Swift compares strings; documents as JSONEncoder does, by UTF-8 bytes.
        // What is sorted is the members' positions, in a buffer on the stack: `members.sorted` copied every key and
        // value into an array, an allocation for each object of every line written. (The closure returns the
        // failure, as `withUnsafeTemporaryAllocation` rethrows untyped errors only.)
        let failure = withUnsafeTemporaryAllocation(of: [String: JSONValue].Index.self, capacity: members.count) {
            buffer -> EncodingError? in
            var order = buffer
            _ = order.initialize(fromContentsOf: members.indices)
            defer { order.deinitialize() }
            if style == .wire {
                order.sort { members.keys[$0] < members.keys[$1] }
            } else {
                order.sort { members.keys[$0].utf8.lexicographicallyPrecedes(members.keys[$1].utf8) }
            }
            for (i, position) in order.enumerated() {
                let member = members[position]
                if i > 0 {
                    bytes.append(UInt8(ascii: ","))
                    if pretty {
                        bytes.append(UInt8(ascii: "\n"))
                        writeIndent()
                    }
                }
                writeString(member.key)
                if pretty { bytes.append(UInt8(ascii: " ")) }
                bytes.append(UInt8(ascii: ":"))
                if pretty { bytes.append(UInt8(ascii: " ")) }
                do throws(EncodingError) {
                    try write(member.value, depth: depth)
                } catch {
                    return error
                }
            }
            return nil
        }
        if let failure { throw failure }
        if pretty {
            bytes.append(UInt8(ascii: "\n"))
            indent -= 1
            writeIndent()
        }
        bytes.append(UInt8(ascii: "}"))
    }

    private func checkDepth(_ depth: Int) throws(EncodingError) {
        guard style != .wire, depth >= Self.maximumDepth else { return }
        throw EncodingError.invalidValue(
            depth, EncodingError.Context(codingPath: [], debugDescription: "Too many nested arrays or dictionaries"))
    }

    private mutating func writeIndent() {
        bytes.append(contentsOf: repeatElement(UInt8(ascii: " "), count: 2 * indent))
    }

    private static let hexDigits: [UInt8] = Array("0123456789abcdef".utf8)

    /// A number in the wire's form: `null` when not finite (JSON cannot carry it), a whole number below 9e15 without
    /// a fraction, else Swift's shortest round-trip description ("0.25", "1e-05"), valid JSON for finite values.
    public static func wireText(of d: Double) -> String {
        if !d.isFinite { return "null" }
        if d == d.rounded(.towardZero), abs(d) < 9.0e15 { return String(Int64(d)) }
        return d.description
    }

    /// Whether a string's UTF-8 is written on the wire as it is, between quotes: printable ASCII without a quote or
    /// a backslash (keys, ids, methods, timestamps, node paths: nearly every string).
    @inlinable
    public static func isPlainOnTheWire(_ utf8: UnsafeBufferPointer<UInt8>) -> Bool {
        for b in utf8 where b < 0x20 || b > 0x7E || b == 0x22 || b == 0x5C { return false }
        return true
    }

    private mutating func writeString(_ string: String) {
        if style == .wire { writeASCIIString(string) } else { writeUTF8String(string) }
    }

    /// A document's string: UTF-8 as it is, only `"`, `\` and control characters escaped (and `/` when
    /// `escapesSlashes`).
    private mutating func writeUTF8String(_ string: String) {
        bytes.append(UInt8(ascii: "\""))
        var text = string
        let slash: UInt8 = escapesSlashes ? 0x2F : 0x22
        text.withUTF8 { utf8 in
            // Runs of bytes that need no escape are copied whole.
            var runStart = 0
            for (i, byte) in utf8.enumerated() where byte < 0x20 || byte == 0x22 || byte == 0x5C || byte == slash {
                bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[runStart..<i]))
                runStart = i + 1
                switch byte {
                case 0x22: bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "\"")])
                case 0x5C: bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "\\")])
                case 0x2F: bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "/")])
                case 0x08: bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "b")])
                case 0x0C: bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "f")])
                case 0x0A: bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "n")])
                case 0x0D: bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "r")])
                case 0x09: bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "t")])
                default:
                    bytes.append(contentsOf: #"\u00"#.utf8)
                    bytes.append(Self.hexDigits[Int(byte >> 4)])
                    bytes.append(Self.hexDigits[Int(byte & 0xF)])
                }
            }
            bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[runStart...]))
        }
        bytes.append(UInt8(ascii: "\""))
    }

    /// The wire's string: printable ASCII as it is, everything else escaped.
    private mutating func writeASCIIString(_ s: String) {
        bytes.append(UInt8(ascii: "\""))
        // Fast path: printable ASCII without a quote or backslash (keys, ids, methods, timestamps, node paths) is
        // written as it is, in one copy. Writing byte by byte made strings the bulk of an ink.points event's cost.
        let isPlain = s.utf8.withContiguousStorageIfAvailable { utf8 in
            guard Self.isPlainOnTheWire(utf8) else { return false }
            bytes.append(contentsOf: utf8)
            return true
        }
        if isPlain == true {
            bytes.append(UInt8(ascii: "\""))
            return
        }
        for unit in s.utf16 {
            switch unit {
            case 0x22: bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "\"")])
            case 0x5C: bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "\\")])
            case 0x0A: bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "n")])
            case 0x0D: bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "r")])
            case 0x09: bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "t")])
            case 0x20...0x7E: bytes.append(UInt8(unit))
            default:
                bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "u")])
                bytes.append(Self.hexDigits[Int(unit >> 12) & 0xF])
                bytes.append(Self.hexDigits[Int(unit >> 8) & 0xF])
                bytes.append(Self.hexDigits[Int(unit >> 4) & 0xF])
                bytes.append(Self.hexDigits[Int(unit) & 0xF])
            }
        }
        bytes.append(UInt8(ascii: "\""))
    }
}

extension JSONValue {
    /// Parses one JSON text in the wire's strict form (`JSONParser.Options.wire`).
    ///
    /// - Throws: `JSONParser.Error` when the bytes are not one JSON text.
    public static func parse(_ bytes: some Collection<UInt8>) throws(JSONParser.Error) -> JSONValue {
        try JSONParser.parse(bytes)
    }

    /// Parses one JSON file's bytes as a document (`JSONParser.Options.document`: as `JSONDecoder` read them).
    ///
    /// - Throws: `JSONParser.Error` when the bytes are not one JSON text.
    public static func parseDocument(_ bytes: some Collection<UInt8>) throws(JSONParser.Error) -> JSONValue {
        try JSONParser.parse(bytes, options: .document)
    }

    /// The value in the wire's form (`JSONValueWriter.Style.wire`), without a newline.
    public var wireBytes: [UInt8] {
        // Most lines (replies, ink batches) fit: no regrowth while writing.
        var writer = JSONValueWriter(style: .wire, capacity: 512)
        // The wire's form never throws (non-finite numbers become null, and it has no depth limit).
        try? writer.write(self)
        return writer.bytes
    }

    /// The value as JSON text in the wire's form (no newline), for logs, tests and the CLI.
    public var jsonText: String {
        String(decoding: wireBytes, as: UTF8.self)
    }

    /// Serialises in the document form, with sorted keys, so equal values always give equal bytes (hashes,
    /// manifests, golden tests): the bytes of `JSONEncoder` with `.sortedKeys` and `.withoutEscapingSlashes` (and
    /// `.prettyPrinted` when `pretty`).
    ///
    /// - Throws: `EncodingError.invalidValue`, as `JSONEncoder` does, for a non-finite number or containers nested
    ///   `JSONValueWriter.maximumDepth` deep.
    public func serializedBytes(pretty: Bool = false) throws(EncodingError) -> [UInt8] {
        var writer = JSONValueWriter(style: pretty ? .prettyDocument : .document)
        try writer.write(self)
        return writer.bytes
    }
}
