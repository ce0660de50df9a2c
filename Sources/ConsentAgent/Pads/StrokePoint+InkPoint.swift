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
        max(0, signedMilliseconds(time, since: origin))
    }

    /// The same without the clamp: negative for a time before `origin` (a capture gap may begin before the first
    /// point). Exact in 64 bits when the difference fits, else subtracted as Doubles.
    static func signedMilliseconds(_ time: Int64, since origin: Int64) -> Double {
        let (difference, overflow) = time.subtractingReportingOverflow(origin)
        return (overflow ? Double(time) - Double(origin) : Double(difference)) / 1000
    }
}
