import Foundation

extension RPCValue {
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
