/// Decodes any `Decodable` from a `JSONValue` tree: the Codable side of the one parser, so a file written as a
/// Codable struct (a record's manifest, a queue entry, the staff file, an audit line) is read by `JSONParser` like
/// every other JSON text instead of by a second parser in Foundation.
///
/// It reads what Foundation's `JSONDecoder` read with its default options, from the same tree `JSONParser`'s
/// document form gives (`JSONParser.Options.document`: a byte-order mark skipped, 512 deep): a number fits an integer
/// type when it is whole and in range (`2.0` and `2.5e3` are integers, `2.5` is not), a `Double` reads any number, a
/// `Float` a number within its range, a `Bool` only `true`/`false`, a missing key or `null` is nil for an optional,
/// and `[String: X]` reads an object. The text is held to RFC 8259, as every JSON text the project reads: a trailing
/// comma, which `JSONDecoder` let through, is refused (nothing the project writes has one). Numbers beyond Int64 are held as `Double` by the tree, so a `UInt64` above
/// 2^63 is read exactly only up to 2^53 steps (nothing the project writes comes near: counters and nanoseconds).
///
/// The JSON module knows nothing of Foundation, so Foundation's own types are the caller's to map (`Special`: as
/// `JSONDecoder`'s `.custom` date strategy, its base64 `Data` and its `URL` from a string do); JSONFoundation's
/// `JSONValueDecoder.foundation` gives `JSONDecoder`'s defaults for them. Without it, such a type decodes through its
/// own `init(from:)` (a `Data` as an array of bytes).
///
/// A `JSONValue` member (a device description, a FHIR element) is the tree as it was read, not re-guessed case by
/// case. Recursion follows the decoded type's nesting, not the input's: only a recursive type could go deeper, and
/// the tree itself is bounded by the parser's depth limit.
public struct JSONValueDecoder: Sendable {
    /// How values of a few types the JSON module cannot name (Foundation's `Date`, `Data`, `URL`) are decoded: only
    /// values of `types` are handed to `decode`, with the decoder of that value; every other type is told apart by
    /// its metatype alone and decodes through its own `init(from:)`.
    public struct Special: Sendable {
        let types: SpecialTypes
        let decode: @Sendable (_ type: any Decodable.Type, _ decoder: any Decoder) throws -> Any

        public init(
            types: [any Decodable.Type], decode: @escaping @Sendable (_ type: any Decodable.Type, _ decoder: any Decoder) throws -> Any
        ) {
            self.types = SpecialTypes(types)
            self.decode = decode
        }

        func handles(_ type: Any.Type) -> Bool { types.contains(type) }
    }

    public var special: Special?

    public init(special: Special? = nil) {
        self.special = special
    }

    /// Why a value could not be decoded, and where: `codingPath` as a reader finds it in the file
    /// (`staff[0].iterations`; empty for the whole text).
    public struct Error: Swift.Error, Sendable, CustomStringConvertible {
        public enum Kind: Sendable, Hashable {
            /// The bytes are not one JSON text (`JSONParser.Error`).
            case notJSON
            /// A value of another JSON type than the Swift type reads ("expected a string, found a number").
            case typeMismatch
            /// An object without a member the type requires.
            case missingKey
            /// `null`, or the end of an array, where a value is required.
            case missingValue
            /// A value of the right JSON type the type refused (a number out of range, an unknown enum case, a
            /// type's own check).
            case invalidValue
        }

        public var kind: Kind
        public var codingPath: String
        public var reason: String
        /// The error a type's own `init(from:)` threw, or the parser's.
        public var underlying: (any Swift.Error)?

        public init(_ kind: Kind, codingPath: String, reason: String, underlying: (any Swift.Error)? = nil) {
            self.kind = kind
            self.codingPath = codingPath
            self.reason = reason
            self.underlying = underlying
        }

        public var description: String { codingPath.isEmpty ? reason : "\(codingPath): \(reason)" }
    }

    /// Parses `bytes` as a JSON document (`JSONParser.Options.document`) and decodes `type` from it.
    ///
    /// - Throws: `JSONValueDecoder.Error`: `.notJSON` when the bytes are not one JSON text, else as
    ///   `decode(_:from:)` for a value.
    public func decode<T: Decodable>(_ type: T.Type, from bytes: some Collection<UInt8>) throws(Error) -> T {
        let value: JSONValue
        do {
            value = try JSONParser.parse(bytes, options: .document)
        } catch {
            throw Error(.notJSON, codingPath: "", reason: "not JSON: \(error)", underlying: error)
        }
        return try decode(type, from: value)
    }

