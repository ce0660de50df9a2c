import ConsentCore
import Foundation
import Testing

@testable import ConsentPDF

/// `consentctl signature show`'s images: the strokes coloured by pressure, and speed over time.
@Suite struct SignatureExaminationPNGTests {
    static func line(pressure: Double?) -> SignatureStrokes {
        SignatureStrokes(
            strokes: [(0..<20).map { StrokePoint(x: 0.1 + Double($0) * 0.04, y: 0.5, t: Double($0) * 10, p: pressure) }],
            widthMM: 120, heightMM: 40)
    }

    static func reddish(_ r: UInt8, _ g: UInt8, _ b: UInt8) -> Bool { r > 180 && b < 80 }
    static func bluish(_ r: UInt8, _ g: UInt8, _ b: UInt8) -> Bool { b > 180 && r < 80 }

    @Test func pressureColoursRunFromBlueToRed() throws {
        let firm = try #require(PNGImage(png: [UInt8](try SignatureExaminationPNG.pressure(strokes: Self.line(pressure: 1), width: 600, height: 200))))
        #expect(firm.pixelCount(where: Self.reddish) > 500)
        #expect(firm.pixelCount(where: Self.bluish) == 0)
        let light = try #require(PNGImage(png: [UInt8](try SignatureExaminationPNG.pressure(strokes: Self.line(pressure: 0), width: 600, height: 200))))
        #expect(light.pixelCount(where: Self.bluish) > 500)
        #expect(light.pixelCount(where: Self.reddish) == 0)
        // Without pressure: grey ink, neither colour.
        let none = try #require(PNGImage(png: [UInt8](try SignatureExaminationPNG.pressure(strokes: Self.line(pressure: nil), width: 600, height: 200))))
        #expect(none.darkPixelCount() > 500 && none.pixelCount(where: Self.reddish) == 0 && none.pixelCount(where: Self.bluish) == 0)
    }

    @Test func speedIsPlottedOverTime() throws {
        let speeds = SignatureExaminationPNG.speeds(Self.line(pressure: 0.5))
        // 0.04 widths every 10 ms: 4 widths per second, 19 intervals.
        #expect(speeds.map(\.count) == [19])
        #expect(speeds[0].allSatisfy { abs($0.speed - 4) < 1e-9 })
        let image = try #require(PNGImage(png: [UInt8](try SignatureExaminationPNG.speed(strokes: Self.line(pressure: 0.5), width: 600, height: 300))))
        #expect(image.width == 600 && image.darkPixelCount() > 300)
        #expect(throws: ConsentPDFError(.invalidSize, "")) {
            try SignatureExaminationPNG.speed(strokes: Self.line(pressure: 0.5), width: 0, height: 10)
        }
    }
}
