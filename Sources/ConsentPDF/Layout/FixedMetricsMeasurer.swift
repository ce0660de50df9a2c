/// A `TextMeasuring` without Pango: every line 12 pt high and at most 400 pt wide, a new line every 80 bytes; an
/// image is 100 × 50 pixels when its bytes start with the PNG signature. The layout's pure code paginates with it
/// exactly as with cairo's measurer, thousands of times faster, so the fuzz targets (FuzzHTML, FuzzRecord) drive
/// `FlowLayout` through it.
final class FixedMetricsMeasurer: TextMeasuring {
    private var count = 0

    func measure(_ text: InlineText, role: TextRole, width: Double, centered: Bool) -> MeasuredText {
        count += 1
        let lines = max(1, (text.plain.utf8.count + 79) / 80)
        return MeasuredText(
            handle: count,
            lines: Array(repeating: LineMetrics(x: 0, width: min(width, 400), height: 12, baseline: 9), count: lines))
    }

    func measureImage(_ png: [UInt8]) -> MeasuredImage? {
        count += 1
        guard png.starts(with: [0x89, 0x50, 0x4E, 0x47]) else { return nil }
        return MeasuredImage(handle: count, pixelWidth: 100, pixelHeight: 50)
    }
}
