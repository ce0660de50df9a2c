import CCairoPango
import Foundation

/// Owns an ARGB cairo image surface and its context, and encodes it as PNG.
final class ImageCanvas {
    private let surface: OpaquePointer
    let context: CairoContext

    init(width: Int, height: Int) throws {
        guard let surface = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, Int32(width), Int32(height)) else {
            throw ConsentPDFError(.renderingFailed, "cairo could not create an image")
        }
        guard cairo_surface_status(surface) == CAIRO_STATUS_SUCCESS else {
            cairo_surface_destroy(surface)
            throw ConsentPDFError(.renderingFailed, "cairo could not create a \(width)×\(height) image")
        }
        self.surface = surface
        context = CairoContext(surface: surface)
    }

    deinit { cairo_surface_destroy(surface) }

    func png() throws -> Data {
        cairo_surface_flush(surface)
        let sink = PNGSink()
        let status = withExtendedLifetime(sink) {
            cairo_surface_write_to_png_stream(
                surface,
                { closure, data, length in
                    guard let closure, let data else { return CAIRO_STATUS_WRITE_ERROR }
                    Unmanaged<PNGSink>.fromOpaque(closure).takeUnretainedValue().bytes.append(
                        contentsOf: UnsafeBufferPointer(start: data, count: Int(length)))
                    return CAIRO_STATUS_SUCCESS
                }, Unmanaged.passUnretained(sink).toOpaque())
        }
        guard status == CAIRO_STATUS_SUCCESS, context.isHealthy else {
            throw ConsentPDFError(.renderingFailed, "cairo could not encode the signature image (\(context.statusDescription))")
        }
        return Data(sink.bytes)
    }
}

private final class PNGSink {
    var bytes: [UInt8] = []
}
