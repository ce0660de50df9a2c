/// The signing contact's state at the end of one hardware frame (`SYN_REPORT`).
public struct PenFrame: Sendable, Hashable {
    /// Timestamp (µs) of the closing `SYN_REPORT`.
    public var time: Int64
    /// The signing contact touches the surface.
    public var isDown: Bool
    /// Raw, unclamped device units.
    public var x: Int32
    public var y: Int32
    public var pressure: Int32?
    public var tiltX: Int32?
    public var tiltY: Int32?
    /// The first frame after a `SYN_DROPPED` resync.
    public var isResync: Bool

    public init(
        time: Int64, isDown: Bool, x: Int32, y: Int32, pressure: Int32? = nil, tiltX: Int32? = nil,
        tiltY: Int32? = nil, isResync: Bool = false
    ) {
        self.time = time
        self.isDown = isDown
        self.x = x
        self.y = y
        self.pressure = pressure
        self.tiltX = tiltX
        self.tiltY = tiltY
        self.isResync = isResync
    }
}

/// What the ``FrameAssembler`` hands to the ``StrokeBuilder``.
public enum FrameOutput: Sendable, Hashable {
    case frame(PenFrame)
    /// The pen moved in proximity with its tip up (no ink): a pen-up sample for the record's full-fidelity data.
    case hover(PenFrame)
    /// The kernel dropped events at this time (µs); state is unknown until the next frame.
    case dropped(at: Int64)
}
