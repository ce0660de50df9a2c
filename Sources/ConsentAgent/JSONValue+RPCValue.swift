import AgentProtocol
import ConsentCore

// The wire's JSON tree (AgentProtocol's `RPCValue`) and the domain's (ConsentCore's `JSONValue`) stay separate types
// so that the protocol and the domain can change apart, but they have the same cases: the agent converts between
// them case by case, with no JSON text in between (numbers keep being integers or not, as they came).

extension JSONValue {
    /// The domain's tree of a wire value, member for member.
    init(_ value: RPCValue) {
        switch value {
        case .null: self = .null
        case .bool(let b): self = .bool(b)
        case .integer(let i): self = .integer(i)
        case .number(let d): self = .number(d)
        case .string(let s): self = .string(s)
        case .array(let items): self = .array(items.map(JSONValue.init))
        case .object(let members): self = .object(members.mapValues(JSONValue.init))
        }
    }
}

extension RPCValue {
    /// The wire's tree of a domain value, member for member.
    init(_ value: JSONValue) {
        switch value {
        case .null: self = .null
        case .bool(let b): self = .bool(b)
        case .integer(let i): self = .integer(i)
        case .number(let d): self = .number(d)
        case .string(let s): self = .string(s)
        case .array(let items): self = .array(items.map(RPCValue.init))
        case .object(let members): self = .object(members.mapValues(RPCValue.init))
        }
    }
}
