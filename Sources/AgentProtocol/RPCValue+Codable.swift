import Foundation
import JSONFoundation

extension RPCValue {
    /// Converts any `Encodable` domain value (a view model, a pad's description) into a wire value, in place
    /// (`RPCValueEncoder`): the value JSON text from `JSONEncoder` would parse to.
    ///
    /// - Throws: `EncodingError` when the value cannot be encoded (a non-finite number, nothing encoded).
    public init(encoding value: some Encodable) throws {
        self = try RPCValueEncoder().encode(value)
    }

    /// Decodes a domain value from this wire value, in place (`JSONValueDecoder`): what `JSONDecoder` read from the
    /// value's text.
    ///
    /// - Throws: `JSONValueDecoder.Error` naming the member whose shape does not match.
    public func decode<T: Decodable>(_ type: T.Type) throws(JSONValueDecoder.Error) -> T {
        try Self.decoder.decode(type, from: self)
    }

    /// The Foundation types `RPCValueEncoder` writes, read back as `JSONDecoder` read them (`JSONFoundation`).
    private static let decoder = JSONValueDecoder.foundation()
}
