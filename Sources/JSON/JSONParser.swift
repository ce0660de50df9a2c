/// The one strict RFC 8259 JSON parser, from bytes straight to `JSONValue`: the wire's lines and the domain's files.
///
/// Foundation's `JSONDecoder` into an enum has to guess each value's type by trying every case, which costs more
/// than the rest of a request's handling; this parser reads each value once. It keeps integers (no fraction, no
/// exponent, within Int64) apart from other numbers, rejects what RFC 8259 rejects (trailing commas, leading
/// zeros, control characters in strings, lone surrogates, trailing garbage), and limits nesting so a hostile line
/// cannot exhaust the stack.
///
/// Documents (records, sessions: `Options.document`) are read as `JSONDecoder` read them before: a whole number
/// written with a fraction or an exponent (`2.5e3`) is an integer, a UTF-8 byte-order mark before the text is
/// skipped, and containers may nest as deep as `JSONDecoder` allowed. Files written for another parser
/// (`Options.lenientDocument`) may also have what Apple's JSONSerialization accepts and RFC 8259 does not: a comma
/// before a closing `}` or `]`. Each such leniency is reported (`parse(_:options:leniencies:)`), never silent.
public struct JSONParser {
    public struct Error: Swift.Error, Sendable, Hashable, CustomStringConvertible {
        /// Byte offset of the fault.
        public var offset: Int
        public var reason: String

        public var description: String { "\(reason) at byte \(offset)" }
    }

    /// Something a lenient parse accepted that RFC 8259 does not, and where.
    public struct Leniency: Sendable, Hashable, CustomStringConvertible {
        public enum Kind: String, Sendable, Hashable {
            /// `{"a": 1,}`: a comma after an object's last member.
            case trailingCommaInObject
            /// `[1, 2,]`: a comma after an array's last element.
            case trailingCommaInArray
        }

        public var kind: Kind
        /// Byte offset of the comma.
        public var offset: Int

        public init(kind: Kind, offset: Int) {
            self.kind = kind
            self.offset = offset
        }

        public var description: String {
            switch kind {
            case .trailingCommaInObject: "a comma after the last member of an object at byte \(offset)"
            case .trailingCommaInArray: "a comma after the last element of an array at byte \(offset)"
            }
        }
    }

    /// How a text is read: the wire's strict form, or a document's.
    public struct Options: Sendable, Hashable {
        /// Containers nested this deep are refused.
        public var maximumDepth: Int
        /// Whether a whole number written with a fraction or an exponent (`2.0`, `2.5e3`) becomes `.integer`.
        public var integralNumbersAreIntegers: Bool
        /// Whether a UTF-8 byte-order mark before the text is skipped.
        public var skipsByteOrderMark: Bool
        /// Whether one comma may follow the last member of an object or the last element of an array, as Apple's
        /// JSONSerialization allows (`[,]`, `{,}` and `[1,,]` stay errors there and here).
        public var acceptsTrailingCommas: Bool

        public init(maximumDepth: Int, integralNumbersAreIntegers: Bool, skipsByteOrderMark: Bool, acceptsTrailingCommas: Bool = false) {
            self.maximumDepth = maximumDepth
            self.integralNumbersAreIntegers = integralNumbersAreIntegers
            self.skipsByteOrderMark = skipsByteOrderMark
            self.acceptsTrailingCommas = acceptsTrailingCommas
        }

        /// The wire's form: a JSON-RPC line (`JSONParser.maximumDepth`).
        public static let wire = Options(maximumDepth: JSONParser.maximumDepth, integralNumbersAreIntegers: false, skipsByteOrderMark: false)
        /// A file's form, as `JSONDecoder` read it (512 deep, as `JSONValueWriter.maximumDepth`).
        public static let document = Options(maximumDepth: 512, integralNumbersAreIntegers: true, skipsByteOrderMark: true)
        /// A document written for Apple's JSONSerialization (a C3-PRO study's files): `document`, and trailing
        /// commas.
        public static let lenientDocument = Options(
            maximumDepth: 512, integralNumbersAreIntegers: true, skipsByteOrderMark: true, acceptsTrailingCommas: true)
    }

