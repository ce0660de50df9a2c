import AgentProtocol
import ConsentCore
import NIOCore
import SignaturePad

/// Points of one stroke captured during one pad frame, as an `ink.points` event carries them.
///
/// The points are rendered to their JSON text once, where the pad's reader thread hands them over: `[x,y,t,p]`
/// elements (x and y normalised, t in ms since the capture's first point, p null without pressure) separated by
/// commas, without the enclosing brackets. Every client's line then copies those bytes, and a lagging client's
/// queue merges the next batch of the stroke by appending its bytes (`append(_:)`) instead of rendering anew.
public struct InkBatch: Sendable, Hashable {
    public var flow: String
    public var pad: String
    /// 0-based index of the stroke within the signature.
    public var stroke: Int
    /// Whose signature the capture takes (`participant`, `representative`, `witness`), when known.
    public var role: SigningRole?
    /// The points' JSON text (see above).
    public private(set) var pointsJSON: ByteBuffer
    public private(set) var pointCount: Int

    public init(flow: String, pad: String, stroke: Int, points: [StrokePoint], role: SigningRole? = nil) {
        self.init(flow: flow, pad: pad, stroke: stroke, role: role, capacity: points.count)
        for point in points { appendPoint(x: point.x, y: point.y, t: point.t, p: point.p) }
    }

    /// The ink of one pad frame; `origin` (µs) is the zero of `t` (``FrameInk/origin``).
    init(flow: String, pad: String, stroke: Int, role: SigningRole?, points: [InkPoint], origin: Int64) {
        self.init(flow: flow, pad: pad, stroke: stroke, role: role, capacity: points.count)
        for point in points {
            // The same t the record gets (`StrokePoint(_:origin:)`).
            appendPoint(x: point.x, y: point.y, t: StrokePoint.milliseconds(point.time, since: origin), p: point.pressure)
        }
    }

    private init(flow: String, pad: String, stroke: Int, role: SigningRole?, capacity: Int) {
        self.flow = flow
        self.pad = pad
        self.stroke = stroke
        self.role = role
        self.pointsJSON = ByteBufferAllocator().buffer(capacity: 48 * max(1, capacity))
        self.pointCount = 0
    }

    private mutating func appendPoint(x: Double, y: Double, t: Double, p: Double?) {
        if pointCount > 0 { pointsJSON.writeInteger(UInt8(ascii: ",")) }
        pointsJSON.writeInteger(UInt8(ascii: "["))
        // The same number rendering as every other value the agent sends (RPCValue.write).
        RPCValue.number(x).write(to: &pointsJSON)
        pointsJSON.writeInteger(UInt8(ascii: ","))
        RPCValue.number(y).write(to: &pointsJSON)
        pointsJSON.writeInteger(UInt8(ascii: ","))
        RPCValue.number(t).write(to: &pointsJSON)
        pointsJSON.writeInteger(UInt8(ascii: ","))
        if let p { RPCValue.number(p).write(to: &pointsJSON) } else { pointsJSON.writeStaticString("null") }
        pointsJSON.writeInteger(UInt8(ascii: "]"))
        pointCount += 1
    }

    /// Whether `other` continues this batch, so a lagging client can receive both as one.
    public func canMerge(_ other: InkBatch) -> Bool {
        flow == other.flow && pad == other.pad && stroke == other.stroke && role == other.role
    }

    /// Appends the points of `other` (which ``canMerge(_:)``): a copy of its bytes, nothing rendered.
    mutating func append(_ other: InkBatch) {
        guard other.pointCount > 0 else { return }
        if pointCount > 0 { pointsJSON.writeInteger(UInt8(ascii: ",")) }
        var bytes = other.pointsJSON
        pointsJSON.writeBuffer(&bytes)
        pointCount += other.pointCount
    }

    /// The event's `data` as a value (tests, and any consumer that wants the points parsed).
    ///
    /// The queue writes the same members, in the same order, straight into the line (`OutboundQueue.renderInk`).
    var value: RPCValue {
        var members: [String: RPCValue] = [
            "flow": .string(flow), "pad": .string(pad), "stroke": .integer(Int64(stroke)),
        ]
        if let role { members["role"] = .string(role.rawValue) }
        var text = ByteBuffer(string: "[")
        var bytes = pointsJSON
        text.writeBuffer(&bytes)
        text.writeString("]")
        members["points"] = (try? RPCValue.parse(text.readableBytesView)) ?? .array([])
        return .object(members)
    }
}
