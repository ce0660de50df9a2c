import AgentProtocol
import ConsentCore

/// Points of one stroke captured during one pad frame, in the stroke format (`[x, y, t, p]`, x and y normalised).
public struct InkBatch: Sendable, Hashable {
    public var flow: String
    public var pad: String
    /// 0-based index of the stroke within the signature.
    public var stroke: Int
    public var points: [StrokePoint]
    /// Whose signature the capture takes (`participant`, `representative`, `witness`), when known.
    public var role: SigningRole?

    public init(flow: String, pad: String, stroke: Int, points: [StrokePoint], role: SigningRole? = nil) {
        self.flow = flow
        self.pad = pad
        self.stroke = stroke
        self.points = points
        self.role = role
    }

    /// Whether `other` continues this batch, so a lagging client can receive both as one.
    public func canMerge(_ other: InkBatch) -> Bool {
        flow == other.flow && pad == other.pad && stroke == other.stroke && role == other.role
    }

    var value: RPCValue {
        let points: [RPCValue] = points.map { p in
            [.number(p.x), .number(p.y), .number(p.t), p.p.map(RPCValue.number) ?? .null]
        }
        var value: [String: RPCValue] = [
            "flow": .string(flow), "pad": .string(pad), "stroke": .integer(Int64(stroke)), "points": .array(points),
        ]
        if let role { value["role"] = .string(role.rawValue) }
        return .object(value)
    }
}
