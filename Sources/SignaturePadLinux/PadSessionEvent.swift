import SignaturePad

/// What a ``PadCaptureSession`` reports on its ``PadCaptureSession/events`` stream.
public enum PadSessionEvent: Sendable, Hashable {
    /// A pad was plugged in (or became visible) while the session runs.
    case padAdded(PadDescription)
    /// A pad was unplugged.
    case padRemoved(PadDescription)
    /// The ink of one frame, for live echo (see ``FrameInk``), when the capture has no ``InkHandler``.
    case ink(FrameInk)
    /// The capturing pad went away; the open stroke ended as interrupted, the strokes so far are kept, and the
    /// capture resumes when the same pad comes back.
    case captureSuspended(PadDescription)
    /// The capturing pad came back (possibly on another node); new ink continues the same signature.
    case captureResumed(PadDescription)
}

/// Receives a capture's ink on the session's I/O thread, one call per frame, with the capturing pad's node (it
/// changes when the pad comes back on another node). Called with the session's lock held, so it must be quick
/// and never block or call back into the session; in return no ink arrives after the capture has ended.
public typealias InkHandler = @Sendable (_ ink: FrameInk, _ pad: String) -> Void

/// A snapshot of the running capture.
public struct CaptureStatus: Sendable, Hashable {
    public var pad: PadDescription
    /// The pad is exclusively grabbed (dedicated pads only).
    public var isGrabbed: Bool
    /// The pad was unplugged and the capture waits for it.
    public var isWaitingForPad: Bool
    public var isPenDown: Bool
    public var pointCount: Int
    public var strokeCount: Int
}
