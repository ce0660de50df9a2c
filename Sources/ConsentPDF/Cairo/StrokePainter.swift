/// Draws a signature as vector strokes: one cubic Bézier per gap between captured points (Catmull-Rom through
/// the points), round caps and joins, width following pressure when the pad reports it.
enum StrokePainter {
    /// Dark blue ink, as a pen on paper.
    static let ink = (red: 0.05, green: 0.10, blue: 0.35)

    static func draw(_ strokes: [[StrokeGeometry.Point]], in rect: Rect, baseWidth: Double, on context: CairoContext) {
        context.setColor(red: ink.red, green: ink.green, blue: ink.blue)
        context.useRoundPen()
        func map(_ x: Double, _ y: Double) -> (Double, Double) { (rect.x + x * rect.width, rect.y + y * rect.height) }
        for stroke in strokes {
            guard let first = stroke.first else { continue }
            let start = map(first.x, first.y)
            if stroke.count == 1 {
                // A tap: a dot as wide as the pen.
                context.circle(x: start.0, y: start.1, radius: StrokeGeometry.lineWidth(base: baseWidth, pressure: first.pressure) / 2)
                context.fill()
                continue
            }
            // cairo strokes a path at one width, so the width follows pressure from path to path: one path per run
            // of segments of about one width, its round joins drawing what separate round caps would.
            let segments = StrokeGeometry.segments(stroke)
            var current = start
            for run in StrokeGeometry.widthRuns(segments, base: baseWidth) {
                context.setLineWidth(run.width)
                context.move(to: current.0, current.1)
                for segment in segments[run.segments] {
                    let c1 = map(segment.control1.x, segment.control1.y)
                    let c2 = map(segment.control2.x, segment.control2.y)
                    let end = map(segment.end.x, segment.end.y)
                    context.curve(c1.0, c1.1, c2.0, c2.1, to: end.0, end.1)
                    current = end
                }
                context.stroke()
            }
        }
    }
}
