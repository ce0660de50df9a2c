import ConsentCore
import SignaturePad

extension StrokePoint {
    /// One pad point in the stroke format; `origin` is the signature's first timestamp (µs).
    init(_ point: InkPoint, origin: Int64) {
        self.init(x: point.x, y: point.y, t: Self.milliseconds(point.time, since: origin), p: point.pressure)
    }

    /// The stroke format's `t` (ms since `origin`) of a pad timestamp (µs): the one conversion for the record, its
    /// device description and the live echo.
    ///
    /// Kernel timestamps are monotonic and the capture never lets them step back (`StrokeBuilder`), so the clamp
    /// to 0 only guards the format's t >= 0; the overflow check guards against the timestamps a FIFO pad (or a
    /// broken driver) can send, whose difference may not fit in 64 bits.
    static func milliseconds(_ time: Int64, since origin: Int64) -> Double {
        let (difference, overflow) = time.subtractingReportingOverflow(origin)
        guard !overflow else { return time > origin ? (Double(time) - Double(origin)) / 1000 : 0 }
        return Double(max(0, difference)) / 1000
    }
}
