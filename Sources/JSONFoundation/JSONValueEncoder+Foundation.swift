import Foundation
import JSON

// Foundation's types for the JSON module's Codable encoder, which cannot name them (the JSON module has no
// Foundation): one mapping for every writer, the files' (records' manifests hold a `PasscodeHash`'s `Data`, the
// upload queue its `Date`s) and the wire's (`RPCValue(encoding:)`).

extension JSONValueEncoder {
    /// What Foundation's `JSONEncoder` wrote with its default options: `Data` as base64 text, a `URL` as its
    /// absolute string, a `Decimal` as its number; a `Date` as `date` writes it, else as `Date`'s own `Encodable`
    /// does (seconds since 2001, the default `.deferredToDate`).
    public static func foundation(date: (@Sendable (Date) -> JSONValue)? = nil) -> JSONValueEncoder {
        let types: [any Encodable.Type] = date == nil ? [Data.self, URL.self, Decimal.self] : [Data.self, URL.self, Decimal.self, Date.self]
        return JSONValueEncoder(
            special: .init(types: types) { value, codingPath in
                switch value {
                case let data as Data: return .string(data.base64EncodedString())
                case let url as URL: return .string(url.absoluteString)
                case let decimal as Decimal:
                    // As the parser reads the number JSONEncoder writes for it.
                    guard decimal.isFinite, let number = try? JSONValue.parseDocument(Array(decimal.description.utf8)) else {
                        throw EncodingError.invalidValue(
                            decimal, .init(codingPath: codingPath, debugDescription: "Unable to encode Decimal.\(decimal) directly in JSON."))
                    }
                    return number
                case let instant as Date:
                    if let date { return date(instant) }
                    fallthrough
                default:
                    throw EncodingError.invalidValue(
                        value, .init(codingPath: codingPath, debugDescription: "\(type(of: value)) is not a Foundation type"))
                }
            })
    }
}
