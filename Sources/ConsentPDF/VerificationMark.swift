import CCairoPango
import CPoppler
import Foundation

/// The mark a printed copy of a record carries: `CK1:<record id>:<manifest SHA-256 hex>`, as a QR code and as the
/// same text under it, on the copy's signature page (its last page).
///
/// The mark is stamped when the copy is printed, never into the record: the record's manifest hashes `consent.pdf`,
/// so that file cannot carry the manifest's own hash. Whoever holds the paper can have its mark checked against the
/// signed record (`consentctl copy check`), which finds the record by its id and compares the manifest's hash.
public struct VerificationMark: Sendable, Hashable, CustomStringConvertible {
    /// The record's id: letters, digits, `-` and `_` only (what `RecordID` makes), never a `:`.
    public let recordID: String
    /// The SHA-256 of the record's exact `manifest.json`, 64 lowercase hex digits.
    public let manifestSHA256: String

    /// The mark's version prefix: a later layout of the text gets a new one, and readers refuse prefixes they do not
    /// know.
    public static let prefix = "CK1"

    /// - Returns: nil when the id or the digest is not of the form a record has.
    public init?(recordID: String, manifestSHA256: String) {
        guard Self.isRecordID(recordID), Self.isDigest(manifestSHA256) else { return nil }
        self.recordID = recordID
        self.manifestSHA256 = manifestSHA256
    }

    /// Reads a mark from its text (what the QR code holds, or what is printed under it, typed in again). Spaces and
    /// line breaks around it are ignored, and hex digits in either case are accepted, since a person may type them.
    public init?(text: String) {
        let parts = text.trimmingCharacters(in: .whitespacesAndNewlines).split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 3, parts[0] == Self.prefix else { return nil }
        self.init(recordID: String(parts[1]), manifestSHA256: parts[2].lowercased())
    }

    public var description: String { "\(Self.prefix):\(recordID):\(manifestSHA256)" }

