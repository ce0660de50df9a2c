import ConsentCore
import SignaturePad

extension StrokePoint {
    /// One pad point in the stroke format; `origin` is the signature's first timestamp (µs).
    init(_ point: InkPoint, origin: Int64) {
        // Kernel timestamps are monotonic; the clamp only guards the format's t >= 0 against a clock oddity.
        self.init(x: point.x, y: point.y, t: Double(max(0, point.time - origin)) / 1000, p: point.pressure)
    }
}