    /// Decodes `type` from a value already parsed.
    ///
    /// - Throws: `JSONValueDecoder.Error` naming the coding path of the first value that does not fit.
    public func decode<T: Decodable>(_ type: T.Type, from value: JSONValue) throws(Error) -> T {
        do {
            return try JSONValueDecoding.Node(value, codingPath: [], special: special).unbox(type)
        } catch let error as DecodingError {
            throw Error(error)
        } catch {
            throw Error(.invalidValue, codingPath: "", reason: "\(error)", underlying: error)
        }
    }
}

extension JSONValueDecoder.Error {
    /// The `DecodingError` a container (or a type's own `init(from:)`) threw, with its path written out.
    init(_ error: DecodingError) {
        switch error {
        case .typeMismatch(_, let context):
            self.init(.typeMismatch, codingPath: Self.path(context.codingPath), reason: context.debugDescription, underlying: error)
        case .valueNotFound(_, let context):
            self.init(.missingValue, codingPath: Self.path(context.codingPath), reason: context.debugDescription, underlying: error)
        case .keyNotFound(let key, let context):
            self.init(
                .missingKey, codingPath: Self.path(context.codingPath), reason: "no member \"\(key.stringValue)\"",
                underlying: error)
        case .dataCorrupted(let context):
            self.init(.invalidValue, codingPath: Self.path(context.codingPath), reason: context.debugDescription, underlying: error)
        @unknown default:
            self.init(.invalidValue, codingPath: "", reason: "\(error)", underlying: error)
        }
    }

    /// A coding path as it reads in the file: `staff[0].iterations`.
    static func path(_ codingPath: [any CodingKey]) -> String {
        var text = ""
        for key in codingPath {
            // An array's index, ours or the standard library's (`DecodingError.dataCorruptedError(in:)`).
            if let index = key.intValue, key.stringValue == "Index \(index)" {
                text += "[\(index)]"
            } else {
                if !text.isEmpty { text += "." }
                text += key.stringValue
            }
        }
        return text
    }
}

/// The decoder's containers: each holds the part of the tree it reads and its coding path.
enum JSONValueDecoding {
    struct IndexKey: CodingKey {
        var intValue: Int?
        var stringValue: String { "Index \(intValue ?? 0)" }
        init(intValue: Int) { self.intValue = intValue }
        init?(stringValue: String) { nil }
    }

    /// The decoder of one value, and its single-value container.
    struct Node: Decoder, SingleValueDecodingContainer {
        let value: JSONValue
        let codingPath: [any CodingKey]
        let special: JSONValueDecoder.Special?
        var userInfo: [CodingUserInfoKey: Any] { [:] }

        init(_ value: JSONValue, codingPath: [any CodingKey], special: JSONValueDecoder.Special?) {
            self.value = value
            self.codingPath = codingPath
            self.special = special
        }

        func child(_ value: JSONValue, _ key: any CodingKey) -> Node {
            Node(value, codingPath: codingPath + [key], special: special)
        }

        /// The value decoded as `T`: the tree itself for a `JSONValue`, else what `special` or `T` makes of it.
        func unbox<T: Decodable>(_ type: T.Type) throws -> T {
            if T.self == JSONValue.self, let tree = value as? T { return tree }
            if let special, special.handles(T.self) {
                let decoded = try special.decode(type, self)
                guard let typed = decoded as? T else {
                    throw DecodingError.dataCorrupted(
                        .init(codingPath: codingPath, debugDescription: "the special decoder gave \(Swift.type(of: decoded)) for \(T.self)"))
                }
                return typed
            }
            return try T(from: self)
        }

        // MARK: Decoder

        func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
            guard case .object(let members) = value else { throw mismatch(expected: "an object", [String: JSONValue].self) }
            return KeyedDecodingContainer(Keyed<Key>(members: members, node: self))
        }

