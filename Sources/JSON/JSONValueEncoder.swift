/// Encodes any `Encodable` into a `JSONValue` tree: the Codable side of the one writer, so a Codable struct's file
/// (a record's manifest, a queue entry, an audit line) and a wire value (`RPCValue(encoding:)`) are written by
/// `JSONValueWriter` like every other JSON text instead of by a second writer in Foundation.
///
/// The tree is what Foundation's `JSONEncoder`'s text reads back as (`JSONParser`): whole numbers as integers and
/// the rest as doubles (a `Double` or `Float` by its shortest digits, a whole one without its ".0"), `EncodingError
/// .invalidValue` for a non-finite number and for a top-level value that encodes nothing, `{}` for a nested one.
/// Written in a document style (`encodedBytes`), that is `JSONEncoder`'s bytes with `.sortedKeys` (and
/// `.prettyPrinted`, and `.withoutEscapingSlashes` unless `escapingSlashes`); a `UInt64` above `Int64.max`, which the
/// tree holds as a `Double`, is the one value it writes otherwise (nothing the project writes comes near one).
///
/// The JSON module knows nothing of Foundation, so Foundation's own types are the caller's to map (`Special`: as
/// `JSONEncoder`'s base64 `Data`, its `URL` as a string, a `.custom` date strategy); JSONFoundation's
/// `JSONValueEncoder.foundation` gives `JSONEncoder`'s defaults for them. `JSONValueEncoderTests` and
/// `RPCValueEncoderTests` hold the tree and the bytes to `JSONEncoder`'s.
public struct JSONValueEncoder: Sendable {
    /// The JSON value of values of a few types the JSON module cannot name. Only values of `types` are handed to
    /// `encode`: everything else is told apart by its metatype alone, since boxing each value into an existential
    /// (or a failed cast to a Foundation type) costs more than encoding a small struct.
    public struct Special: Sendable {
        let types: SpecialTypes
        let encode: @Sendable (_ value: any Encodable, _ codingPath: [any CodingKey]) throws -> JSONValue

        public init(
            types: [any Encodable.Type],
            encode: @escaping @Sendable (_ value: any Encodable, _ codingPath: [any CodingKey]) throws -> JSONValue
        ) {
            self.types = SpecialTypes(types)
            self.encode = encode
        }

        func handles(_ type: Any.Type) -> Bool { types.contains(type) }
    }

    public var special: Special?

    public init(special: Special? = nil) {
        self.special = special
    }

    /// The value's tree.
    ///
    /// - Throws: `EncodingError.invalidValue` for a non-finite number or a top-level value that encodes nothing,
    ///   or what a type's own `encode(to:)` throws.
    public func encode(_ value: some Encodable) throws -> JSONValue {
        guard let result = try JSONValueEncoding.box(value, codingPath: [], special: special) else {
            throw EncodingError.invalidValue(
                value,
                EncodingError.Context(codingPath: [], debugDescription: "Top-level \(type(of: value)) did not encode any values."))
        }
        return result
    }

    /// The value's bytes in a document style: `JSONEncoder`'s with `.sortedKeys`, `.prettyPrinted` when `pretty`,
    /// and `.withoutEscapingSlashes` unless `escapingSlashes`.
    ///
    /// - Throws: as `encode(_:)`, and `EncodingError.invalidValue` for containers nested
    ///   `JSONValueWriter.maximumDepth` deep.
    public func encodedBytes(_ value: some Encodable, pretty: Bool = false, escapingSlashes: Bool = false) throws -> [UInt8] {
        var writer = JSONValueWriter(style: pretty ? .prettyDocument : .document, escapesSlashes: escapingSlashes)
        try writer.write(encode(value))
        return writer.bytes
    }
}

