/// Something drawn at a fixed position on a page, in points from the page's top-left corner.
enum Placement: Sendable, Hashable {
    /// Lines of a measured text; `x` is the left edge of the text's box.
    case text(handle: Int, x: Double, lines: [PlacedLine], role: TextRole)
    case image(handle: Int, rect: Rect)
    /// A thin horizontal line (signature lines).
    case rule(x: Double, y: Double, width: Double)
    /// A thin rectangle outline (table cells).
    case frame(Rect)
    /// A signature, scaled into `rect`.
    case strokes([[StrokeGeometry.Point]], rect: Rect)
}

struct PlacedLine: Sendable, Hashable {
    /// The line's index in its measured text.
    var index: Int
    /// The page y of the line's baseline.
    var baseline: Double
}

struct Rect: Sendable, Hashable {
    var x: Double
    var y: Double
    var width: Double
    var height: Double
}
