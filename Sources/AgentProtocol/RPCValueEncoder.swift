import Foundation

/// Encodes an `Encodable` domain value (a view model, a pad's description) straight into an `RPCValue`.
///
/// The result is what `JSONEncoder` followed by `JSONParser` gives, which is how `RPCValue(encoding:)` made it
/// before: whole numbers as integers and the rest as doubles (as the parser reads the encoder's text), `Data` as
/// base64, a `URL` as its absolute string, a `Decimal` as a number, `EncodingError.invalidValue` for a non-finite
/// number and for a top-level value that encodes nothing, `{}` for a nested one. Through text, a flow's view model
/// (in every reply) was the largest share of the agent's own work in a consent. `RPCValueEncoderTests` hold the
/// two to the same values.
struct RPCValueEncoder {
    func encode(_ value: some Encodable) throws -> RPCValue {
        guard let result = try Self.box(value, codingPath: []) else {
            throw EncodingError.invalidValue(
                value,
                EncodingError.Context(codingPath: [], debugDescription: "Top-level \(type(of: value)) did not encode any values."))
        }
        return result
    }

    /// A value encoded on its own: nil when it encoded nothing.
    static func box<T: Encodable>(_ value: T, codingPath: [any CodingKey]) throws -> RPCValue? {
        // Types are told apart by their metatype before any cast: a failed `as?` cast to a Foundation type costs
        // more than encoding a small struct, and most values are structs. T is always the value's own type here:
        // an `any Encodable` is opened when it is passed to a generic parameter, and none of these types is a class.
        if T.self == String.self, let string = value as? String { return .string(string) }
        if T.self == Bool.self, let bool = value as? Bool { return .bool(bool) }
        if T.self == Int.self, let int = value as? Int { return .integer(Int64(int)) }
        if T.self == Double.self, let double = value as? Double { return try number(double, codingPath: codingPath) }
        if T.self == Data.self, let data = value as? Data { return .string(data.base64EncodedString()) }
        if T.self == URL.self, let url = value as? URL { return .string(url.absoluteString) }
        if T.self == Decimal.self, let decimal = value as? Decimal { return number(jsonText: decimal.description) }
        let encoder = Node(codingPath: codingPath)
        try value.encode(to: encoder)
        return encoder.storage.value
    }

    /// The value `JSONParser` reads from the text JSONEncoder writes for a `Double` or `Float` (its shortest
    /// digits, a whole number without its ".0").
    static func number<F: BinaryFloatingPoint & CustomStringConvertible>(
        _ value: F, codingPath: [any CodingKey]
    ) throws -> RPCValue {
        guard value.isFinite else {
            throw EncodingError.invalidValue(
                value,
                EncodingError.Context(
                    codingPath: codingPath, debugDescription: "Unable to encode \(F.self).\(value) directly in JSON."))
        }
        var text = value.description
        if text.hasSuffix(".0") { text.removeLast(2) }
        return number(jsonText: text)
    }

    /// As `JSONParser` reads a number: an integer when it has no fraction or exponent and fits Int64.
    static func number(jsonText text: String) -> RPCValue {
        if !text.utf8.contains(where: { $0 == UInt8(ascii: ".") || $0 == UInt8(ascii: "e") || $0 == UInt8(ascii: "E") }),
            let integer = Int64(text)
        {
            return .integer(integer)
        }
        return .number(Double(text) ?? 0)
    }

    static func integer(_ value: some FixedWidthInteger) -> RPCValue {
        Int64(exactly: value).map(RPCValue.integer) ?? number(jsonText: String(value))
    }

    /// A value under construction: containers hand out references to it, so nested containers and super encoders
    /// fill it in place, as JSONEncoder's do.
    final class Storage {
        enum Content {
            case empty
            case value(RPCValue)
            case array([Storage])
            case object([String: Storage])
        }
        var content = Content.empty

        /// Nil when nothing was encoded; a nested container that stayed empty is `{}`, as in JSONEncoder.
        var value: RPCValue? {
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
        var userInfo: [CodingUserInfoKey: Any] { [:] }

        init(codingPath: [any CodingKey], storage: Storage = Storage()) {
            self.codingPath = codingPath
            self.storage = storage
        }

        func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
            storage.makeObject()
            return KeyedEncodingContainer(Keyed<Key>(storage: storage, codingPath: codingPath))
        }

        func unkeyedContainer() -> any UnkeyedEncodingContainer {
            storage.makeArray()
            return Unkeyed(storage: storage, codingPath: codingPath)
        }

        func singleValueContainer() -> any SingleValueEncodingContainer { Single(storage: storage, codingPath: codingPath) }
    }

    struct Keyed<Key: CodingKey>: KeyedEncodingContainerProtocol {
        let storage: Storage
        let codingPath: [any CodingKey]

        private func set(_ value: RPCValue, _ key: Key) { storage.member(key.stringValue).content = .value(value) }