    static func isRecordID(_ id: String) -> Bool {
        !id.isEmpty && id.count <= 128
            && id.unicodeScalars.allSatisfy { $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || $0 == "-" || $0 == "_") }
    }

    static func isDigest(_ hex: String) -> Bool {
        hex.count == 64 && hex.unicodeScalars.allSatisfy { ("0"..."9").contains($0) || ("a"..."f").contains($0) }
    }

    /// The QR code of the mark's text.
    func modules() throws -> QRModules {
        try QRModules(encoding: description, what: "the verification mark")
    }

    /// `pdf` with this mark stamped at the foot of its last page (where the signatures are), or on a page added after
    /// it when that page has content there: every page is drawn again by poppler onto a new cairo PDF, so the copy
    /// looks as the signed document does, plus the mark.
    ///
    /// - Throws: `ConsentPDFError.renderingFailed` when `pdf` cannot be read or the copy cannot be drawn.
    public func stamp(_ pdf: Data) throws -> Data {
        let code = try modules()
        try CairoPangoLibrary.require()
        // poppler-glib is opened here, when the first copy is stamped, not at the agent's start (CPoppler/shim.h).
        guard let poppler = cpoppler_library() else {
            throw ConsentPDFError(.renderingFailed, "poppler-glib (libpoppler-glib.so.8) cannot be loaded to stamp the copy")
        }
        return try pdf.withUnsafeBytes { raw -> Data in
            guard let base = raw.baseAddress, let document = cpoppler_document_new(poppler, base, raw.count) else {
                throw ConsentPDFError(.renderingFailed, "the consent PDF cannot be read back to stamp its copy")
            }
            defer { cairoPango.g_object_unref(UnsafeMutableRawPointer(document)) }
            let count = Int(poppler.pointee.documentPageCount(document))
            guard count > 0 else { throw ConsentPDFError(.renderingFailed, "the consent PDF has no pages") }
            var canvas: PDFCanvas?
            for index in 0..<count {
                guard let page = poppler.pointee.documentPage(document, Int32(index)) else {
                    throw ConsentPDFError(.renderingFailed, "a page of the consent PDF cannot be read")
                }
                defer { cairoPango.g_object_unref(UnsafeMutableRawPointer(page)) }
                var pageWidth = 0.0, pageHeight = 0.0
                poppler.pointee.pageSize(page, &pageWidth, &pageHeight)
                let current = try canvas ?? PDFCanvas(width: pageWidth, height: pageHeight)
                canvas = current
                current.setPageSize(width: pageWidth, height: pageHeight)
                let cr = current.context.pointer
                cairoPango.cairo_save(cr)
                poppler.pointee.pageRenderForPrinting(page, cr)
                cairoPango.cairo_restore(cr)
                guard index == count - 1 else {
                    current.showPage()
                    continue
                }
                // The signature page carries the mark where it hides nothing; a page filled to its foot gets the
                // mark on a page of its own after it, so that no word of the signed document is covered.
                let area = Self.area(pageWidth: pageWidth, pageHeight: pageHeight)
                let isFree = Self.isBlank(area) { poppler.pointee.pageRender(page, $0) }
                if !isFree { current.showPage() }
                try draw(code, on: current.context, in: area)
                current.showPage()
            }
            guard let canvas else { throw ConsentPDFError(.renderingFailed, "the consent PDF has no pages") }
            return try canvas.finish()
        }
    }

    /// Where the mark goes: the QR code, 25 mm square with its quiet zone, at the page's lower right corner above
    /// the footer (page number and study version, in the bottom 15 mm), and the text under it in 5 pt monospace on
    /// three lines (20 pt).
    static func area(pageWidth: Double, pageHeight: Double) -> (x: Double, y: Double, side: Double, text: Double) {
        let mm = 72.0 / 25.4
        let side = 25 * mm, text = 20.0
        return (pageWidth - 10 * mm - side, pageHeight - 18 * mm - side - text, side, text)
    }

    /// Whether `render` leaves the mark's area white: it is drawn at 2 pixels a point into an image of that area
    /// alone, and any pixel darker than near-white counts.
    static func isBlank(_ area: (x: Double, y: Double, side: Double, text: Double), render: (OpaquePointer) -> Void) -> Bool {
        let scale = 2.0
        let width = Int32(area.side * scale), height = Int32((area.side + area.text) * scale)
        guard let surface = cairoPango.cairo_image_surface_create(CAIRO_FORMAT_RGB24, width, height) else { return false }
        defer { cairoPango.cairo_surface_destroy(surface) }
        guard let cr = cairoPango.cairo_create(surface) else { return false }
        cairoPango.cairo_set_source_rgb(cr, 1, 1, 1)
        cairoPango.cairo_paint(cr)
        cairoPango.cairo_scale(cr, scale, scale)
        cairoPango.cairo_translate(cr, -area.x, -area.y)
        render(cr)
        cairoPango.cairo_destroy(cr)
        cairoPango.cairo_surface_flush(surface)
        guard let data = cairoPango.cairo_image_surface_get_data(surface) else { return false }
        let stride = Int(cairoPango.cairo_image_surface_get_stride(surface))
        for row in 0..<Int(height) {
            let line = UnsafeRawPointer(data + row * stride).assumingMemoryBound(to: UInt32.self)
            for column in 0..<Int(width) {
                let pixel = line[column]
                if (pixel >> 16) & 0xff < 0xf0 || (pixel >> 8) & 0xff < 0xf0 || pixel & 0xff < 0xf0 { return false }
            }
        }
        return true
    }

    /// The QR code and its text in `area`, on white so that they read whatever the page has there.
    private func draw(_ code: QRModules, on context: CairoContext, in area: (x: Double, y: Double, side: Double, text: Double)) throws {
        let (x, y, side) = (area.x, area.y, area.side)
        let cr = context.pointer
        cairoPango.cairo_save(cr)
        defer { cairoPango.cairo_restore(cr) }
        code.draw(on: cr, x: x, y: y, side: side)
        try FontLibrary.withFontMap { map in
            guard let pango = ccairopango_create_context(cairoPangoTable, map, cr), let layout = cairoPango.pango_layout_new(pango) else {
                throw ConsentPDFError(.renderingFailed, "pango could not lay out the verification mark")
            }
            defer {
                cairoPango.g_object_unref(UnsafeMutableRawPointer(layout))
                cairoPango.g_object_unref(UnsafeMutableRawPointer(pango))
            }
            let font = cairoPango.pango_font_description_from_string("DejaVu Sans Mono 5")
            defer { cairoPango.pango_font_description_free(font) }
            cairoPango.pango_layout_set_font_description(layout, font)
            // The whole text on one line would be wider than the page's margin allows: the id on one line, the
            // digest's halves on two more, so the text is still the mark read left to right, top to bottom.
            let half = manifestSHA256.index(manifestSHA256.startIndex, offsetBy: 32)
            let lines = "\(Self.prefix):\(recordID):\n\(manifestSHA256[..<half])\n\(manifestSHA256[half...])"
            cairoPango.pango_layout_set_text(layout, lines, -1)
            var inkRect = PangoRectangle(), logical = PangoRectangle()
            cairoPango.pango_layout_get_extents(layout, &inkRect, &logical)
            let textWidth = Double(logical.width) / Double(PANGO_SCALE)
            let textTall = Double(logical.height) / Double(PANGO_SCALE)
            let right = x + side
            cairoPango.cairo_set_source_rgb(cr, 1, 1, 1)
            cairoPango.cairo_rectangle(cr, right - textWidth, y + side, textWidth, textTall)
            cairoPango.cairo_fill(cr)
            cairoPango.cairo_set_source_rgb(cr, 0, 0, 0)
            cairoPango.cairo_move_to(cr, right - textWidth, y + side)
            cairoPango.pango_cairo_show_layout(cr, layout)
        }
    }
}