    public static let maximumDepth = 64

    private let bytes: UnsafeBufferPointer<UInt8>
    private let options: Options
    private var index = 0
    /// The members of the objects being read, innermost last: an object's members are collected here and become
    /// one dictionary of their exact count at its `}`. Filled one by one, a dictionary grew (a new table and every
    /// key hashed again) at its 2nd, 4th, 7th… member: two or three allocations for most objects of a request.
    private var members: [(String, JSONValue)] = []
    /// What `options` let through that RFC 8259 does not, in the order met.
    private var leniencies: [Leniency] = []

    private init(_ bytes: UnsafeBufferPointer<UInt8>, options: Options) {
        self.bytes = bytes
        self.options = options
    }

    /// Parses exactly one JSON text (surrounding whitespace allowed).
    public static func parse(_ bytes: some Collection<UInt8>, options: Options = .wire) throws(JSONParser.Error) -> JSONValue {
        var ignored: [Leniency] = []
        return try parse(bytes, options: options, leniencies: &ignored)
    }

    /// Parses exactly one JSON text, and adds to `leniencies` what `options` accepted beyond RFC 8259 (nothing
    /// for `wire` and `document`).
    public static func parse(
        _ bytes: some Collection<UInt8>, options: Options, leniencies: inout [Leniency]
    ) throws(JSONParser.Error) -> JSONValue {
        let result: (Result<JSONValue, JSONParser.Error>, [Leniency])? = bytes.withContiguousStorageIfAvailable { buffer in
            parseBuffer(buffer, options: options)
        }
        if let result {
            leniencies += result.1
            return try result.0.get()
        }
        let copy = Array(bytes)
        let (value, found) = copy.withUnsafeBufferPointer { parseBuffer($0, options: options) }
        leniencies += found
        return try value.get()
    }

    private static let byteOrderMark: [UInt8] = [0xEF, 0xBB, 0xBF]

    private static func parseBuffer(
        _ buffer: UnsafeBufferPointer<UInt8>, options: Options
    ) -> (Result<JSONValue, JSONParser.Error>, [Leniency]) {
        var parser = JSONParser(buffer, options: options)
        do throws(JSONParser.Error) {
            if options.skipsByteOrderMark, buffer.starts(with: byteOrderMark) { parser.index = byteOrderMark.count }
            parser.skipWhitespace()
            let value = try parser.value(depth: 0)
            parser.skipWhitespace()
            guard parser.index == buffer.count else { throw parser.fail("unexpected bytes after the JSON value") }
            return (.success(value), parser.leniencies)
        } catch {
            return (.failure(error), [])
        }
    }

    /// After a comma in a container that `close` ends: whether the container ends here instead of going on, which
    /// only a lenient parse allows (the comma is then a leniency of `kind`).
    private mutating func closesAfterComma(_ close: UInt8, at comma: Int, kind: Leniency.Kind) -> Bool {
        guard options.acceptsTrailingCommas else { return false }
        skipWhitespace()
        guard current == close else { return false }
        leniencies.append(Leniency(kind: kind, offset: comma))
        return true
    }

    private func fail(_ reason: String) -> JSONParser.Error {
        JSONParser.Error(offset: index, reason: reason)
    }

    private var current: UInt8? { index < bytes.count ? bytes[index] : nil }

    private mutating func skipWhitespace() {
        while let b = current, b == 0x20 || b == 0x0A || b == 0x0D || b == 0x09 { index += 1 }
    }

