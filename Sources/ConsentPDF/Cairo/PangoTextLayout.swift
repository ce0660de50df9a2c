import CCairoPango

/// Owns one `PangoLayout`: a measured paragraph, kept so the renderer draws exactly the lines that were
/// paginated.
final class PangoTextLayout {
    private let layout: OpaquePointer
    /// The layout's lines, in order (owned by the layout, valid while it is unchanged).
    private var lines: [OpaquePointer] = []
    let text: InlineText
    let role: TextRole
    private(set) var metrics: [LineMetrics] = []
    /// Pango refused the markup and the plain text was laid out instead.
    private(set) var markupRejected = false

    private static let scale = Double(PANGO_SCALE)

    init(context: OpaquePointer, font: OpaquePointer, text: InlineText, role: TextRole, width: Double, centered: Bool) {
        // GLib aborts the process when memory runs out rather than return NULL from g_object_new, so a layout
        // always comes back; the header just does not say so.
        guard let made = cairoPango.pango_layout_new(context) else { preconditionFailure("pango_layout_new gave NULL") }
        layout = made
        self.text = text
        self.role = role
        cairoPango.pango_layout_set_font_description(layout, font)
        cairoPango.pango_layout_set_width(layout, Int32(max(1, width) * Self.scale))
        cairoPango.pango_layout_set_wrap(layout, PANGO_WRAP_WORD_CHAR)
        if centered { cairoPango.pango_layout_set_alignment(layout, PANGO_ALIGN_CENTER) }
        setMarkup()
        collectLines()
    }

    deinit { cairoPango.g_object_unref(UnsafeMutableRawPointer(layout)) }

    /// Parses the markup first, so a rejection is noticed (pango_layout_set_markup would silently show nothing)
    /// and the paragraph falls back to its plain text.
    private func setMarkup() {
        var attributes: OpaquePointer?
        var parsedText: UnsafeMutablePointer<CChar>?
        var error: OpaquePointer?
        if !text.markup.utf8.contains(UInt8(ascii: "<")) {
            // No tags: the plain text is the whole story, and GMarkup need not run.
            cairoPango.pango_layout_set_text(layout, text.plain, -1)
        } else if cairoPango.pango_parse_markup(text.markup, -1, 0, &attributes, &parsedText, nil, &error) != 0, let parsedText {
            cairoPango.pango_layout_set_text(layout, parsedText, -1)
        } else {
            markupRejected = true
            cairoPango.pango_layout_set_text(layout, text.plain, -1)
            if let parsed = attributes { cairoPango.pango_attr_list_unref(parsed) }
            attributes = nil
        }
        // No ligatures: "fi" stays two WinAnsi glyphs, so text extraction never depends on ActualText and the
        // body needs no extra CID font subset (one more font to embed and compress in every PDF).
        if let list = attributes ?? cairoPango.pango_attr_list_new() {
            if let features = cairoPango.pango_attr_font_features_new("liga 0, clig 0") {
                cairoPango.pango_attr_list_insert_before(list, features)
            }
            cairoPango.pango_layout_set_attributes(layout, list)
            cairoPango.pango_attr_list_unref(list)
        }
        if let parsedText { cairoPango.g_free(parsedText) }
        if let error { cairoPango.g_error_free(error) }
    }

    private func collectLines() {
        guard let iter = cairoPango.pango_layout_get_iter(layout) else { return }
        defer { cairoPango.pango_layout_iter_free(iter) }
        repeat {
            var logical = PangoRectangle()
            cairoPango.pango_layout_iter_get_line_extents(iter, nil, &logical)
            let baseline = Double(cairoPango.pango_layout_iter_get_baseline(iter) - logical.y) / Self.scale
            if let line = cairoPango.pango_layout_iter_get_line_readonly(iter) {
                lines.append(line)
                metrics.append(
                    LineMetrics(
                        x: Double(logical.x) / Self.scale, width: Double(logical.width) / Self.scale,
                        height: Double(logical.height) / Self.scale, baseline: baseline))
            }
        } while cairoPango.pango_layout_iter_next_line(iter) != 0
    }

    /// Draws line `index` with the text box's left edge at `x` and its baseline at `baseline`, and adds a PDF
    /// link annotation over each part of a link on that line.
    func drawLine(_ index: Int, x: Double, baseline: Double, on context: CairoContext) {
        guard lines.indices.contains(index) else { return }
        let line = lines[index]
        let metric = metrics[index]
        cairoPango.cairo_move_to(context.pointer, x + metric.x, baseline)
        cairoPango.pango_cairo_show_layout_line(context.pointer, line)
        guard !text.links.isEmpty, !markupRejected else { return }
        var lineStart: Int32 = 0, lineLength: Int32 = 0
        ccairopango_line_range(line, &lineStart, &lineLength)
        let start = Int(lineStart)
        let end = start + Int(lineLength)
        for link in text.links where link.range.lowerBound < end && link.range.upperBound > start {
            var ranges: UnsafeMutablePointer<Int32>?
            var count: Int32 = 0
            cairoPango.pango_layout_line_get_x_ranges(
                line, Int32(max(start, link.range.lowerBound)), Int32(min(end, link.range.upperBound)), &ranges, &count)
            guard let ranges else { continue }
            defer { cairoPango.g_free(ranges) }
            for i in 0..<Int(count) {
                let left = Double(ranges[2 * i]) / Self.scale
                let right = Double(ranges[2 * i + 1]) / Self.scale
                guard right > left else { continue }
                let rect = Rect(x: x + left, y: baseline - metric.baseline, width: right - left, height: metric.height)
                context.link(rect, uri: link.uri)
            }
        }
    }
}
