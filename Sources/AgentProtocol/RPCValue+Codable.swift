import Foundation

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

    /// The Foundation types `RPCValueEncoder` writes, read back as `JSONDecoder` read them: `Data` from base64, a
    /// `URL` from its string. (ConsentCore's `JSONValueDecoder.foundation` does the same for files; AgentProtocol
    /// does not depend on ConsentCore.)
    private static let decoder = JSONValueDecoder(special: .init(types: [Data.self, URL.self]) { type, decoder in
        if type == Data.self {
            let text = try decoder.singleValueContainer().decode(String.self)
            guard let data = Data(base64Encoded: text) else {
                throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: "not valid base64"))
            }
            return data
        }
        if type == URL.self {
            let text = try decoder.singleValueContainer().decode(String.self)
            guard let url = URL(string: text) else {
                throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: "not a URL"))
            }
            return url
        }
        throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: "\(type) is not a Foundation type"))
    })
}
