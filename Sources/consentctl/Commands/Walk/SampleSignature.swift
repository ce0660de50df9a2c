import Foundation
import JSON

/// The built-in stroke `consentctl walk --sample-signature` submits: a looped scrawl in two strokes, long enough
/// for the agent's minimum (10 points) and clearly not a person's signature on the PDF.
enum SampleSignature {
    static let widthMM = 120.0
    static let heightMM = 40.0

    /// `types/Strokes`: `[[x, y, t, p]]`, x and y 0…1 from the top-left, t ms, p 0…1.
    static var strokes: JSONValue {
        let strokes = [loops(), underline()].map { stroke in JSONValue.array(stroke.map { point in .array(point.map(JSONValue.number)) }) }
        return ["strokes": .array(strokes), "widthMM": .number(widthMM), "heightMM": .number(heightMM)]
    }

    private static func loops() -> [[Double]] {
        (0..<48).map { i in
            let s = Double(i) / 47
            let x = 0.1 + 0.6 * s + 0.05 * sin(s * 6 * .pi)
            let y = 0.45 - 0.2 * cos(s * 6 * .pi)
            return [round3(x), round3(min(max(y, 0), 1)), Double(i * 12), 0.6]
        }
    }

    private static func underline() -> [[Double]] {
        (0..<16).map { i in
            let s = Double(i) / 15
            return [round3(0.15 + 0.7 * s), round3(0.8 - 0.04 * s), Double(700 + i * 10), 0.5]
        }
    }

    private static func round3(_ value: Double) -> Double { (value * 1000).rounded() / 1000 }
}
