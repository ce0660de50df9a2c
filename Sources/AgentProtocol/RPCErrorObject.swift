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
