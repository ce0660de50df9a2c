/// Lays out text and images for the page layout, which only needs their line heights and sizes.
///
/// `FlowLayout` is pure: pagination is tested with a fake measurer, and the cairo renderer (`PangoMeasurer`)
/// keeps each layout it measured so it draws exactly the lines that were paginated.
protocol TextMeasuring: AnyObject {
    /// Lays out `text` in `width` points.
    func measure(_ text: InlineText, role: TextRole, width: Double, centered: Bool) -> MeasuredText
    /// Decodes a PNG; nil when it is not one.
    func measureImage(_ png: [UInt8]) -> MeasuredImage?
}

/// One line of a measured text, in points relative to the text's top-left corner.
struct LineMetrics: Sendable, Hashable {
    /// The line's offset from the left edge (non-zero for centred or right-to-left lines).
    var x: Double
    var width: Double
    var height: Double
    /// The baseline, measured from the line's top.
    var baseline: Double
}

struct MeasuredText: Sendable, Hashable {
    /// Names the layout for the renderer.
    var handle: Int
    var lines: [LineMetrics]
    /// Pango refused the markup; the text was laid out plain instead.
    var markupRejected: Bool = false

    var height: Double { lines.reduce(0) { $0 + $1.height } }
}

struct MeasuredImage: Sendable, Hashable {
    var handle: Int
    var pixelWidth: Int
    var pixelHeight: Int
}