        mutating func encodeNil(forKey key: Key) throws { set(.null, key) }
        mutating func encode(_ value: Bool, forKey key: Key) throws { set(.bool(value), key) }
        mutating func encode(_ value: String, forKey key: Key) throws { set(.string(value), key) }
        mutating func encode(_ value: Double, forKey key: Key) throws {
            set(try RPCValueEncoder.number(value, codingPath: codingPath + [key]), key)
        }
        mutating func encode(_ value: Float, forKey key: Key) throws {
            set(try RPCValueEncoder.number(value, codingPath: codingPath + [key]), key)
        }
        mutating func encode(_ value: Int, forKey key: Key) throws { set(RPCValueEncoder.integer(value), key) }
        mutating func encode(_ value: Int8, forKey key: Key) throws { set(RPCValueEncoder.integer(value), key) }
        mutating func encode(_ value: Int16, forKey key: Key) throws { set(RPCValueEncoder.integer(value), key) }
        mutating func encode(_ value: Int32, forKey key: Key) throws { set(RPCValueEncoder.integer(value), key) }
        mutating func encode(_ value: Int64, forKey key: Key) throws { set(RPCValueEncoder.integer(value), key) }
        mutating func encode(_ value: UInt, forKey key: Key) throws { set(RPCValueEncoder.integer(value), key) }
        mutating func encode(_ value: UInt8, forKey key: Key) throws { set(RPCValueEncoder.integer(value), key) }
        mutating func encode(_ value: UInt16, forKey key: Key) throws { set(RPCValueEncoder.integer(value), key) }
        mutating func encode(_ value: UInt32, forKey key: Key) throws { set(RPCValueEncoder.integer(value), key) }
        mutating func encode(_ value: UInt64, forKey key: Key) throws { set(RPCValueEncoder.integer(value), key) }
        mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
            let boxed = try RPCValueEncoder.box(value, codingPath: codingPath + [key])
            set(boxed ?? .object([:]), key)
        }
        mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type, forKey key: Key)
            -> KeyedEncodingContainer<NestedKey>
        {
            let child = storage.member(key.stringValue)
            child.makeObject()
            return KeyedEncodingContainer(Keyed<NestedKey>(storage: child, codingPath: codingPath + [key]))
        }
        mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
            let child = storage.member(key.stringValue)
            child.makeArray()
            return Unkeyed(storage: child, codingPath: codingPath + [key])
        }
        mutating func superEncoder() -> any Encoder {
            Node(codingPath: codingPath + [SuperKey.super], storage: storage.member(SuperKey.super.stringValue))
        }
        mutating func superEncoder(forKey key: Key) -> any Encoder {
            Node(codingPath: codingPath + [key], storage: storage.member(key.stringValue))
        }
    }

    /// What an unkeyed and a single-value container share: each encodes one value into the place it stands for
    /// (a new element, or the value itself) at `valuePath`.
    protocol ValueSink {
        var valuePath: [any CodingKey] { get }
        mutating func put(_ value: RPCValue)
    }

    struct Unkeyed: UnkeyedEncodingContainer, ValueSink {
        let storage: Storage
        let codingPath: [any CodingKey]
        var count: Int { storage.count }

        var valuePath: [any CodingKey] { codingPath + [IndexKey(intValue: count)] }
        mutating func put(_ value: RPCValue) { storage.appended().content = .value(value) }

        mutating func nestedContainer<NestedKey: CodingKey>(
            keyedBy keyType: NestedKey.Type
        ) -> KeyedEncodingContainer<NestedKey> {
            let path = valuePath
            let child = storage.appended()
            child.makeObject()
            return KeyedEncodingContainer(Keyed<NestedKey>(storage: child, codingPath: path))
        }
        mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
            let path = valuePath
            let child = storage.appended()
            child.makeArray()
            return Unkeyed(storage: child, codingPath: path)
        }
        mutating func superEncoder() -> any Encoder {
            let path = valuePath
            return Node(codingPath: path, storage: storage.appended())
        }
    }

    struct Single: SingleValueEncodingContainer, ValueSink {
        let storage: Storage
        let codingPath: [any CodingKey]

        var valuePath: [any CodingKey] { codingPath }
        mutating func put(_ value: RPCValue) { storage.content = .value(value) }
    }

    struct IndexKey: CodingKey {
        var intValue: Int?
        var stringValue: String { "Index \(intValue ?? 0)" }
        init(intValue: Int) { self.intValue = intValue }
        init?(stringValue: String) { nil }
    }

    enum SuperKey: String, CodingKey { case `super` }
}

extension RPCValueEncoder.ValueSink {
    mutating func encodeNil() throws { put(.null) }
    mutating func encode(_ value: Bool) throws { put(.bool(value)) }
    mutating func encode(_ value: String) throws { put(.string(value)) }
    mutating func encode(_ value: Double) throws { put(try RPCValueEncoder.number(value, codingPath: valuePath)) }
    mutating func encode(_ value: Float) throws { put(try RPCValueEncoder.number(value, codingPath: valuePath)) }
    mutating func encode(_ value: Int) throws { put(RPCValueEncoder.integer(value)) }
    mutating func encode(_ value: Int8) throws { put(RPCValueEncoder.integer(value)) }
    mutating func encode(_ value: Int16) throws { put(RPCValueEncoder.integer(value)) }
    mutating func encode(_ value: Int32) throws { put(RPCValueEncoder.integer(value)) }
    mutating func encode(_ value: Int64) throws { put(RPCValueEncoder.integer(value)) }
    mutating func encode(_ value: UInt) throws { put(RPCValueEncoder.integer(value)) }
    mutating func encode(_ value: UInt8) throws { put(RPCValueEncoder.integer(value)) }
    mutating func encode(_ value: UInt16) throws { put(RPCValueEncoder.integer(value)) }
    mutating func encode(_ value: UInt32) throws { put(RPCValueEncoder.integer(value)) }
    mutating func encode(_ value: UInt64) throws { put(RPCValueEncoder.integer(value)) }
    mutating func encode<T: Encodable>(_ value: T) throws {
        put(try RPCValueEncoder.box(value, codingPath: valuePath) ?? .object([:]))
    }
}
