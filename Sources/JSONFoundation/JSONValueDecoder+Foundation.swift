import Foundation
import JSON

// Foundation's types for the JSON module's Codable decoder, which cannot name them (the JSON module has no
// Foundation): one mapping for every reader, the files' (records' manifests hold a `PasscodeHash`'s `Data`, the
// upload queue its `Date`s) and the wire's (`RPCValue.decode`).

extension JSONValueDecoder {
    /// What Foundation's `JSONDecoder` read with its default options: `Data` from base64 text, a `URL` from its
    /// string; a `Date` as `date` reads it, else as `Date`'s own `Decodable` does (seconds since 2001, the default
    /// `.deferredToDate`).
    public static func foundation(date: (@Sendable (any Decoder) throws -> Date)? = nil) -> JSONValueDecoder {
        let types: [any Decodable.Type] = date == nil ? [Data.self, URL.self] : [Data.self, URL.self, Date.self]
        return JSONValueDecoder(special: .init(types: types) { type, decoder in
            if type == Data.self {
                let text = try decoder.singleValueContainer().decode(String.self)
                guard let data = Data(base64Encoded: text) else {
                    throw DecodingError.dataCorrupted(
                        .init(codingPath: decoder.codingPath, debugDescription: "not valid base64"))
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
            if type == Date.self, let date { return try date(decoder) }
            throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: "\(type) is not a Foundation type"))
        })
    }
}
