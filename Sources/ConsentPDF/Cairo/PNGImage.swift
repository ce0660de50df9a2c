import CCairoPango

/// Owns a cairo image surface decoded from PNG bytes.
final class PNGImage {
    /// The largest side accepted, in pixels: larger images would take hundreds of megabytes to decode.
    static let maximumSide = 8000

    let surface: OpaquePointer
    let width: Int
    let height: Int

    /// Decodes `png`; nil when it is not a PNG, is too large, or cairo cannot be loaded or cannot read it.
    init?(png: [UInt8]) {
        guard CairoPangoLibrary.isAvailable, let size = Self.headerSize(png), size.width <= Self.maximumSide, size.height <= Self.maximumSide else {
            return nil
        }
        let reader = PNGReader(png)
        let surface = withExtendedLifetime(reader) {
            cairoPango.cairo_image_surface_create_from_png_stream(
                { closure, data, length in
                    guard let closure, let data else { return CAIRO_STATUS_READ_ERROR }
                    let reader = Unmanaged<PNGReader>.fromOpaque(closure).takeUnretainedValue()
                    return reader.read(into: data, count: Int(length)) ? CAIRO_STATUS_SUCCESS : CAIRO_STATUS_READ_ERROR
                }, Unmanaged.passUnretained(reader).toOpaque())
        }
        guard let surface else { return nil }
        guard cairoPango.cairo_surface_status(surface) == CAIRO_STATUS_SUCCESS else {
            cairoPango.cairo_surface_destroy(surface)
            return nil
        }
        self.surface = surface
        width = Int(cairoPango.cairo_image_surface_get_width(surface))
        height = Int(cairoPango.cairo_image_surface_get_height(surface))
    }

    deinit { cairoPango.cairo_surface_destroy(surface) }

    /// The size in the IHDR chunk, checked before decoding; nil when the bytes do not start like a PNG.
    static func headerSize(_ png: [UInt8]) -> (width: Int, height: Int)? {
        let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        guard png.count >= 24, Array(png[0..<8]) == signature, Array(png[12..<16]) == Array("IHDR".utf8) else {
            return nil
        }
        func be32(_ at: Int) -> Int { png[at..<(at + 4)].reduce(0) { $0 << 8 | Int($1) } }
        return (be32(16), be32(20))
    }
}

/// Feeds cairo's PNG reader from memory.
private final class PNGReader {
    private let bytes: [UInt8]
    private var offset = 0

    init(_ bytes: [UInt8]) { self.bytes = bytes }

    func read(into destination: UnsafeMutablePointer<UInt8>, count: Int) -> Bool {
        guard count <= bytes.count - offset else { return false }
        bytes.withUnsafeBufferPointer { source in
            guard let base = source.baseAddress else { return }
            destination.update(from: base + offset, count: count)
        }
        offset += count
        return true
    }
}

extension PNGImage {
    /// How many pixels are clearly darker than the paper: lets tests (and a sanity check before a signature image
    /// is stored) see that ink was drawn.
    func darkPixelCount(below level: UInt8 = 128) -> Int {
        pixelCount { red, green, blue in (Int(red) + Int(green) + Int(blue)) / 3 < Int(level) }
    }
}

extension PNGImage {
    /// How many opaque pixels match `colour` (red, green, blue): lets tests see what colour was drawn.
    func pixelCount(where colour: (UInt8, UInt8, UInt8) -> Bool) -> Int {
        cairoPango.cairo_surface_flush(surface)
        guard let data = cairoPango.cairo_image_surface_get_data(surface) else { return 0 }
        let stride = Int(cairoPango.cairo_image_surface_get_stride(surface))
        var count = 0
        for y in 0..<height {
            let row = data + y * stride
            for x in 0..<width {
                // ARGB32, premultiplied, native endian: on little-endian machines the bytes are B, G, R, A.
                let pixel = row + x * 4
                if pixel[3] > 128 && colour(pixel[2], pixel[1], pixel[0]) { count += 1 }
            }
        }
        return count
    }
}
