import Foundation

extension RPCValue: Codable {
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .null
        } else if let b = try? container.decode(Bool.self) {
            self = .bool(b)
        } else if let i = try? container.decode(Int64.self) {
            self = .integer(i)
        } else if let d = try? container.decode(Double.self) {
            self = .number(d)
        } else if let s = try? container.decode(String.self) {
            self = .string(s)
        } else if let a = try? container.decode([RPCValue].self) {
            self = .array(a)
        } else {
            self = .object(try container.decode([String: RPCValue].self))
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

    /// Parses one JSON text.
    ///
    /// - Throws: `JSONParser.Error` when the bytes are not one JSON text.
    public static func parse(_ bytes: some Collection<UInt8>) throws -> RPCValue {
        try JSONParser.parse(bytes)
    }

    /// Converts any `Encodable` domain value (a view model, a pad's description) into a wire value, in place
    /// (`RPCValueEncoder`): the value JSON text from `JSONEncoder` would parse to.
    ///
    /// - Throws: `EncodingError` when the value cannot be encoded (a non-finite number, nothing encoded).
    public init(encoding value: some Encodable) throws {
        self = try RPCValueEncoder().encode(value)
    }

    /// Decodes a domain value from this wire value.
    ///
    /// - Throws: `DecodingError` when the shape does not match.
    public func decode<T: Decodable>(_ type: T.Type) throws -> T {
        let data = try JSONEncoder().encode(self)
        return try JSONDecoder().decode(type, from: data)
    }
}
