import Foundation
import JSONFoundation

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

    /// `Data` as base64, a `URL` as its absolute string, a `Decimal` as its number (`JSONFoundation`).
    static let encoder = JSONValueEncoder.foundation()
}
