import CCairoPango
import Foundation

/// The slip a participant who paused takes home (`flow.pause` on a kiosk with a printer): the study's title, the
/// resume code large, the sentence naming the day it works until, and the code again as a QR code, which a
/// barcode reader at the kiosk types into the code field. Nothing else: no answer, no name, no record.
///
/// One page of the kiosk's paper, the slip in its top third, so it can be torn or cut off.
public struct ResumeSlip: Sendable, Hashable {
    public var studyTitle: String
    /// "Your code".
    public var codeLabel: String
    /// The code as shown ("ACDE-FH34"); the QR code holds it without the hyphen, as it is typed.
    public var code: String
    /// The day it works until, and how to come back, in the flow's language.
    public var text: String

    public init(studyTitle: String, codeLabel: String, code: String, text: String) {
        self.studyTitle = studyTitle
        self.codeLabel = codeLabel
        self.code = code
        self.text = text
    }

    /// The slip as a PDF on `paper`.
    ///
    /// - Throws: `ConsentPDFError.renderingFailed` when cairo, pango or libqrencode fail.
    public func render(paper: PDFOptions.Paper) throws -> RenderedPDF {
        let (width, height) = paper.size
        let mm = 72.0 / 25.4
        let margin = 18 * mm, qrSide = 32 * mm
        let canvas = try PDFCanvas(width: width, height: height)
        let cr = canvas.context.pointer
        let qr = try QRModules(encoding: code.replacingOccurrences(of: "-", with: ""), what: "the resume code")
        let textWidth = width - 2 * margin - qrSide - 8 * mm
        try FontLibrary.withFontMap { map in
            guard let pango = ccairopango_create_context(cairoPangoTable, map, cr) else {
                throw ConsentPDFError(.renderingFailed, "pango could not lay out the resume slip")
            }
            defer { cairoPango.g_object_unref(UnsafeMutableRawPointer(pango)) }
            var y = margin
            for (text, font) in [
                (studyTitle, "\(StyleSheet.serif) Bold 14"), (codeLabel, "\(StyleSheet.serif) 11"),
                (code, "\(StyleSheet.mono) Bold 30"), (self.text, "\(StyleSheet.serif) 11"),
            ] {
                y += try Self.show(text, font: font, on: cr, pango: pango, x: margin, y: y, width: textWidth) + 3 * mm
            }
            qr.draw(on: cr, x: width - margin - qrSide, y: margin, side: qrSide)
            // Where to cut: a dashed line under the slip.
            let cut = max(y, margin + qrSide) + 6 * mm
            cairoPango.cairo_set_source_rgb(cr, 0.5, 0.5, 0.5)
            cairoPango.cairo_set_line_width(cr, 0.5)
            var dashes = [4.0, 3.0]
            cairoPango.cairo_set_dash(cr, &dashes, 2, 0)
            cairoPango.cairo_move_to(cr, margin / 2, cut)
            cairoPango.cairo_line_to(cr, width - margin / 2, cut)
            cairoPango.cairo_stroke(cr)
        }
        canvas.showPage()
        return RenderedPDF(data: try canvas.finish(), pageCount: 1, warnings: [])
    }

    /// Shows `text` wrapped to `width` at (`x`, `y`); returns its height.
    private static func show(
        _ text: String, font description: String, on cr: OpaquePointer, pango: OpaquePointer, x: Double, y: Double,
        width: Double
    ) throws -> Double {
        guard let layout = cairoPango.pango_layout_new(pango) else {
            throw ConsentPDFError(.renderingFailed, "pango could not lay out the resume slip")
        }
        defer { cairoPango.g_object_unref(UnsafeMutableRawPointer(layout)) }
        let font = cairoPango.pango_font_description_from_string(description)
        defer { cairoPango.pango_font_description_free(font) }
        cairoPango.pango_layout_set_font_description(layout, font)
        cairoPango.pango_layout_set_width(layout, Int32(width * Double(PANGO_SCALE)))
        cairoPango.pango_layout_set_wrap(layout, PANGO_WRAP_WORD_CHAR)
        cairoPango.pango_layout_set_text(layout, text, -1)
        var ink = PangoRectangle(), logical = PangoRectangle()
        cairoPango.pango_layout_get_extents(layout, &ink, &logical)
        cairoPango.cairo_set_source_rgb(cr, 0, 0, 0)
        cairoPango.cairo_move_to(cr, x, y)
        cairoPango.pango_cairo_show_layout(cr, layout)
        return Double(logical.height) / Double(PANGO_SCALE)
    }
}