/// The encoder's storage and containers.
enum JSONValueEncoding {
    /// A value encoded on its own: nil when it encoded nothing.
    static func box<T: Encodable>(_ value: T, codingPath: [any CodingKey], special: JSONValueEncoder.Special?) throws -> JSONValue? {
        // Types are told apart by their metatype before any cast (see `Special`). T is always the value's own type
        // here: an `any Encodable` is opened when it is passed to a generic parameter.
        if T.self == String.self, let string = value as? String { return .string(string) }
        if T.self == Bool.self, let bool = value as? Bool { return .bool(bool) }
        if T.self == Int.self, let int = value as? Int { return .integer(Int64(int)) }
        if T.self == Double.self, let double = value as? Double { return try number(double, codingPath: codingPath) }
        if T.self == JSONValue.self, let tree = value as? JSONValue { return try checked(tree, codingPath: codingPath) }
        if let special, special.handles(T.self) { return try special.encode(value, codingPath) }
        let encoder = Node(codingPath: codingPath, special: special)
        try value.encode(to: encoder)
        return encoder.storage.value
    }

    /// A tree handed in whole, as `JSONValue`'s own `encode(to:)` would have written it: its numbers refused when
    /// not finite, a whole `.number` an integer (as the text `JSONEncoder` wrote for it reads back).
    static func checked(_ tree: JSONValue, codingPath: [any CodingKey]) throws -> JSONValue {
        switch tree {
        case .number(let d): return try number(d, codingPath: codingPath)
        case .array(let items): return .array(try items.map { try checked($0, codingPath: codingPath) })
        case .object(let members): return .object(try members.mapValues { try checked($0, codingPath: codingPath) })
        default: return tree
        }
    }

    /// The value `JSONParser` reads from the text `JSONEncoder` writes for a `Double` or `Float` (its shortest
    /// digits, a whole number without its ".0").
    static func number<F: BinaryFloatingPoint & CustomStringConvertible>(_ value: F, codingPath: [any CodingKey]) throws -> JSONValue {
        guard value.isFinite else {
            throw EncodingError.invalidValue(
                value,
                EncodingError.Context(codingPath: codingPath, debugDescription: "Unable to encode \(F.self).\(value) directly in JSON."))
        }
        var text = value.description
        if text.hasSuffix(".0") { text.removeLast(2) }
        return number(jsonText: text)
    }

    /// As `JSONParser` reads a number: an integer when it has no fraction or exponent and fits Int64.
    static func number(jsonText text: String) -> JSONValue {
        if !text.utf8.contains(where: { $0 == UInt8(ascii: ".") || $0 == UInt8(ascii: "e") || $0 == UInt8(ascii: "E") }),
            let integer = Int64(text)
        {
            return .integer(integer)
        }
        return .number(Double(text) ?? 0)
    }

    static func integer(_ value: some FixedWidthInteger) -> JSONValue {
        Int64(exactly: value).map(JSONValue.integer) ?? number(jsonText: String(value))
    }

    /// A value under construction: containers hand out references to it, so nested containers and super encoders
    /// fill it in place, as JSONEncoder's do.
    final class Storage {
        enum Content {
            case empty
            case value(JSONValue)
            case array([Storage])
            case object([String: Storage])
        }
        var content = Content.empty

        /// Nil when nothing was encoded; a nested container that stayed empty is `{}`, as in JSONEncoder.
        var value: JSONValue? {
            switch content {
            case .empty: return nil
            case .value(let value): return value
            case .array(let items): return .array(items.map { $0.value ?? .object([:]) })
            case .object(let members): return .object(members.mapValues { $0.value ?? .object([:]) })
            }
        }

        func makeObject() {
            if case .object = content { return }
            content = .object([:])
        }

        func makeArray() {
            if case .array = content { return }
            content = .array([])
        }

        func member(_ key: String) -> Storage {
            makeObject()
            let child = Storage()
            if case .object(var members) = content {
                content = .empty  // keep the dictionary uniquely referenced while it changes
                members[key] = child
                content = .object(members)
            }
            return child
        }

        func appended() -> Storage {
            makeArray()
            let child = Storage()
            if case .array(var items) = content {
                content = .empty
                items.append(child)
                content = .array(items)
            }
            return child
        }

        var count: Int {
            if case .array(let items) = content { return items.count }
            return 0
        }
    }

