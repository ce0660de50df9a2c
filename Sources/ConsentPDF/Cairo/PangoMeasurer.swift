import CCairoPango

/// `TextMeasuring` with pango on a cairo context: lays out each text once and keeps the layout (and each decoded
/// image) for the renderer, which draws them by handle.
///
/// A measurer can continue another (`init(continuing:)`): it measures with the other's pango context, numbers its
/// handles after the other's, and looks the other's up in it, so pages laid out by the first (a study's, kept in
/// `StudyLayoutCache`) and by the second (one participant's signature page) draw through one measurer, while the
/// first is never changed.
final class PangoMeasurer: TextMeasuring {
    private let context: OpaquePointer
    /// The measurer this one continues, whose handles come first.
    private let base: PangoMeasurer?
    private let firstLayout: Int
    private let firstImage: Int
    private var fonts: [String: OpaquePointer] = [:]
    private(set) var layouts: [PangoTextLayout] = []
    private(set) var images: [PNGImage] = []
    /// Short texts measured before (list markers, the footer's version, captions): a layout is immutable once
    /// made, so identical ones are shared instead of shaped again.
    private var shortTexts: [ShortTextKey: MeasuredText] = [:]

    private struct ShortTextKey: Hashable {
        var markup: String
        var role: TextRole
        var width: Double
        var centered: Bool
    }

    /// - Parameters:
    ///   - cairo: The context whose surface the text is for (font metrics follow its target).
    ///   - fontMap: `FontLibrary`'s map; the measurer must be freed while its lock is held.
    init(cairo: CairoContext, fontMap: OpaquePointer) {
        base = nil
        firstLayout = 0
        firstImage = 0
        context = ccairopango_create_context(cairoPangoTable, fontMap, cairo.pointer)
        // Unhinted metrics and unrounded positions: a PDF is scaled by its viewer, so pixel grid fitting only
        // distorts spacing.
        let options = cairoPango.cairo_font_options_create()
        cairoPango.cairo_font_options_set_hint_metrics(options, CAIRO_HINT_METRICS_OFF)
        cairoPango.cairo_font_options_set_hint_style(options, CAIRO_HINT_STYLE_NONE)
        cairoPango.pango_cairo_context_set_font_options(context, options)
        cairoPango.cairo_font_options_destroy(options)
        cairoPango.pango_context_set_round_glyph_positions(context, 0)
        // Font sizes are in points and the PDF's unit is the point: pango-cairo would assume 96 dpi otherwise.
        cairoPango.pango_cairo_context_set_resolution(context, 72)
    }

    /// Continues `base` (see the type's comment). Every PDF surface has the same font options and an identity
    /// matrix, which is all pango takes from a cairo context, so the base's context measures for any of them.
    init(continuing base: PangoMeasurer) {
        self.base = base
        firstLayout = base.firstLayout + base.layouts.count
        firstImage = base.firstImage + base.images.count
        context = base.context
        cairoPango.g_object_ref(UnsafeMutableRawPointer(context))
    }

    deinit {
        layouts.removeAll()
        for font in fonts.values { cairoPango.pango_font_description_free(font) }
        cairoPango.g_object_unref(UnsafeMutableRawPointer(context))
    }

    func measure(_ text: InlineText, role: TextRole, width: Double, centered: Bool) -> MeasuredText {
        let key = text.markup.utf8.count <= 64 && text.links.isEmpty
            ? ShortTextKey(markup: text.markup, role: role, width: width, centered: centered) : nil
        if let key, let known = shortTexts[key] { return known }
        let layout = PangoTextLayout(
            context: context, font: font(StyleSheet.style(for: role).font), text: text, role: role, width: width,
            centered: centered)
        layouts.append(layout)
        let measured = MeasuredText(
            handle: firstLayout + layouts.count - 1, lines: layout.metrics, markupRejected: layout.markupRejected)
        if let key { shortTexts[key] = measured }
        return measured
    }

    func measureImage(_ png: [UInt8]) -> MeasuredImage? {
        guard let image = PNGImage(png: png) else { return nil }
        images.append(image)
        return MeasuredImage(handle: firstImage + images.count - 1, pixelWidth: image.width, pixelHeight: image.height)
    }

    func layout(_ handle: Int) -> PangoTextLayout? {
        if handle < firstLayout { return base?.layout(handle) }
        return layouts.indices.contains(handle - firstLayout) ? layouts[handle - firstLayout] : nil
    }

    func image(_ handle: Int) -> PNGImage? {
        if handle < firstImage { return base?.image(handle) }
        return images.indices.contains(handle - firstImage) ? images[handle - firstImage] : nil
    }

    private func font(_ description: String) -> OpaquePointer {
        if let font = fonts[description] { return font }
        // from_string only returns NULL for a NULL string; a new description is the harmless fallback.
        let font = cairoPango.pango_font_description_from_string(description) ?? cairoPango.pango_font_description_new()
        guard let font else { preconditionFailure("pango could not allocate a font description") }
        fonts[description] = font
        return font
    }
}
