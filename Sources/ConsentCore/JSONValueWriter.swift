import Foundation
import HexText

/// Writes a `JSONValue` as the bytes Foundation's `JSONEncoder` gives it with `.sortedKeys` and
/// `.withoutEscapingSlashes` (and `.prettyPrinted`): keys in UTF-8 byte order, numbers as Swift describes them
/// (a whole `Double` without its ".0"), only `"`, `\` and control characters escaped, two-space indents and
/// `" : "` when pretty.
///
/// A record's resources are serialised several times per consent (files, digests, the bundle); `JSONEncoder`
/// first boxes every value of the tree into its own, and that was about 7 % of a consent's instructions (callgrind).
/// `JSONValueSerializationTests` hold the two to the same bytes.
struct JSONValueWriter {
    /// `JSONEncoder`'s limit: containers nested this deep are refused.
    static let maximumDepth = 512

    let pretty: Bool
    private(set) var bytes: [UInt8] = []
    private var indent = 0

    init(pretty: Bool) {
        self.pretty = pretty
        bytes.reserveCapacity(4096)
    }

    mutating func write(_ value: JSONValue, depth: Int) throws {
        switch value {
        case .null: bytes.append(contentsOf: "null".utf8)
        case .bool(let b): bytes.append(contentsOf: (b ? "true" : "false").utf8)
        case .integer(let i): bytes.append(contentsOf: String(i).utf8)
        case .number(let d):
            guard d.isFinite else {
                throw EncodingError.invalidValue(
                    d,
                    EncodingError.Context(codingPath: [], debugDescription: "Unable to encode Double.\(d) directly in JSON."))
            }
            var text = d.description
            if text.hasSuffix(".0") { text.removeLast(2) }
            bytes.append(contentsOf: text.utf8)
        case .string(let s): writeString(s)
        case .array(let items): try writeArray(items, depth: depth + 1)
        case .object(let members): try writeObject(members, depth: depth + 1)
        }
    }

    private mutating func writeArray(_ items: [JSONValue], depth: Int) throws {
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

    private mutating func writeObject(_ members: [String: JSONValue], depth: Int) throws {
        try checkDepth(depth)
        bytes.append(UInt8(ascii: "{"))
        if pretty {
            bytes.append(UInt8(ascii: "\n"))
            indent += 1
            if !members.isEmpty { writeIndent() }
        }
        let sorted = members.sorted { $0.key.utf8.lexicographicallyPrecedes($1.key.utf8) }
        for (i, member) in sorted.enumerated() {
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
            try write(member.value, depth: depth)
        }
        if pretty {
            bytes.append(UInt8(ascii: "\n"))
            indent -= 1
            writeIndent()
        }
        bytes.append(UInt8(ascii: "}"))
    }

    private func checkDepth(_ depth: Int) throws {
        guard depth < Self.maximumDepth else {
            throw EncodingError.invalidValue(
                depth, EncodingError.Context(codingPath: [], debugDescription: "Too many nested arrays or dictionaries"))
        }
    }

    private mutating func writeIndent() {
        bytes.append(contentsOf: repeatElement(UInt8(ascii: " "), count: 2 * indent))
    }

    private mutating func writeString(_ string: String) {
        bytes.append(UInt8(ascii: "\""))
        var text = string
        text.withUTF8 { utf8 in
            // Runs of bytes that need no escape are copied whole.
            var runStart = 0
            for (i, byte) in utf8.enumerated() where byte < 0x20 || byte == 0x22 || byte == 0x5C {
                bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[runStart..<i]))
                runStart = i + 1
                switch byte {
                case 0x22: bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "\"")])
                case 0x5C: bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "\\")])
                case 0x08: bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "b")])
                case 0x0C: bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "f")])
                case 0x0A: bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "n")])
                case 0x0D: bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "r")])
                case 0x09: bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "t")])
                default:
                    bytes.append(contentsOf: #"\u00"#.utf8)
                    bytes.append(contentsOf: HexText.lowercase(CollectionOfOne(byte)).utf8)
                }
            }
            bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[runStart...]))
        }
        bytes.append(UInt8(ascii: "\""))
    }
}
