import ConsentCore
import Foundation
import JSONFoundation

/// What `--json` prints: the JSON module's writer (`JSONValueEncoder`), as every other JSON the project writes. The
/// bytes are those `JSONEncoder` printed before, with `.prettyPrinted` (unless `pretty` is false), `.sortedKeys` and
/// `.withoutEscapingSlashes`, so scripts reading the output see no change.
enum JSONOutput {
    static func text(_ value: some Encodable, pretty: Bool = true, date: (@Sendable (Date) -> JSONValue)? = nil) throws -> String {
        String(decoding: try JSONValueEncoder.foundation(date: date).encodedBytes(value, pretty: pretty), as: UTF8.self)
    }
}
