@_exported import JSON
import Foundation

// The domain holds its documents (FHIR resources, study files, records) in the JSON module's `JSONValue`, the same
// tree the wire carries; these are its `Data` entry points.

extension JSONValue {
    /// Parses a JSON file's bytes as a document (`JSONValue.parseDocument`): as `JSONDecoder` read them before, so a
    /// whole number with a fraction or an exponent is an integer.
    ///
    /// - Throws: `JSONParser.Error` when the bytes are not JSON.
    public static func parse(_ data: Data) throws -> JSONValue {
        try parseDocument(data)
    }

    /// Serialises with sorted keys (`serializedBytes(pretty:)`), so equal values always give equal bytes (hashes,
    /// manifests, golden tests).
    ///
    /// - Throws: `EncodingError.invalidValue`, as `JSONEncoder` does, for a non-finite number or containers nested
    ///   512 deep.
    public func serialized(pretty: Bool = false) throws -> Data {
        Data(try serializedBytes(pretty: pretty))
    }
}