    private mutating func value(depth: Int) throws(JSONParser.Error) -> JSONValue {
        guard depth < options.maximumDepth else { throw fail("nesting deeper than \(options.maximumDepth)") }
        guard let b = current else { throw fail("unexpected end of input") }
        switch b {
        case UInt8(ascii: "{"): return try object(depth: depth)
        case UInt8(ascii: "["): return try array(depth: depth)
        case UInt8(ascii: "\""): return .string(try string())
        case UInt8(ascii: "t"): try literal("true"); return .bool(true)
        case UInt8(ascii: "f"): try literal("false"); return .bool(false)
        case UInt8(ascii: "n"): try literal("null"); return .null
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return try number()
        default: throw fail("unexpected character")
        }
    }

    private mutating func literal(_ word: StaticString) throws(JSONParser.Error) {
        let count = word.utf8CodeUnitCount
        guard index + count <= bytes.count else { throw fail("unexpected end of input") }
        for i in 0..<count where bytes[index + i] != word.utf8Start[i] { throw fail("invalid literal") }
        index += count
    }

    private mutating func object(depth: Int) throws(JSONParser.Error) -> JSONValue {
        index += 1
        skipWhitespace()
        if current == UInt8(ascii: "}") {
            index += 1
            return .object([:])
        }
        // Room for the members of a request's objects at once: growing from empty took several allocations.
        if members.capacity == 0 { members.reserveCapacity(16) }
        let first = members.count
        while true {
            skipWhitespace()
            guard current == UInt8(ascii: "\"") else { throw fail("expected a member name") }
            let key = try string()
            skipWhitespace()
            guard current == UInt8(ascii: ":") else { throw fail("expected ':'") }
            index += 1
            skipWhitespace()
            // Read before it is kept: a nested object collects its own members after these and takes them away.
            let member = try value(depth: depth + 1)
            members.append((key, member))
            skipWhitespace()
            switch current {
            case UInt8(ascii: ","):
                index += 1
                if closesAfterComma(UInt8(ascii: "}"), at: index - 1, kind: .trailingCommaInObject) { fallthrough }
            case UInt8(ascii: "}"):
                index += 1
                var object = [String: JSONValue](minimumCapacity: members.count - first)
                // A repeated member: the last one wins, as in most parsers (and JSON-RPC implementations).
                for (key, value) in members[first...] { object[key] = value }
                members.removeSubrange(first...)
                return .object(object)
            default: throw fail("expected ',' or '}'")
            }
        }
    }

    private mutating func array(depth: Int) throws(JSONParser.Error) -> JSONValue {
        index += 1
        var items: [JSONValue] = []
        skipWhitespace()
        if current == UInt8(ascii: "]") {
            index += 1
            return .array(items)
        }
        while true {
            skipWhitespace()
            items.append(try value(depth: depth + 1))
            skipWhitespace()
            switch current {
            case UInt8(ascii: ","):
                index += 1
                if closesAfterComma(UInt8(ascii: "]"), at: index - 1, kind: .trailingCommaInArray) { fallthrough }
            case UInt8(ascii: "]"):
                index += 1
                return .array(items)
            default: throw fail("expected ',' or ']'")
            }
        }
    }

