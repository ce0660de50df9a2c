/// One sample of ink, at full fidelity.
///
/// Positions are kept twice: normalised to `0...1` from the top-left of the active area (what the UI and the
/// stroke format use) and in raw device units (for the record, so they can later be converted to millimetres with
/// the pad's resolution). Raw values are as reported; the normalised ones are clamped to the axis range.
public struct InkPoint: Sendable, Hashable, Codable {
    /// Per-point facts a consumer may need to render or audit the ink.
    public struct Flags: OptionSet, Sendable, Hashable, Codable {
        public let rawValue: UInt8
        public init(rawValue: UInt8) { self.rawValue = rawValue }

        /// The first point of a stroke.
        public static let strokeStart = Flags(rawValue: 1 << 0)
        /// The last point of a stroke (set when the stroke ends).
        public static let strokeEnd = Flags(rawValue: 1 << 1)
        /// The stroke ended here because events were lost or the pad went away, not because the pen lifted.
        public static let interrupted = Flags(rawValue: 1 << 2)
        /// The device reported a position outside its axis range; the normalised value was clamped.
        public static let clamped = Flags(rawValue: 1 << 3)
        /// The first point after a SYN_DROPPED resync; nothing was interpolated before it.
        public static let resynced = Flags(rawValue: 1 << 4)
    }

    /// Normalised position, `0...1` from the left.
    public var x: Double
    /// Normalised position, `0...1` from the top.
    public var y: Double
    public var deviceX: Int32
    public var deviceY: Int32
    /// Normalised pressure `0...1`, nil when the device has no pressure axis.
    public var pressure: Double?
    /// Kernel timestamp in microseconds (monotonic clock).
    public var time: Int64
    /// Raw tilt in device units (usually degrees), when the pen reports it.
    public var tiltX: Int32?
    public var tiltY: Int32?
    public var flags: Flags

    public init(
        x: Double, y: Double, deviceX: Int32, deviceY: Int32, pressure: Double?, time: Int64, tiltX: Int32? = nil,
        tiltY: Int32? = nil, flags: Flags = []
    ) {
        self.x = x
        self.y = y
        self.deviceX = deviceX
        self.deviceY = deviceY
        self.pressure = pressure
        self.time = time
        self.tiltX = tiltX
        self.tiltY = tiltY
        self.flags = flags
    }
}
