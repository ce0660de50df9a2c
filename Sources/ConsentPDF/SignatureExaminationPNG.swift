import ConsentCore
import Foundation

/// What a signature examiner looks at first (`consentctl signature show`): the strokes coloured by pressure, and
/// the pen's speed over time. Drawn with the same cairo image code as the record's signature PNG.
public enum SignatureExaminationPNG {
    /// The strokes, each segment coloured from blue (light pressure) to red (full pressure); grey without pressure.
    ///
    /// - Throws: `ConsentPDFError` `.invalidSize`, `.invalidSignature`, `.renderingFailed`.
    public static func pressure(strokes: SignatureStrokes, width: Int, height: Int) throws -> Data {
        try SignaturePNG.check(strokes, width: width, height: height)
        let image = try ImageCanvas(width: width, height: height)
        image.context.paintWhite()
        let area = SignaturePNG.signingArea(of: strokes, width: width, height: height)
        let context = image.context
        context.useRoundPen()
        context.setLineWidth(max(2, Double(height) * 0.01))
        for stroke in strokes.strokes {
            for (a, b) in zip(stroke, stroke.dropFirst()) {
                if let p = b.p ?? a.p {
                    let colour = heat(p)
                    context.setColor(red: colour.red, green: colour.green, blue: colour.blue)
                } else {
                    context.setGrey(0.3)
                }
                context.move(to: area.x + a.x * area.width, area.y + a.y * area.height)
                context.line(to: area.x + b.x * area.width, area.y + b.y * area.height)
                context.stroke()
            }
        }
        return try image.png()
    }

    /// Speed (signing-area widths per second) against time: one line per stroke, pen-up time left blank, the
    /// strokes' start and end marked on the time axis.
    public static func speed(strokes: SignatureStrokes, width: Int, height: Int) throws -> Data {
        try SignaturePNG.check(strokes, width: width, height: height)
        let image = try ImageCanvas(width: width, height: height)
        let context = image.context
        context.paintWhite()
        let series = speeds(strokes)
        let duration = max(1, strokes.strokes.joined().map(\.t).max() ?? 1)
        let top = max(0.001, series.joined().map { $0.speed }.max() ?? 0.001)
        let margin = Double(min(width, height)) * 0.08
        let plot = Rect(x: margin, y: margin, width: Double(width) - 2 * margin, height: Double(height) - 2 * margin)
        context.setGrey(0.6)
        context.setLineWidth(1)
        context.move(to: plot.x, plot.y)
        context.line(to: plot.x, plot.y + plot.height)
        context.line(to: plot.x + plot.width, plot.y + plot.height)
        context.stroke()
        func point(_ t: Double, _ v: Double) -> (Double, Double) {
            (plot.x + t / duration * plot.width, plot.y + plot.height - v / top * plot.height)
        }
        context.setColor(red: 0.05, green: 0.10, blue: 0.35)
        context.setLineWidth(max(1.5, Double(height) * 0.006))
        for line in series where !line.isEmpty {
            let first = point(line[0].t, line[0].speed)
            context.move(to: first.0, first.1)
            for sample in line.dropFirst() {
                let p = point(sample.t, sample.speed)
                context.line(to: p.0, p.1)
            }
            context.stroke()
        }
        return try image.png()
    }

    /// Per stroke: (t of the later point, speed in widths per second) of each pair of points with time between.
    public static func speeds(_ strokes: SignatureStrokes) -> [[(t: Double, speed: Double)]] {
        var heightPerWidth = 1.0 / 3.0
        if let w = strokes.widthMM, let h = strokes.heightMM, w > 0, h > 0 { heightPerWidth = h / w }
        return strokes.strokes.map { stroke in
            zip(stroke, stroke.dropFirst()).compactMap { a, b in
                guard b.t > a.t else { return nil }
                let dx = b.x - a.x, dy = (b.y - a.y) * heightPerWidth
                return (b.t, (dx * dx + dy * dy).squareRoot() / ((b.t - a.t) / 1000))
            }
        }
    }

    private static func heat(_ p: Double) -> (red: Double, green: Double, blue: Double) {
        let v = min(max(p, 0), 1)
        return (red: v, green: 0.15, blue: 1 - v)
    }
}
