import CCairoPango
import Foundation

/// Owns an ARGB cairo image surface and its context, and encodes it as PNG.
final class ImageCanvas {
    let surface: OpaquePointer
    let context: CairoContext

    init(width: Int, height: Int) throws {
        try CairoPangoLibrary.require()
        guard let surface = cairoPango.cairo_image_surface_create(CAIRO_FORMAT_ARGB32, Int32(width), Int32(height)) else {
            throw ConsentPDFError(.renderingFailed, "cairo could not create an image")
        }
        guard cairoPango.cairo_surface_status(surface) == CAIRO_STATUS_SUCCESS else {
            cairoPango.cairo_surface_destroy(surface)
            throw ConsentPDFError(.renderingFailed, "cairo could not create a \(width)×\(height) image")
        }
        self.surface = surface
        do {
            context = try CairoContext(surface: surface)
        } catch {
            cairoPango.cairo_surface_destroy(surface)
            throw error
        }
    }

    deinit { cairoPango.cairo_surface_destroy(surface) }

    /// The image as PNG: the pixels cairo's own writer gives, encoded faster (`ccairopango_surface_png`).
    func png() throws -> Data {
        cairoPango.cairo_surface_flush(surface)
        guard context.isHealthy else {
            throw ConsentPDFError(.renderingFailed, "cairo could not draw the signature image (\(context.statusDescription))")
        }
        var bytes: UnsafeMutablePointer<UInt8>?
        var length = 0
        guard ccairopango_surface_png(cairoPangoTable, surface, &bytes, &length) == 0, let bytes else {
            throw ConsentPDFError(.renderingFailed, "the signature image could not be encoded as PNG")
        }
        defer { free(bytes) }
        return Data(bytes: bytes, count: length)
    }
}
