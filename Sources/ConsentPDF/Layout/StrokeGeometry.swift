/// The geometry of a drawn signature: smooth cubic Bézier curves through the captured points, and the fit of the
/// signing area into a box. Pure, so the PDF and the PNG draw the same curves and tests can check them.
enum StrokeGeometry {
    /// A point in the signing area, x and y normalised 0…1 from the top-left; `pressure` 0…1 when known.
    struct Point: Sendable, Hashable {
        var x: Double
        var y: Double
        var pressure: Double?
    }

    /// A cubic Bézier segment from the previous segment's end (or the stroke's first point) to `end`.
    struct Segment: Sendable, Hashable {
        var control1: (x: Double, y: Double)
        var control2: (x: Double, y: Double)
        var end: (x: Double, y: Double)
        /// The mean pressure of the segment's two points, when known.
        var pressure: Double?

        static func == (a: Segment, b: Segment) -> Bool {
            a.control1 == b.control1 && a.control2 == b.control2 && a.end == b.end && a.pressure == b.pressure
        }
        func hash(into hasher: inout Hasher) {
            for v in [control1.x, control1.y, control2.x, control2.y, end.x, end.y] { hasher.combine(v) }
            hasher.combine(pressure)
        }
    }

    /// The uniform Catmull-Rom spline through `points`, as cubic Béziers (one per gap between points).
    ///
    /// The curve passes through every captured point, so the drawn signature never drifts from what was sampled,
    /// and the tangents at the ends reuse the end points (no overshoot).
    static func segments(_ points: [Point]) -> [Segment] {
        guard points.count > 1 else { return [] }
        var result: [Segment] = []
        result.reserveCapacity(points.count - 1)
        for i in 0..<(points.count - 1) {
            let a = points[max(i - 1, 0)], b = points[i], c = points[i + 1], d = points[min(i + 2, points.count - 1)]
            let pressure: Double? =
                if let pb = b.pressure, let pc = c.pressure { (pb + pc) / 2 } else { b.pressure ?? c.pressure }
            result.append(
                Segment(
                    control1: (b.x + (c.x - a.x) / 6, b.y + (c.y - a.y) / 6),
                    control2: (c.x - (d.x - b.x) / 6, c.y - (d.y - b.y) / 6),
                    end: (c.x, c.y), pressure: pressure))
        }
        return result
    }

    /// Where the signing area goes in `box`: as large as fits, keeping the area's aspect ratio, centred.
    ///
    /// - Parameter aspectRatio: width / height of the signing area; nil stretches it to the box.
    static func fit(aspectRatio: Double?, into box: Rect) -> Rect {
        guard let aspect = aspectRatio, aspect.isFinite, aspect > 0, box.width > 0, box.height > 0 else { return box }
        var width = box.width
        var height = width / aspect
        if height > box.height {
            height = box.height
            width = height * aspect
        }
        return Rect(x: box.x + (box.width - width) / 2, y: box.y + (box.height - height) / 2, width: width, height: height)
    }

    /// A run of consecutive segments of one stroke drawn as one path at one width.
    struct WidthRun: Sendable, Hashable {
        var segments: Range<Int>
        var width: Double
    }

    /// How far a segment's pressure width may stray from its run's before a new run starts: 2 %, at most 0.2 px on
    /// the signature PNG's lines (7.5 px at no pressure data, up to 10.5 px at full pressure) and under 0.05 pt in
    /// the PDF's.
    static let widthTolerance = 0.02

    /// The segments of a stroke grouped into runs of one width each, for a renderer that strokes a path at one
    /// width (cairo): a segment joins the run before it while its pressure width is within `tolerance` of the
    /// run's (the run's first segment's), else it starts a new one. Without pressure, one run at `base`.
    ///
    /// One path per segment was ~300 strokes for a 1.5 s signature, most of what drawing it cost in the PDF and the
    /// PNG; with round joins, a run draws what its segments' round caps drew one by one.
    static func widthRuns(_ segments: [Segment], base: Double, tolerance: Double = widthTolerance) -> [WidthRun] {
        guard !segments.isEmpty else { return [] }
        guard segments.contains(where: { $0.pressure != nil }) else {
            return [WidthRun(segments: 0..<segments.count, width: base)]
        }
        var runs: [WidthRun] = []
        var start = 0
        var width = lineWidth(base: base, pressure: segments[0].pressure)
        for index in 1..<segments.count {
            let next = lineWidth(base: base, pressure: segments[index].pressure)
            if abs(next - width) > tolerance * width {
                runs.append(WidthRun(segments: start..<index, width: width))
                start = index
                width = next
            }
        }
        runs.append(WidthRun(segments: start..<segments.count, width: width))
        return runs
    }

    /// The line width for a pressure: 60 % of `base` at no pressure up to 140 % at full; `base` when unknown.
    static func lineWidth(base: Double, pressure: Double?) -> Double {
        guard let p = pressure, p.isFinite else { return base }
        return base * (0.6 + 0.8 * min(max(p, 0), 1))
    }
}