        func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
            guard case .array(let items) = value else { throw mismatch(expected: "an array", [JSONValue].self) }
            return Unkeyed(items: items, node: self)
        }

        func singleValueContainer() throws -> any SingleValueDecodingContainer { self }

        // MARK: SingleValueDecodingContainer

        func decodeNil() -> Bool { value.isNull }

        func decode(_ type: Bool.Type) throws -> Bool {
            guard case .bool(let b) = value else { throw mismatch(expected: "a boolean", type) }
            return b
        }

        func decode(_ type: String.Type) throws -> String {
            guard case .string(let s) = value else { throw mismatch(expected: "a string", type) }
            return s
        }

        func decode(_ type: Double.Type) throws -> Double {
            switch value {
            case .integer(let i): return Double(i)
            case .number(let d): return d
            default: throw mismatch(expected: "a number", type)
            }
        }

        func decode(_ type: Float.Type) throws -> Float {
            let d = try decode(Double.self)
            guard abs(d) <= Double(Float.greatestFiniteMagnitude) else {
                throw DecodingError.dataCorrupted(
                    .init(codingPath: codingPath, debugDescription: "the number \(d) does not fit in Float"))
            }
            // As `JSONDecoder`: a number that only rounds to zero as a Float is refused, not read as 0.
            guard d == 0 || Float(d) != 0 else {
                throw DecodingError.dataCorrupted(
                    .init(codingPath: codingPath, debugDescription: "the number \(d) does not fit in Float"))
            }
            return Float(d)
        }

        func decode(_ type: Int.Type) throws -> Int { try integer(type) }
        func decode(_ type: Int8.Type) throws -> Int8 { try integer(type) }
        func decode(_ type: Int16.Type) throws -> Int16 { try integer(type) }
        func decode(_ type: Int32.Type) throws -> Int32 { try integer(type) }
        func decode(_ type: Int64.Type) throws -> Int64 { try integer(type) }
        func decode(_ type: UInt.Type) throws -> UInt { try integer(type) }
        func decode(_ type: UInt8.Type) throws -> UInt8 { try integer(type) }
        func decode(_ type: UInt16.Type) throws -> UInt16 { try integer(type) }
        func decode(_ type: UInt32.Type) throws -> UInt32 { try integer(type) }
        func decode(_ type: UInt64.Type) throws -> UInt64 { try integer(type) }

        func decode<T: Decodable>(_ type: T.Type) throws -> T { try unbox(type) }

        /// A whole number in range, as `JSONDecoder` reads one (`2.0` is 2, `2.5` and `300` for a UInt8 fail).
        private func integer<I: FixedWidthInteger>(_ type: I.Type) throws -> I {
            let fitted: I?
            switch value {
            case .integer(let i): fitted = I(exactly: i)
            case .number(let d): fitted = I(exactly: d)
            default: throw mismatch(expected: "an integer", type)
            }
            guard let fitted else {
                throw DecodingError.dataCorrupted(
                    .init(codingPath: codingPath, debugDescription: "the number \(numberText) does not fit in \(I.self)"))
            }
            return fitted
        }

        private var numberText: String {
            switch value {
            case .integer(let i): return String(i)
            case .number(let d): return d.description
            default: return value.typeName
            }
        }

        /// `null` where a value is required is `valueNotFound`, any other JSON type `typeMismatch`, as in
        /// `JSONDecoder`.
        func mismatch(expected: String, _ type: Any.Type) -> DecodingError {
            let context = DecodingError.Context(
                codingPath: codingPath, debugDescription: "expected \(expected), found \(value.typeName)")
            return value.isNull ? .valueNotFound(type, context) : .typeMismatch(type, context)
        }
    }

    struct Keyed<Key: CodingKey>: KeyedDecodingContainerProtocol {
        let members: [String: JSONValue]
        let node: Node

        var codingPath: [any CodingKey] { node.codingPath }
        var allKeys: [Key] { members.keys.compactMap { Key(stringValue: $0) } }

        func contains(_ key: Key) -> Bool { members[key.stringValue] != nil }

        private func member(_ key: Key) throws -> Node {
            guard let value = members[key.stringValue] else {
                throw DecodingError.keyNotFound(
                    key, .init(codingPath: codingPath, debugDescription: "no member \"\(key.stringValue)\""))
            }
            return node.child(value, key)
        }

        func decodeNil(forKey key: Key) throws -> Bool { try member(key).decodeNil() }
        func decode(_ type: Bool.Type, forKey key: Key) throws -> Bool { try member(key).decode(type) }
        func decode(_ type: String.Type, forKey key: Key) throws -> String { try member(key).decode(type) }
        func decode(_ type: Double.Type, forKey key: Key) throws -> Double { try member(key).decode(type) }
        func decode(_ type: Float.Type, forKey key: Key) throws -> Float { try member(key).decode(type) }
        func decode(_ type: Int.Type, forKey key: Key) throws -> Int { try member(key).decode(type) }
        func decode(_ type: Int8.Type, forKey key: Key) throws -> Int8 { try member(key).decode(type) }
        func decode(_ type: Int16.Type, forKey key: Key) throws -> Int16 { try member(key).decode(type) }
        func decode(_ type: Int32.Type, forKey key: Key) throws -> Int32 { try member(key).decode(type) }
        func decode(_ type: Int64.Type, forKey key: Key) throws -> Int64 { try member(key).decode(type) }
        func decode(_ type: UInt.Type, forKey key: Key) throws -> UInt { try member(key).decode(type) }
        func decode(_ type: UInt8.Type, forKey key: Key) throws -> UInt8 { try member(key).decode(type) }
        func decode(_ type: UInt16.Type, forKey key: Key) throws -> UInt16 { try member(key).decode(type) }
        func decode(_ type: UInt32.Type, forKey key: Key) throws -> UInt32 { try member(key).decode(type) }
        func decode(_ type: UInt64.Type, forKey key: Key) throws -> UInt64 { try member(key).decode(type) }
        func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T { try member(key).unbox(type) }

        func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type, forKey key: Key) throws
            -> KeyedDecodingContainer<NestedKey>
        {
            try member(key).container(keyedBy: type)
        }

        func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
            try member(key).unkeyedContainer()
        }

        /// As `JSONDecoder`: a missing member decodes as `null`.
        func superDecoder() throws -> any Decoder {
            node.child(members["super"] ?? .null, SuperKey.super)
        }

        func superDecoder(forKey key: Key) throws -> any Decoder {
            node.child(members[key.stringValue] ?? .null, key)
        }
    }

    enum SuperKey: String, CodingKey { case `super` }

    struct Unkeyed: UnkeyedDecodingContainer {
        let items: [JSONValue]
        let node: Node
        private(set) var currentIndex = 0

        init(items: [JSONValue], node: Node) {
            self.items = items
            self.node = node
        }

        var codingPath: [any CodingKey] { node.codingPath }
        var count: Int? { items.count }
        var isAtEnd: Bool { currentIndex >= items.count }

        /// The next element's decoder; the index moves on only once the element decoded, as in `JSONDecoder`.
        private func next(_ type: Any.Type) throws -> Node {
            guard !isAtEnd else {
                throw DecodingError.valueNotFound(
                    type,
                    .init(
                        codingPath: codingPath + [IndexKey(intValue: currentIndex)],
                        debugDescription: "the array ends after \(items.count) elements"))
            }
            return node.child(items[currentIndex], IndexKey(intValue: currentIndex))
        }

        private mutating func take<T>(_ type: T.Type, _ read: (Node) throws -> T) throws -> T {
            let value = try read(next(type))
            currentIndex += 1
            return value
        }

        mutating func decodeNil() throws -> Bool {
            guard try next(Never.self).decodeNil() else { return false }
            currentIndex += 1
            return true
        }

        mutating func decode(_ type: Bool.Type) throws -> Bool { try take(type) { try $0.decode(type) } }
        mutating func decode(_ type: String.Type) throws -> String { try take(type) { try $0.decode(type) } }
        mutating func decode(_ type: Double.Type) throws -> Double { try take(type) { try $0.decode(type) } }
        mutating func decode(_ type: Float.Type) throws -> Float { try take(type) { try $0.decode(type) } }
        mutating func decode(_ type: Int.Type) throws -> Int { try take(type) { try $0.decode(type) } }
        mutating func decode(_ type: Int8.Type) throws -> Int8 { try take(type) { try $0.decode(type) } }
        mutating func decode(_ type: Int16.Type) throws -> Int16 { try take(type) { try $0.decode(type) } }
        mutating func decode(_ type: Int32.Type) throws -> Int32 { try take(type) { try $0.decode(type) } }
        mutating func decode(_ type: Int64.Type) throws -> Int64 { try take(type) { try $0.decode(type) } }
        mutating func decode(_ type: UInt.Type) throws -> UInt { try take(type) { try $0.decode(type) } }
        mutating func decode(_ type: UInt8.Type) throws -> UInt8 { try take(type) { try $0.decode(type) } }
        mutating func decode(_ type: UInt16.Type) throws -> UInt16 { try take(type) { try $0.decode(type) } }
        mutating func decode(_ type: UInt32.Type) throws -> UInt32 { try take(type) { try $0.decode(type) } }
        mutating func decode(_ type: UInt64.Type) throws -> UInt64 { try take(type) { try $0.decode(type) } }
        mutating func decode<T: Decodable>(_ type: T.Type) throws -> T { try take(type) { try $0.unbox(type) } }

        mutating func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type) throws
            -> KeyedDecodingContainer<NestedKey>
        {
            try take(KeyedDecodingContainer<NestedKey>.self) { try $0.container(keyedBy: type) }
        }

        mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer {
            try take((any UnkeyedDecodingContainer).self) { try $0.unkeyedContainer() }
        }

        mutating func superDecoder() throws -> any Decoder {
            try take((any Decoder).self) { $0 }
        }
    }
}
