import AgentProtocol
import ConsentCore

/// Points of one stroke captured during one pad frame, in the stroke format (`[x, y, t, p]`, x and y normalised).
public struct InkBatch: Sendable, Hashable {
    public var flow: String
    public var pad: String
    /// 0-based index of the stroke within the signature.
    public var stroke: Int
    public var points: [StrokePoint]

    public init(flow: String, pad: String, stroke: Int, points: [StrokePoint]) {
        self.flow = flow
        self.pad = pad
        self.stroke = stroke
        self.points = points
    }

    /// Whether `other` continues this batch, so a lagging client can receive both as one.
    public func canMerge(_ other: InkBatch) -> Bool {
        flow == other.flow && pad == other.pad && stroke == other.stroke
    }

    var value: RPCValue {
        let points: [RPCValue] = points.map { p in
            [.number(p.x), .number(p.y), .number(p.t), p.p.map(RPCValue.number) ?? .null]
        }
        return ["flow": .string(flow), "pad": .string(pad), "stroke": .integer(Int64(stroke)), "points": .array(points)]
    }
}
