/// The `error` member of a JSON-RPC reply: `{"code", "message", "data": {"type", ...}}`.
///
/// `data.type` is always present. `message` is one human sentence and never contains PHI. Extra `data`
/// members (`field`, `expected`, `maximum`) help a UI without parsing the message.
public struct RPCErrorObject: Error, Sendable, Hashable {
    public var code: Int64
    public var message: String
    public var type: RPCErrorType
    public var details: [String: RPCValue]

    public init(code: Int64, type: RPCErrorType, message: String, details: [String: RPCValue] = [:]) {
        self.code = code
        self.type = type
        self.message = message
        self.details = details
    }

    /// A domain error (`-32000`).
    public static func domain(_ type: RPCErrorType, _ message: String, details: [String: RPCValue] = [:]) -> Self {
        Self(code: RPCErrorCode.domainError, type: type, message: message, details: details)
    }

    /// An unknown member of `params`. The name is the client's text: the message never repeats it, and
    /// `data.field` carries it only when it is a plain name (`colour`), else `params` (messages and
    /// data never echo what a client typed, such as a participant's name sent as a key).
    public static func unknownParameter(_ name: String) -> Self {
        invalidParams(field: plainName(name) ?? "params", "unknown parameter; data.field names it, see the method's params schema")
    }

    /// `name` when it looks like a protocol member name (ASCII letter, then letters, digits or `_`, at most 64).
    public static func plainName(_ name: String) -> String? {
        let bytes = Array(name.utf8)
        guard let first = bytes.first, bytes.count <= 64, (UInt8(ascii: "A")...UInt8(ascii: "z")).contains(first),
            bytes.allSatisfy({ ($0 >= 0x30 && $0 <= 0x39) || ($0 >= 0x41 && $0 <= 0x5A) || ($0 >= 0x61 && $0 <= 0x7A) || $0 == 0x5F })
        else { return nil }
        return name
    }

    /// Bad params (`-32602`) naming the offending field.
    public static func invalidParams(field: String, _ message: String) -> Self {
        Self(code: RPCErrorCode.invalidParams, type: .invalidParams, message: message, details: ["field": .string(field)])
    }

    public var value: RPCValue {
        var data = details
        data["type"] = .string(type.rawValue)
        return ["code": .integer(code), "message": .string(message), "data": .object(data)]
    }
}