    final class Node: Encoder {
        let codingPath: [any CodingKey]
        let storage: Storage
        let special: JSONValueEncoder.Special?
        var userInfo: [CodingUserInfoKey: Any] { [:] }

        init(codingPath: [any CodingKey], storage: Storage = Storage(), special: JSONValueEncoder.Special?) {
            self.codingPath = codingPath
            self.storage = storage
            self.special = special
        }

        func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
            storage.makeObject()
            return KeyedEncodingContainer(Keyed<Key>(storage: storage, codingPath: codingPath, special: special))
        }

        func unkeyedContainer() -> any UnkeyedEncodingContainer {
            storage.makeArray()
            return Unkeyed(storage: storage, codingPath: codingPath, special: special)
        }

        func singleValueContainer() -> any SingleValueEncodingContainer {
            Single(storage: storage, codingPath: codingPath, special: special)
        }
    }

    struct Keyed<Key: CodingKey>: KeyedEncodingContainerProtocol {
        let storage: Storage
        let codingPath: [any CodingKey]
        let special: JSONValueEncoder.Special?

        private func set(_ value: JSONValue, _ key: Key) { storage.member(key.stringValue).content = .value(value) }

        mutating func encodeNil(forKey key: Key) throws { set(.null, key) }
        mutating func encode(_ value: Bool, forKey key: Key) throws { set(.bool(value), key) }
        mutating func encode(_ value: String, forKey key: Key) throws { set(.string(value), key) }
        mutating func encode(_ value: Double, forKey key: Key) throws {
            set(try JSONValueEncoding.number(value, codingPath: codingPath + [key]), key)
        }
        mutating func encode(_ value: Float, forKey key: Key) throws {
            set(try JSONValueEncoding.number(value, codingPath: codingPath + [key]), key)
        }
        mutating func encode(_ value: Int, forKey key: Key) throws { set(JSONValueEncoding.integer(value), key) }
        mutating func encode(_ value: Int8, forKey key: Key) throws { set(JSONValueEncoding.integer(value), key) }
        mutating func encode(_ value: Int16, forKey key: Key) throws { set(JSONValueEncoding.integer(value), key) }
        mutating func encode(_ value: Int32, forKey key: Key) throws { set(JSONValueEncoding.integer(value), key) }
        mutating func encode(_ value: Int64, forKey key: Key) throws { set(JSONValueEncoding.integer(value), key) }
        mutating func encode(_ value: UInt, forKey key: Key) throws { set(JSONValueEncoding.integer(value), key) }
        mutating func encode(_ value: UInt8, forKey key: Key) throws { set(JSONValueEncoding.integer(value), key) }
        mutating func encode(_ value: UInt16, forKey key: Key) throws { set(JSONValueEncoding.integer(value), key) }
        mutating func encode(_ value: UInt32, forKey key: Key) throws { set(JSONValueEncoding.integer(value), key) }
        mutating func encode(_ value: UInt64, forKey key: Key) throws { set(JSONValueEncoding.integer(value), key) }
        mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
            let boxed = try JSONValueEncoding.box(value, codingPath: codingPath + [key], special: special)
            set(boxed ?? .object([:]), key)
        }
        mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type, forKey key: Key)
            -> KeyedEncodingContainer<NestedKey>
        {
            let child = storage.member(key.stringValue)
            child.makeObject()
            return KeyedEncodingContainer(Keyed<NestedKey>(storage: child, codingPath: codingPath + [key], special: special))
        }
        mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
            let child = storage.member(key.stringValue)
            child.makeArray()
            return Unkeyed(storage: child, codingPath: codingPath + [key], special: special)
        }
        mutating func superEncoder() -> any Encoder {
            Node(codingPath: codingPath + [SuperKey.super], storage: storage.member(SuperKey.super.stringValue), special: special)
        }
        mutating func superEncoder(forKey key: Key) -> any Encoder {
            Node(codingPath: codingPath + [key], storage: storage.member(key.stringValue), special: special)
        }
    }

    /// What an unkeyed and a single-value container share: each encodes one value into the place it stands for
    /// (a new element, or the value itself) at `valuePath`.
    protocol ValueSink {
        var valuePath: [any CodingKey] { get }
        var special: JSONValueEncoder.Special? { get }
        mutating func put(_ value: JSONValue)
    }

    struct Unkeyed: UnkeyedEncodingContainer, ValueSink {
        let storage: Storage
        let codingPath: [any CodingKey]
        let special: JSONValueEncoder.Special?
        var count: Int { storage.count }

        var valuePath: [any CodingKey] { codingPath + [IndexKey(intValue: count)] }
        mutating func put(_ value: JSONValue) { storage.appended().content = .value(value) }

        mutating func nestedContainer<NestedKey: CodingKey>(
            keyedBy keyType: NestedKey.Type
        ) -> KeyedEncodingContainer<NestedKey> {
            let path = valuePath
            let child = storage.appended()
            child.makeObject()
            return KeyedEncodingContainer(Keyed<NestedKey>(storage: child, codingPath: path, special: special))
        }
        mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
            let path = valuePath
            let child = storage.appended()
            child.makeArray()
            return Unkeyed(storage: child, codingPath: path, special: special)
        }
        mutating func superEncoder() -> any Encoder {
            let path = valuePath
            return Node(codingPath: path, storage: storage.appended(), special: special)
        }
    }

    struct Single: SingleValueEncodingContainer, ValueSink {
        let storage: Storage
        let codingPath: [any CodingKey]
        let special: JSONValueEncoder.Special?

        var valuePath: [any CodingKey] { codingPath }
        mutating func put(_ value: JSONValue) { storage.content = .value(value) }
    }

    struct IndexKey: CodingKey {
        var intValue: Int?
        var stringValue: String { "Index \(intValue ?? 0)" }
        init(intValue: Int) { self.intValue = intValue }
        init?(stringValue: String) { nil }
    }

    enum SuperKey: String, CodingKey { case `super` }
}

