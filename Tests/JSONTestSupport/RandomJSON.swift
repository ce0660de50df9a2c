import JSON

/// SplitMix64: the same documents on every run, so a failure found once is found again and can be replayed.
public struct SeededGenerator: RandomNumberGenerator {
    public var state: UInt64

    public init(seed: UInt64) { state = seed }

    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

extension JSONValue {
    /// What an edit may put in a node's place: a value of every JSON type, and numbers and strings at the edges
    /// Codable types refuse (a negative count, a fraction, a number beyond `Int64`, text that is not a date).
    public static let replacements: [JSONValue] = [
        .null, true, 0, -1, 300, .number(2.5), .number(1e20), "", "x", "AAEC", [], [1, 2], [:], ["a": 1],
    ]

    /// The value with one node somewhere in it dropped (an object's member) or replaced by another value: real
    /// documents, broken in one place, for comparing two decoders or encoders on them.
    public func randomEdit(using generator: inout some RandomNumberGenerator) -> JSONValue {
        switch self {
        case .object(var members) where !members.isEmpty && Bool.random(using: &generator):
            guard let key = members.keys.sorted().randomElement(using: &generator), let member = members[key] else { return self }
            switch Int.random(in: 0..<4, using: &generator) {
            case 0: members[key] = nil
            case 1: members[key] = Self.replacements.randomElement(using: &generator)
            default: members[key] = member.randomEdit(using: &generator)
            }
            return .object(members)
        case .array(var items) where !items.isEmpty && Bool.random(using: &generator):
            let index = Int.random(in: items.indices, using: &generator)
            items[index] =
                Bool.random(using: &generator)
                ? items[index].randomEdit(using: &generator) : (Self.replacements.randomElement(using: &generator) ?? .null)
            return .array(items)
        default:
            return Int.random(in: 0..<4, using: &generator) == 0 ? (Self.replacements.randomElement(using: &generator) ?? .null) : self
        }
    }
}
