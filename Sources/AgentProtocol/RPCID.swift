/// A JSON-RPC request id: a string or an integer, never null (the profile of Protocol/README.md).
///
/// Integers are those of Int64 (-2^63 … 2^63-1), echoed digit for digit; a larger one is refused with
/// `outOfRangeMessage`. JavaScript clients should send string ids: `JSON.parse` rounds integers beyond 2^53.
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

    /// The refusal of an integer id outside Int64.
    public static let outOfRangeMessage =
        "an integer id must be between -9223372036854775808 and 9223372036854775807; use a string id for larger values"

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
