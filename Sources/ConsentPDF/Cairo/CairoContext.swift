import CCairoPango

/// Owns one `cairo_t` and offers the few drawing operations the renderers use.
///
/// Raw cairo and pango handles are only touched in `Cairo/`; `pointer` is internal so `PangoTextLayout` can
/// draw its lines on this context.
final class CairoContext {
    let pointer: OpaquePointer

    /// Takes ownership of a context made by `cairo_create`.
    init(surface: OpaquePointer) {
        pointer = cairo_create(surface)
    }

    deinit { cairo_destroy(pointer) }

    var isHealthy: Bool { cairo_status(pointer) == CAIRO_STATUS_SUCCESS }
    var statusDescription: String { String(cString: cairo_status_to_string(cairo_status(pointer))) }

    func setGrey(_ level: Double) { cairo_set_source_rgb(pointer, level, level, level) }
    func setColor(red: Double, green: Double, blue: Double) { cairo_set_source_rgb(pointer, red, green, blue) }
    func setLineWidth(_ width: Double) { cairo_set_line_width(pointer, width) }

    func useRoundPen() {
        cairo_set_line_cap(pointer, CAIRO_LINE_CAP_ROUND)
        cairo_set_line_join(pointer, CAIRO_LINE_JOIN_ROUND)
    }

    func useSquarePen() {
        cairo_set_line_cap(pointer, CAIRO_LINE_CAP_BUTT)
        cairo_set_line_join(pointer, CAIRO_LINE_JOIN_MITER)
    }

    func move(to x: Double, _ y: Double) { cairo_move_to(pointer, x, y) }
    func line(to x: Double, _ y: Double) { cairo_line_to(pointer, x, y) }
    func curve(_ x1: Double, _ y1: Double, _ x2: Double, _ y2: Double, to x: Double, _ y: Double) {
        cairo_curve_to(pointer, x1, y1, x2, y2, x, y)
    }
    func circle(x: Double, y: Double, radius: Double) {
        cairo_new_sub_path(pointer)
        cairo_arc(pointer, x, y, radius, 0, 2 * Double.pi)
    }
    func rectangle(_ rect: Rect) { cairo_rectangle(pointer, rect.x, rect.y, rect.width, rect.height) }
    func stroke() { cairo_stroke(pointer) }
    func fill() { cairo_fill(pointer) }
    func paintWhite() {
        cairo_set_source_rgb(pointer, 1, 1, 1)
        cairo_paint(pointer)
    }

    /// Draws `image` scaled into `rect`.
    func draw(_ image: PNGImage, in rect: Rect) {
        guard image.width > 0, image.height > 0 else { return }
        cairo_save(pointer)
        cairo_translate(pointer, rect.x, rect.y)
        cairo_scale(pointer, rect.width / Double(image.width), rect.height / Double(image.height))
        cairo_set_source_surface(pointer, image.surface, 0, 0)
        cairo_paint(pointer)
        cairo_restore(pointer)
    }

    /// Adds a PDF link annotation over `rect` (cairo ≥ 1.16 tags; other surfaces ignore them).
    func link(_ rect: Rect, uri: String) {
        let escaped = uri.replacingAll("\\", with: "\\\\").replacingAll("'", with: "\\'")
        let attributes = "rect=[\(Self.number(rect.x)) \(Self.number(rect.y)) \(Self.number(rect.width)) "
            + "\(Self.number(rect.height))] uri='\(escaped)'"
        cairo_tag_begin(pointer, "Link", attributes)
        cairo_tag_end(pointer, "Link")
    }

    /// A decimal cairo's attribute parser reads: fixed point, two decimals, never an exponent.
    private static func number(_ value: Double) -> String {
        let hundredths = Int((value * 100).rounded())
        let sign = hundredths < 0 ? "-" : ""
        let magnitude = abs(hundredths)
        let fraction = magnitude % 100
        return "\(sign)\(magnitude / 100).\(fraction < 10 ? "0" : "")\(fraction)"
    }
}

extension String {
    /// Replaces every occurrence of `target` (no Foundation needed).
    func replacingAll(_ target: Character, with replacement: String) -> String {
        var result = ""
        result.reserveCapacity(count)
        for character in self {
            if character == target { result += replacement } else { result.append(character) }
        }
        return result
    }
}
