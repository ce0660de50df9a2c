/// The facts about a pad that turn its events into ink, derived once from its ``PadDescription``.
public struct CaptureProfile: Sendable, Hashable {
    public var x: AxisInfo
    public var y: AxisInfo
    public var pressure: AxisInfo?
    public var tiltX: AxisInfo?
    public var tiltY: AxisInfo?
    /// Read MT protocol B slots instead of the single-touch emulation.
    public var usesMultitouch: Bool
    public var slotCount: Int
    /// Pens with pressure decide tip-down from pressure with hysteresis rather than from `BTN_TOUCH`.
    public var usesPressureForTip: Bool
    public var thresholds: PressureHysteresis.Thresholds

    /// - Throws: `SignaturePadError.noAxes` when the pad has no usable X/Y range.
    public init(pad: PadDescription, thresholds: PressureHysteresis.Thresholds = .init()) throws {
        guard let x = pad.x, x.isUsable, let y = pad.y, y.isUsable else {
            throw SignaturePadError(
                .noAxes,
                "The pad \(pad.node) reports no usable X/Y axis range, so it cannot capture ink; choose another pad.")
        }
        self.x = x
        self.y = y
        self.pressure = pad.pressure.flatMap { $0.isUsable ? $0 : nil }
        self.tiltX = pad.tiltX.flatMap { $0.isUsable ? $0 : nil }
        self.tiltY = pad.tiltY.flatMap { $0.isUsable ? $0 : nil }
        // More than 64 slots is not real hardware; bound the slot table so a hostile device cannot make us allocate.
        self.slotCount = min(max(pad.slotCount, 0), 64)
        self.usesMultitouch = pad.kind == .multitouch && slotCount > 0
        self.usesPressureForTip = pad.kind == .pen && self.pressure != nil
        self.thresholds = thresholds
    }
}
