import CCairoPango
import Foundation

/// Owns a cairo PDF surface that writes into memory, and the context drawing on it.
///
/// The surface streams its bytes into `ByteSink`; the canvas keeps the sink alive for as long as the surface
/// exists, so the write callback never sees a freed closure.
final class PDFCanvas {
    private let surface: OpaquePointer
    private let sink: ByteSink
    let context: CairoContext

    /// - Throws: `ConsentPDFError.Code.renderingFailed` when cairo cannot be loaded or cannot create the surface.
    init(width: Double, height: Double) throws {
        try CairoPangoLibrary.require()
        let sink = ByteSink()
        let surface = cairoPango.cairo_pdf_surface_create_for_stream(
            { closure, data, length in
                guard let closure, let data else { return CAIRO_STATUS_WRITE_ERROR }
                let sink = Unmanaged<ByteSink>.fromOpaque(closure).takeUnretainedValue()
                sink.bytes.append(contentsOf: UnsafeBufferPointer(start: data, count: Int(length)))
                return CAIRO_STATUS_SUCCESS
            }, Unmanaged.passUnretained(sink).toOpaque(), width, height)
        guard let surface else {
            throw ConsentPDFError(.renderingFailed, "cairo could not create a PDF surface")
        }
        guard cairoPango.cairo_surface_status(surface) == CAIRO_STATUS_SUCCESS else {
            let reason = CairoContext.describe(cairoPango.cairo_surface_status(surface))
            cairoPango.cairo_surface_destroy(surface)
            throw ConsentPDFError(.renderingFailed, "cairo could not create a PDF surface (\(reason))")
        }
        self.sink = sink
        self.surface = surface
        do {
            self.context = try CairoContext(surface: surface)
        } catch {
            cairoPango.cairo_surface_destroy(surface)
            throw error
        }
    }

    deinit {
        // Finish now, while `sink` is certainly alive: the context still holds a reference to the surface, and
        // a surface finished only when that reference goes would write into a released sink.
        cairoPango.cairo_surface_finish(surface)
        cairoPango.cairo_surface_destroy(surface)
    }

    /// Title, subject, keywords, creator and creation date of the document.
    func setMetadata(title: String, subject: String, keywords: String, creator: String, created: Date, zone: TimeZone) {
        cairoPango.cairo_pdf_surface_set_metadata(surface, CAIRO_PDF_METADATA_TITLE, title)
        cairoPango.cairo_pdf_surface_set_metadata(surface, CAIRO_PDF_METADATA_SUBJECT, subject)
        cairoPango.cairo_pdf_surface_set_metadata(surface, CAIRO_PDF_METADATA_KEYWORDS, keywords)
        cairoPango.cairo_pdf_surface_set_metadata(surface, CAIRO_PDF_METADATA_CREATOR, creator)
        cairoPango.cairo_pdf_surface_set_metadata(surface, CAIRO_PDF_METADATA_CREATE_DATE, Self.isoDate(created, zone: zone))
    }

    func showPage() { cairoPango.cairo_show_page(context.pointer) }

    /// The size of the pages drawn from now on (points); a copy of another PDF keeps each page's own size.
    func setPageSize(width: Double, height: Double) { cairoPango.cairo_pdf_surface_set_size(surface, width, height) }

    /// Ends the document and returns its bytes.
    ///
    /// - Throws: `ConsentPDFError.Code.renderingFailed` with cairo's reason when anything went wrong.
    func finish() throws -> Data {
        guard context.isHealthy else {
            throw ConsentPDFError(.renderingFailed, "cairo failed while drawing the PDF (\(context.statusDescription))")
        }
        cairoPango.cairo_surface_finish(surface)
        let status = cairoPango.cairo_surface_status(surface)
        guard status == CAIRO_STATUS_SUCCESS else {
            let reason = CairoContext.describe(status)
            throw ConsentPDFError(.renderingFailed, "cairo failed while writing the PDF (\(reason))")
        }
        return Data(sink.bytes)
    }

    /// "2026-11-22T14:05:00+01:00", the form cairo turns into a PDF date.
    static func isoDate(_ date: Date, zone: TimeZone) -> String {
        let local = SigningTime.localDateTime(date, in: zone, seconds: true, separator: "T")
        let offset = SigningTime.utcOffset(zone.secondsFromGMT(for: date)).dropFirst(3)
        return local + (offset == "+00:00" ? "Z" : offset)
    }
}

/// Where the PDF surface's stream writes land.
private final class ByteSink {
    var bytes: [UInt8] = []

    init() { bytes.reserveCapacity(64 * 1024) }
}
