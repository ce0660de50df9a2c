import SignaturePad

/// What a ``PadCaptureSession`` reports on its ``PadCaptureSession/events`` stream.
public enum PadEvent: Sendable, Hashable {
    /// A pad was plugged in (or became visible) while the session runs.
    case padAdded(PadDescription)
    /// A pad was unplugged.
    case padRemoved(PadDescription)
    /// The ink of one frame, for live echo (see ``InkBatch``).
    case ink(InkBatch)
    /// The capturing pad went away; the open stroke ended as interrupted, the strokes so far are kept, and the
    /// capture resumes when the same pad comes back.
    case captureSuspended(PadDescription)
    /// The capturing pad came back (possibly on another node); new ink continues the same signature.
    case captureResumed(PadDescription)
}

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
