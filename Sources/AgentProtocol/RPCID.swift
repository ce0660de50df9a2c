/// A JSON-RPC request id: a string or an integer, never null (the profile of Protocol/README.md).
public enum RPCID: Sendable, Hashable, CustomStringConvertible {
    case string(String)
    case integer(Int64)

    /// The id from a request's `id` member, or nil when it is not a string or an integer.
    public init?(_ value: RPCValue) {
        switch value {
        case .string(let s): self = .string(s)
        case .integer(let i): self = .integer(i)
        case .null, .bool, .number, .array, .object: return nil
        }
    }

    public var value: RPCValue {
        switch self {
        case .string(let s): return .string(s)
        case .integer(let i): return .integer(i)
        }
    }

    public var description: String {
        switch self {
        case .string(let s): return "\"\(s)\""
        case .integer(let i): return String(i)
        }
    }
}
