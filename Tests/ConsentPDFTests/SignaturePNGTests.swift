import CCairoPango
import ConsentCore
import Foundation
import Testing

@testable import ConsentPDF

@Suite struct SignaturePNGTests {
    @Test(arguments: [(600, 200), (300, 300), (1200, 400)])
    func decodesToTheRequestedSizeWithInk(size: (Int, Int)) throws {
        let data = try SignaturePNG.render(strokes: Fixtures.strokes(pressure: true), width: size.0, height: size.1)
        let header = try #require(PNGImage.headerSize([UInt8](data)))
        #expect(header.width == size.0 && header.height == size.1)
        let image = try #require(PNGImage(png: [UInt8](data)))
        #expect(image.width == size.0 && image.height == size.1)
        let ink = image.darkPixelCount()
        #expect(ink > size.0 * size.1 / 200, "ink pixels: \(ink)")
        #expect(ink < size.0 * size.1 / 4)
    }

    /// The PNG is encoded by `ccairopango_surface_png` (libpng, no row filter, zlib level 5) rather than by cairo's
    /// writer (all five filters tried per row, level 6), for speed; its pixels must stay cairo's to the byte, for an
    /// opaque signature (written as RGB) and a translucent image (RGBA, colours divided by alpha as cairo does).
    @Test(arguments: [true, false])
    func pixelsAreExactlyThoseOfCairosOwnWriter(opaque: Bool) throws {
        let canvas = try ImageCanvas(width: 900, height: 300)
        if opaque { canvas.context.paintWhite() }
        let points = Fixtures.strokes(pressure: true).strokes.map {
            $0.map { StrokeGeometry.Point(x: $0.x, y: $0.y, pressure: $0.p) }
        }
        StrokePainter.draw(points, in: Rect(x: 45, y: 15, width: 810, height: 270), baseWidth: 7.5, on: canvas.context)
        let ours = [UInt8](try canvas.png())
        let theirs = Self.cairoWriterPNG(canvas.surface)
        #expect(ours[25] == (opaque ? 2 : 6), "colour type: RGB when opaque, else RGBA, as cairo chooses")
        #expect(theirs[25] == ours[25])
        // The same chunks around the image data (IHDR, the white bKGD, IEND); only how IDAT is split differs.
        #expect(Self.chunkNames(ours).filter { $0 != "IDAT" } == ["IHDR", "bKGD", "IEND"])
        #expect(Self.chunkNames(theirs).filter { $0 != "IDAT" } == ["IHDR", "bKGD", "IEND"])
        let decodedOurs = try #require(PNGImage(png: ours))
        let decodedTheirs = try #require(PNGImage(png: theirs))
        #expect(Self.pixels(decodedOurs) == Self.pixels(decodedTheirs))
        // And no larger than cairo's for a signature (long runs of white).
        if opaque { #expect(ours.count <= theirs.count, "ours \(ours.count) bytes, cairo's \(theirs.count)") }
        #expect(decodedOurs.darkPixelCount() > 0 || !opaque)
    }

    static func cairoWriterPNG(_ surface: OpaquePointer) -> [UInt8] {
        final class Sink { var bytes: [UInt8] = [] }
        let sink = Sink()
        let status = withExtendedLifetime(sink) {
            cairoPango.cairo_surface_write_to_png_stream(
                surface,
                { closure, data, length in
                    guard let closure, let data else { return CAIRO_STATUS_WRITE_ERROR }
                    Unmanaged<Sink>.fromOpaque(closure).takeUnretainedValue().bytes.append(
                        contentsOf: UnsafeBufferPointer(start: data, count: Int(length)))
                    return CAIRO_STATUS_SUCCESS
                }, Unmanaged.passUnretained(sink).toOpaque())
        }
        #expect(status == CAIRO_STATUS_SUCCESS)
        return sink.bytes
    }

    /// The chunk types of a PNG, in order.
    static func chunkNames(_ png: [UInt8]) -> [String] {
        var names: [String] = []
        var offset = 8
        while offset + 8 <= png.count {
            let length = png[offset..<offset + 4].reduce(0) { $0 << 8 | Int($1) }
            names.append(String(decoding: png[offset + 4..<offset + 8], as: UTF8.self))
            offset += 12 + length
        }
        return names
    }

    static func pixels(_ image: PNGImage) -> [UInt8] {
        cairoPango.cairo_surface_flush(image.surface)
        let stride = Int(cairoPango.cairo_image_surface_get_stride(image.surface))
        guard let data = cairoPango.cairo_image_surface_get_data(image.surface) else { return [] }
        return Array(UnsafeBufferPointer(start: data, count: stride * image.height))
    }

    @Test func emptyStrokesGiveABlankImage() throws {
        let data = try SignaturePNG.render(strokes: SignatureStrokes(strokes: []), width: 100, height: 50)
        let image = try #require(PNGImage(png: [UInt8](data)))
        #expect(image.darkPixelCount() == 0)
    }

    @Test func sizesOutOfRangeAreRefused() {
        #expect(throws: ConsentPDFError(.invalidSize, "")) {
            try SignaturePNG.render(strokes: Fixtures.strokes(), width: 0, height: 10)
        }
        #expect(throws: ConsentPDFError(.invalidSize, "")) {
            try SignaturePNG.render(strokes: Fixtures.strokes(), width: 10, height: 100_000)
        }
    }
}