extension JSONValueEncoding.ValueSink {
    mutating func encodeNil() throws { put(.null) }
    mutating func encode(_ value: Bool) throws { put(.bool(value)) }
    mutating func encode(_ value: String) throws { put(.string(value)) }
    mutating func encode(_ value: Double) throws { put(try JSONValueEncoding.number(value, codingPath: valuePath)) }
    mutating func encode(_ value: Float) throws { put(try JSONValueEncoding.number(value, codingPath: valuePath)) }
    mutating func encode(_ value: Int) throws { put(JSONValueEncoding.integer(value)) }
    mutating func encode(_ value: Int8) throws { put(JSONValueEncoding.integer(value)) }
    mutating func encode(_ value: Int16) throws { put(JSONValueEncoding.integer(value)) }
    mutating func encode(_ value: Int32) throws { put(JSONValueEncoding.integer(value)) }
    mutating func encode(_ value: Int64) throws { put(JSONValueEncoding.integer(value)) }
    mutating func encode(_ value: UInt) throws { put(JSONValueEncoding.integer(value)) }
    mutating func encode(_ value: UInt8) throws { put(JSONValueEncoding.integer(value)) }
    mutating func encode(_ value: UInt16) throws { put(JSONValueEncoding.integer(value)) }
    mutating func encode(_ value: UInt32) throws { put(JSONValueEncoding.integer(value)) }
    mutating func encode(_ value: UInt64) throws { put(JSONValueEncoding.integer(value)) }
    mutating func encode<T: Encodable>(_ value: T) throws {
        put(try JSONValueEncoding.box(value, codingPath: valuePath, special: special) ?? .object([:]))
    }
}

/// The few types a `Special` of the Codable bridge handles (Foundation's `Date`, `Data`, `URL`), told apart by
/// metatype: a short list, searched in order, for the encoder and the decoder alike.
struct SpecialTypes: Sendable {
    private let ids: [ObjectIdentifier]

    init(_ types: [Any.Type]) { ids = types.map { ObjectIdentifier($0) } }

    func contains(_ type: Any.Type) -> Bool {
        let id = ObjectIdentifier(type)
        for candidate in ids where candidate == id { return true }
        return false
    }
}
