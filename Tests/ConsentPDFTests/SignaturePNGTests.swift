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
