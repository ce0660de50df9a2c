/// One evdev event: `(type, code, value)` plus the kernel timestamp.
///
/// The timestamp is in microseconds of the clock the reader selected (CLOCK_MONOTONIC when the Linux reader could
/// set `EVIOCSCLOCKID`), so strokes share the agent's monotonic clock. The pure pipeline never looks at wall time.
public struct InputEvent: Sendable, Hashable {
    public var type: UInt16
    public var code: UInt16
    public var value: Int32
    /// Kernel timestamp in microseconds.
    public var timestamp: Int64

    public init(type: UInt16, code: UInt16, value: Int32, timestamp: Int64) {
        self.type = type
        self.code = code
        self.value = value
        self.timestamp = timestamp
    }

    /// True for `EV_SYN/SYN_REPORT`, the end of a hardware frame.
    public var isFrameEnd: Bool { type == EventType.syn && code == SynCode.report }
}
