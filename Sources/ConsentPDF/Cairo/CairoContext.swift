import CCairoPango

/// Owns one `cairo_t` and offers the few drawing operations the renderers use.
///
/// Raw cairo and pango handles are only touched in `Cairo/`; `pointer` is internal so `PangoTextLayout` can
/// draw its lines on this context.
final class CairoContext {
    let pointer: OpaquePointer

    /// Takes ownership of a context made by `cairo_create`.
    ///
    /// - Throws: `renderingFailed` if cairo gave none (it documents that it never does: on failure it returns a
    ///   context in an error state, which `isHealthy` reports).
    init(surface: OpaquePointer) throws {
        guard let made = cairoPango.cairo_create(surface) else {
            throw ConsentPDFError(.renderingFailed, "cairo could not create a drawing context")
        }
        pointer = made
    }

    deinit { cairoPango.cairo_destroy(pointer) }

    var isHealthy: Bool { cairoPango.cairo_status(pointer) == CAIRO_STATUS_SUCCESS }
    var statusDescription: String { Self.describe(cairoPango.cairo_status(pointer)) }

    /// cairo's sentence for `status`.
    static func describe(_ status: cairo_status_t) -> String {
        cairoPango.cairo_status_to_string(status).map { String(cString: $0) } ?? "cairo status \(status.rawValue)"
    }

    func setGrey(_ level: Double) { cairoPango.cairo_set_source_rgb(pointer, level, level, level) }
    func setColor(red: Double, green: Double, blue: Double) { cairoPango.cairo_set_source_rgb(pointer, red, green, blue) }
    func setLineWidth(_ width: Double) { cairoPango.cairo_set_line_width(pointer, width) }

    func useRoundPen() {
        cairoPango.cairo_set_line_cap(pointer, CAIRO_LINE_CAP_ROUND)
        cairoPango.cairo_set_line_join(pointer, CAIRO_LINE_JOIN_ROUND)
    }

    func useSquarePen() {
        cairoPango.cairo_set_line_cap(pointer, CAIRO_LINE_CAP_BUTT)
        cairoPango.cairo_set_line_join(pointer, CAIRO_LINE_JOIN_MITER)
    }

    func move(to x: Double, _ y: Double) { cairoPango.cairo_move_to(pointer, x, y) }
    func line(to x: Double, _ y: Double) { cairoPango.cairo_line_to(pointer, x, y) }
    func curve(_ x1: Double, _ y1: Double, _ x2: Double, _ y2: Double, to x: Double, _ y: Double) {
        cairoPango.cairo_curve_to(pointer, x1, y1, x2, y2, x, y)
    }
    func circle(x: Double, y: Double, radius: Double) {
        cairoPango.cairo_new_sub_path(pointer)
        cairoPango.cairo_arc(pointer, x, y, radius, 0, 2 * Double.pi)
    }
    func rectangle(_ rect: Rect) { cairoPango.cairo_rectangle(pointer, rect.x, rect.y, rect.width, rect.height) }
    func stroke() { cairoPango.cairo_stroke(pointer) }
    func fill() { cairoPango.cairo_fill(pointer) }
    func paintWhite() {
        cairoPango.cairo_set_source_rgb(pointer, 1, 1, 1)
        cairoPango.cairo_paint(pointer)
    }

    /// Draws `image` scaled into `rect`.
    func draw(_ image: PNGImage, in rect: Rect) {
        guard image.width > 0, image.height > 0 else { return }
        cairoPango.cairo_save(pointer)
        cairoPango.cairo_translate(pointer, rect.x, rect.y)
        cairoPango.cairo_scale(pointer, rect.width / Double(image.width), rect.height / Double(image.height))
        cairoPango.cairo_set_source_surface(pointer, image.surface, 0, 0)
        cairoPango.cairo_paint(pointer)
        cairoPango.cairo_restore(pointer)
    }

    /// Adds a PDF link annotation over `rect` (cairo ≥ 1.16 tags; other surfaces ignore them).
    func link(_ rect: Rect, uri: String) {
        let escaped = uri.replacingAll("\\", with: "\\\\").replacingAll("'", with: "\\'")
        let attributes = "rect=[\(Self.number(rect.x)) \(Self.number(rect.y)) \(Self.number(rect.width)) "
            + "\(Self.number(rect.height))] uri='\(escaped)'"
        cairoPango.cairo_tag_begin(pointer, "Link", attributes)
        cairoPango.cairo_tag_end(pointer, "Link")
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