    private mutating func string() throws(JSONParser.Error) -> String {
        index += 1
        let start = index
        // Fast path: no escapes. `seen` is every byte ORed, so a string without a byte above 0x7F (nearly every
        // key, id, method and value on the wire) is ASCII, valid UTF-8 as it is: `String(decoding:as:)` takes it
        // in one copy. `String(validating:as:)` is the standard library's generic validator, which looked up type
        // metadata for every string (about 950 instructions each, an eighth of a request's in FuzzRequest,
        // callgrind), so it checks only the strings that need it.
        var seen: UInt8 = 0
        while let b = current, b != UInt8(ascii: "\""), b != UInt8(ascii: "\\"), b >= 0x20 {
            seen |= b
            index += 1
        }
        if current == UInt8(ascii: "\"") {
            let slice = UnsafeBufferPointer(rebasing: bytes[start..<index])
            index += 1
            if seen < 0x80 { return String(decoding: slice, as: UTF8.self) }
            guard let s = String(validating: slice, as: UTF8.self) else { throw fail("invalid UTF-8 in a string") }
            return s
        }
        var scalars = Array(UnsafeBufferPointer(rebasing: bytes[start..<index]))
        while true {
            guard let b = current else { throw fail("unterminated string") }
            switch b {
            case UInt8(ascii: "\""):
                index += 1
                guard let s = String(validating: scalars, as: UTF8.self) else { throw fail("invalid UTF-8 in a string") }
                return s
            case UInt8(ascii: "\\"):
                index += 1
                guard let e = current else { throw fail("unterminated escape") }
                index += 1
                switch e {
                case UInt8(ascii: "\""): scalars.append(0x22)
                case UInt8(ascii: "\\"): scalars.append(0x5C)
                case UInt8(ascii: "/"): scalars.append(0x2F)
                case UInt8(ascii: "b"): scalars.append(0x08)
                case UInt8(ascii: "f"): scalars.append(0x0C)
                case UInt8(ascii: "n"): scalars.append(0x0A)
                case UInt8(ascii: "r"): scalars.append(0x0D)
                case UInt8(ascii: "t"): scalars.append(0x09)
                case UInt8(ascii: "u"):
                    var code = try hex4()
                    if (0xD800...0xDBFF).contains(code) {
                        guard current == UInt8(ascii: "\\"), index + 1 < bytes.count, bytes[index + 1] == UInt8(ascii: "u")
                        else { throw fail("a high surrogate without its low surrogate") }
                        index += 2
                        let low = try hex4()
                        guard (0xDC00...0xDFFF).contains(low) else { throw fail("invalid low surrogate") }
                        code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00)
                    } else if (0xDC00...0xDFFF).contains(code) {
                        throw fail("a lone low surrogate")
                    }
                    guard let scalar = Unicode.Scalar(code) else { throw fail("invalid \\u escape") }
                    scalars.append(contentsOf: String(Character(scalar)).utf8)
                default: throw fail("invalid escape")
                }
            case 0..<0x20:
                throw fail("a control character in a string must be escaped")
            default:
                scalars.append(b)
                index += 1
            }
        }
    }

    private mutating func hex4() throws(JSONParser.Error) -> UInt32 {
        guard index + 4 <= bytes.count else { throw fail("short \\u escape") }
        var value: UInt32 = 0
        for _ in 0..<4 {
            let b = bytes[index]
            let digit: UInt8
            switch b {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = b - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = b - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = b - UInt8(ascii: "A") + 10
            default: throw fail("invalid hex digit")
            }
            value = value << 4 | UInt32(digit)
            index += 1
        }
        return value
    }

    private mutating func number() throws(JSONParser.Error) -> JSONValue {
        let start = index
        if current == UInt8(ascii: "-") { index += 1 }
        guard let first = current, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(first) else {
            throw fail("expected a digit")
        }
        index += 1
        if first != UInt8(ascii: "0") { skipDigits() }
        var isInteger = true
        if current == UInt8(ascii: ".") {
            isInteger = false
            index += 1
            guard try requireDigit() else { throw fail("expected a digit after '.'") }
        }
        if current == UInt8(ascii: "e") || current == UInt8(ascii: "E") {
            isInteger = false
            index += 1
            if current == UInt8(ascii: "+") || current == UInt8(ascii: "-") { index += 1 }
            guard try requireDigit() else { throw fail("expected a digit in the exponent") }
        }
        let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self)
        if isInteger, let i = Int64(text) { return .integer(i) }
        guard let d = Double(text), d.isFinite else { throw fail("number out of range") }
        if !isInteger, options.integralNumbersAreIntegers, let i = Int64(exactly: d) { return .integer(i) }
        return .number(d)
    }

    private mutating func requireDigit() throws(JSONParser.Error) -> Bool {
        guard let b = current, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(b) else { return false }
        skipDigits()
        return true
    }

    private mutating func skipDigits() {
        while let b = current, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(b) { index += 1 }
    }
}
