import CCairoPango
import ConsentCore
import Foundation

/// Renders a signature's strokes as a PNG (the FHIR `Signature.data` image), with the same curves as the PDF.
public enum SignaturePNG {
    /// The largest side accepted, in pixels.
    public static let maximumSide = 4096

    /// Draws the strokes on a white image of `width` × `height` pixels, the signing area fitted inside with a
    /// small margin and its aspect ratio kept when `widthMM`/`heightMM` are known.
    ///
    /// - Throws: `ConsentPDFError` `.invalidSize` for a size outside 1…4096, `.invalidSignature` for strokes out of
    ///   range, `.renderingFailed` when cairo fails.
    public static func render(strokes: SignatureStrokes, width: Int, height: Int) throws -> Data {
        try check(strokes, width: width, height: height)
        let image = try ImageCanvas(width: width, height: height)
        image.context.paintWhite()
        let points = strokes.strokes.map { $0.map { StrokeGeometry.Point(x: $0.x, y: $0.y, pressure: $0.p) } }
        StrokePainter.draw(
            points, in: signingArea(of: strokes, width: width, height: height),
            baseWidth: max(1.5, Double(height) * 0.025), on: image.context)
        return try image.png()
    }

    /// The image size and the strokes' ranges, checked before anything is drawn.
    static func check(_ strokes: SignatureStrokes, width: Int, height: Int) throws {
        guard (1...maximumSide).contains(width), (1...maximumSide).contains(height) else {
            throw ConsentPDFError(.invalidSize, "a signature image must be 1 to \(maximumSide) pixels on each side")
        }
        do {
            try strokes.validate()
        } catch let error as ConsentCoreError {
            throw ConsentPDFError(.invalidSignature, error.message)
        }
    }

    /// The signing area fitted inside a small margin of the image, its aspect kept when `widthMM`/`heightMM` are known.
    static func signingArea(of strokes: SignatureStrokes, width: Int, height: Int) -> Rect {
        let margin = Double(min(width, height)) * 0.05
        let box = Rect(x: margin, y: margin, width: Double(width) - 2 * margin, height: Double(height) - 2 * margin)
        var aspect: Double?
        if let w = strokes.widthMM, let h = strokes.heightMM, h > 0 { aspect = w / h }
        return StrokeGeometry.fit(aspectRatio: aspect, into: box)
    }
}
