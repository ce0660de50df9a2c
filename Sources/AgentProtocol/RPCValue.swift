/// A JSON value as it travels on the wire: what requests carry in `params` and what replies and events carry.
///
/// `AgentProtocol` keeps its own JSON tree instead of borrowing the domain's, so the schema and the domain can
/// evolve separately (ConsentAgent converts between the two case by case). Integers and non-integers are distinct
/// cases because JSON-RPC ids and many params must be integers, and a `1.5` where an integer is expected is a
/// `-32602`.
public enum RPCValue: Sendable, Hashable {
    case null
    case bool(Bool)
    case integer(Int64)
    case number(Double)
    case string(String)
    case array([RPCValue])
    case object([String: RPCValue])
}

extension RPCValue {
    public subscript(key: String) -> RPCValue? {
        guard case .object(let members) = self else { return nil }
        return members[key]
    }

    public var stringValue: String? {
        if case .string(let s) = self { return s }
        return nil
    }

    public var objectValue: [String: RPCValue]? {
        if case .object(let o) = self { return o }
        return nil
    }

    public var arrayValue: [RPCValue]? {
        if case .array(let a) = self { return a }
        return nil
    }

    public var integerValue: Int64? {
        if case .integer(let i) = self { return i }
        return nil
    }

    /// A short name of the JSON type, for error messages ("expected a string, found a number").
    public var typeName: String {
        switch self {
        case .null: return "null"
        case .bool: return "a boolean"
        case .integer, .number: return "a number"
        case .string: return "a string"
        case .array: return "an array"
        case .object: return "an object"
        }
    }
}

extension RPCValue: ExpressibleByStringLiteral, ExpressibleByBooleanLiteral, ExpressibleByIntegerLiteral,
    ExpressibleByArrayLiteral, ExpressibleByDictionaryLiteral, ExpressibleByNilLiteral
{
    public init(stringLiteral value: String) { self = .string(value) }
    public init(booleanLiteral value: Bool) { self = .bool(value) }
    public init(integerLiteral value: Int64) { self = .integer(value) }
    public init(arrayLiteral elements: RPCValue...) { self = .array(elements) }
    public init(dictionaryLiteral elements: (String, RPCValue)...) {
        self = .object(Dictionary(elements, uniquingKeysWith: { _, last in last }))
    }
    public init(nilLiteral: ()) { self = .null }
}
