import Foundation

/// A JSON value that keeps every member of a document, modelled or not.
///
/// FHIR resources are read into this tree and written back from it, so a signed Contract carries every field of
/// its template through unchanged (C3-PRO keeps all existing elements of the template). Typed accessors read what the
/// consent needs; nothing is dropped by round-tripping.
public enum JSONValue: Sendable, Hashable {
    case null
    case bool(Bool)
    case integer(Int64)
    case number(Double)
    case string(String)
    case array([JSONValue])
    case object([String: JSONValue])
}

extension JSONValue {
    public subscript(key: String) -> JSONValue? {
        guard case .object(let members) = self else { return nil }
        return members[key]
    }

    public subscript(index: Int) -> JSONValue? {
        guard case .array(let items) = self, items.indices.contains(index) else { return nil }
        return items[index]
    }

    public var stringValue: String? {
        if case .string(let s) = self { return s }
        return nil
    }

    public var boolValue: Bool? {
        if case .bool(let b) = self { return b }
        return nil
    }

    public var arrayValue: [JSONValue]? {
        if case .array(let a) = self { return a }
        return nil
    }

    public var objectValue: [String: JSONValue]? {
        if case .object(let o) = self { return o }
        return nil
    }

    public var isNull: Bool {
        if case .null = self { return true }
        return false
    }

    /// A short name of the JSON type, for error messages ("expected an array, found a string").
    public var typeName: String {
        switch self {
        case .null: return "null"
        case .bool: return "a boolean"
        case .integer, .number: return "a number"
        case .string: return "a string"
        case .array: return "an array"
        case .object: return "an object"
        }
    }

    /// Sets `key` on an object value; a no-op on anything else.
    public mutating func set(_ key: String, _ value: JSONValue?) {
        guard case .object(var members) = self else { return }
        members[key] = value
        self = .object(members)
    }
}

extension JSONValue: Codable {
    public init(from decoder: any Decoder) throws {
        // The decoder cannot be asked a value's type, only told one, and each wrong guess costs a thrown
        // DecodingError with its coding path. So the guesses go in the order a FHIR document needs them (strings,
        // then objects, then arrays, which are nearly all of it): reading the sample study's JSON was nearly a
        // quarter of the agent's start-up instructions when booleans and numbers were tried first. A boolean is
        // never decoded as a number nor a number as a boolean, and Int64 goes before Double, so every value keeps
        // the case it had. A value none of the guesses fits fails with the object's error, as it always has: for
        // an object with a bad member, that names the member.
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .null
            return
        }
        if let s = try? container.decode(String.self) {
            self = .string(s)
            return
        }
        let objectError: any Error
        do {
            self = .object(try container.decode([String: JSONValue].self))
            return
        } catch {
            objectError = error
        }
        if let a = try? container.decode([JSONValue].self) {
            self = .array(a)
        } else if let b = try? container.decode(Bool.self) {
            self = .bool(b)
        } else if let i = try? container.decode(Int64.self) {
            self = .integer(i)
        } else if let d = try? container.decode(Double.self) {
            self = .number(d)
        } else {
            throw objectError
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .null: try container.encodeNil()
        case .bool(let b): try container.encode(b)
        case .integer(let i): try container.encode(i)
        case .number(let d): try container.encode(d)
        case .string(let s): try container.encode(s)
        case .array(let a): try container.encode(a)
        case .object(let o): try container.encode(o)
        }
    }
}

extension JSONValue: ExpressibleByStringLiteral, ExpressibleByBooleanLiteral, ExpressibleByIntegerLiteral,
    ExpressibleByArrayLiteral, ExpressibleByDictionaryLiteral, ExpressibleByNilLiteral
{
    public init(stringLiteral value: String) { self = .string(value) }
    public init(booleanLiteral value: Bool) { self = .bool(value) }
    public init(integerLiteral value: Int64) { self = .integer(value) }
    public init(arrayLiteral elements: JSONValue...) { self = .array(elements) }
    public init(dictionaryLiteral elements: (String, JSONValue)...) {
        self = .object(Dictionary(elements, uniquingKeysWith: { _, last in last }))
    }
    public init(nilLiteral: ()) { self = .null }
}

extension JSONValue {
    /// Parses JSON bytes.
    ///
    /// - Throws: `DecodingError` from Foundation when the bytes are not JSON.
    public static func parse(_ data: Data) throws -> JSONValue {
        try JSONDecoder().decode(JSONValue.self, from: data)
    }

    /// Serialises with sorted keys, so equal values always give equal bytes (hashes, manifests, golden tests).
    ///
    /// The bytes are those of Foundation's `JSONEncoder` with `.sortedKeys` and `.withoutEscapingSlashes` (and
    /// `.prettyPrinted` when `pretty`), which wrote every record before; `JSONValueWriter` writes them directly.
    ///
    /// - Throws: `EncodingError.invalidValue`, as `JSONEncoder` does, for a non-finite number or containers nested
    ///   512 deep.
    public func serialized(pretty: Bool = false) throws -> Data {
        var writer = JSONValueWriter(pretty: pretty)
        try writer.write(self, depth: 0)
        return Data(writer.bytes)
    }
}
