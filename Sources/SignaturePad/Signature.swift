/// A finished signature: the strokes at full fidelity plus what is needed to interpret them.
public struct Signature: Sendable, Hashable, Codable {
    /// The pad it was written on (axes, resolution, identity).
    public var device: PadDescription
    public var strokes: [Stroke]
    /// Periods in which events were lost (SYN_DROPPED, unplug), so a reviewer knows nothing was filled in.
    public var gaps: [CaptureGap]
    /// The pen's hover samples (in proximity, tip up) from the first stroke on, in time order; empty for touch
    /// screens and pads that report no proximity. Not ink: they never count towards the signature's size or length.
    public var hover: [InkPoint]

    public init(device: PadDescription, strokes: [Stroke], gaps: [CaptureGap] = [], hover: [InkPoint] = []) {
        self.device = device
        self.strokes = strokes
        self.gaps = gaps
        self.hover = hover
    }

    private enum CodingKeys: String, CodingKey { case device, strokes, gaps, hover }

    /// Reads signatures encoded before hover samples were kept, too (no `hover` member: none).
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        device = try container.decode(PadDescription.self, forKey: .device)
        strokes = try container.decode([Stroke].self, forKey: .strokes)
        gaps = try container.decodeIfPresent([CaptureGap].self, forKey: .gaps) ?? []
        hover = try container.decodeIfPresent([InkPoint].self, forKey: .hover) ?? []
    }

    public var pointCount: Int { strokes.reduce(0) { $0 + $1.points.count } }

    /// Any stroke was interrupted or any events were lost.
    public var isInterrupted: Bool { !gaps.isEmpty || strokes.contains { $0.isInterrupted } }

    /// Timestamp (µs) of the first point.
    public var startTime: Int64? { strokes.lazy.compactMap { $0.points.first?.time }.min() }
    /// Timestamp (µs) of the last point.
    public var endTime: Int64? { strokes.lazy.compactMap { $0.points.last?.time }.max() }

    /// From the first to the last point.
    public var duration: Duration {
        guard let start = startTime, let end = endTime, end >= start else { return .zero }
        // Subtracted as Durations (128-bit), not as Int64: garbage timestamps may lie further apart than Int64 holds.
        return .microseconds(end) - .microseconds(start)
    }

    /// The normalised bounding box of all ink, nil when there is none.
    public var boundingBox: BoundingBox? {
        var box: BoundingBox?
        for stroke in strokes {
            for p in stroke.points {
                if var b = box {
                    b.include(x: p.x, y: p.y)
                    box = b
                } else {
                    box = BoundingBox(minX: p.x, minY: p.y, maxX: p.x, maxY: p.y)
                }
            }
        }
        return box
    }

    /// Total ink path length, in units of the signing area's width.
    ///
    /// Measured in device units scaled by each axis's resolution when known, so a pad with non-square units or a
    /// wide aspect ratio does not distort it; divided by the area's width so the figure does not depend on the pad.
    public var inkLength: Double {
        guard let xAxis = device.x, xAxis.isUsable, let yAxis = device.y, yAxis.isUsable else { return 0 }
        let resX = xAxis.resolution > 0 && yAxis.resolution > 0 ? Double(xAxis.resolution) : 1
        let resY = xAxis.resolution > 0 && yAxis.resolution > 0 ? Double(yAxis.resolution) : 1
        let width = Double(Int(xAxis.maximum) - Int(xAxis.minimum)) / resX
        var length = 0.0
        for stroke in strokes {
            for (a, b) in zip(stroke.points, stroke.points.dropFirst()) {
                let dx = Double(Int(b.deviceX) - Int(a.deviceX)) / resX
                let dy = Double(Int(b.deviceY) - Int(a.deviceY)) / resY
                length += (dx * dx + dy * dy).squareRoot()
            }
        }
        return length / width
    }
}

/// An axis-aligned box in normalised coordinates (`0...1`, origin top-left).
public struct BoundingBox: Sendable, Hashable, Codable {
    public var minX: Double
    public var minY: Double
    public var maxX: Double
    public var maxY: Double

    public init(minX: Double, minY: Double, maxX: Double, maxY: Double) {
        self.minX = minX
        self.minY = minY
        self.maxX = maxX
        self.maxY = maxY
    }

    public var width: Double { maxX - minX }
    public var height: Double { maxY - minY }

    mutating func include(x: Double, y: Double) {
        minX = min(minX, x)
        minY = min(minY, y)
        maxX = max(maxX, x)
        maxY = max(maxY, y)
    }
}
