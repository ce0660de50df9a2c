import Foundation

/// Encodes an `Encodable` domain value (a view model, a pad's description) straight into an `RPCValue`: the JSON
/// module's `JSONValueEncoder`, with the Foundation types a domain value may hold written as `JSONEncoder` wrote them
/// (`Data` as base64, a `URL` as its absolute string, a `Decimal` as a number).
///
/// The result is what `JSONEncoder` followed by `JSONParser` gives, which is how `RPCValue(encoding:)` made it
/// before. Through text, a flow's view model (in every reply) was the largest share of the agent's own work in a
/// consent. `RPCValueEncoderTests` hold the two to the same values.
struct RPCValueEncoder {
    func encode(_ value: some Encodable) throws -> RPCValue {
        try Self.encoder.encode(value)
    }

    static let encoder = JSONValueEncoder(
        special: .init(types: [Data.self, URL.self, Decimal.self]) { value, codingPath in
            switch value {
            case let data as Data: return .string(data.base64EncodedString())
            case let url as URL: return .string(url.absoluteString)
            case let decimal as Decimal:
                // As the parser reads the number JSONEncoder writes for it.
                guard decimal.isFinite, let number = try? JSONParser.parse(Array(decimal.description.utf8)) else {
                    throw EncodingError.invalidValue(
                        decimal, .init(codingPath: codingPath, debugDescription: "Unable to encode Decimal.\(decimal) directly in JSON."))
                }
                return number
            default:
                throw EncodingError.invalidValue(
                    value, .init(codingPath: codingPath, debugDescription: "\(type(of: value)) is not a Foundation type"))
            }
        })
}
