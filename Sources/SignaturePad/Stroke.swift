/// Why a stroke ended without the pen being lifted.
public enum InterruptionReason: String, Sendable, Hashable, Codable {
    /// The kernel dropped events (`SYN_DROPPED`): the reader fell behind.
    case eventsDropped
    /// The pad was unplugged (udev remove or `ENODEV`).
    case deviceRemoved
}

/// One pen-down to pen-up trace.
public struct Stroke: Sendable, Hashable, Codable {
    public var points: [InkPoint]
    /// Set when the stroke did not end with a pen lift.
    public var interruption: InterruptionReason?

    public init(points: [InkPoint] = [], interruption: InterruptionReason? = nil) {
        self.points = points
        self.interruption = interruption
    }

    public var isInterrupted: Bool { interruption != nil }
}

/// A stretch of time in which events were lost, kept in the record so nothing is silently filled.
public struct CaptureGap: Sendable, Hashable, Codable {
    public var reason: InterruptionReason
    /// Timestamp (µs) of the last event before the gap, when known.
    public var from: Int64?
    /// Timestamp (µs) at which the loss was noticed.
    public var at: Int64

    public init(reason: InterruptionReason, from: Int64?, at: Int64) {
        self.reason = reason
        self.from = from
        self.at = at
    }
}

/// The ink produced by one frame, for live echo.
///
/// A batch appends `points` to stroke `strokeIndex` (a new stroke when the first point has `.strokeStart`). A
/// batch with `endsStroke` closes that stroke; `interruption` says why when it was not a pen lift.
public struct FrameInk: Sendable, Hashable, Codable {
    public var strokeIndex: Int
    public var points: [InkPoint]
    public var endsStroke: Bool
    public var interruption: InterruptionReason?
    /// The timestamp (µs) of the capture's first point since it began or was cleared, the zero of the stroke
    /// format's `t` (a record's `t` counts from the same point, ``Signature/startTime``); nil before any point.
    public var origin: Int64?

    public init(
        strokeIndex: Int, points: [InkPoint], endsStroke: Bool = false, interruption: InterruptionReason? = nil,
        origin: Int64? = nil
    ) {
        self.strokeIndex = strokeIndex
        self.points = points
        self.endsStroke = endsStroke
        self.interruption = interruption
        self.origin = origin
    }
}
