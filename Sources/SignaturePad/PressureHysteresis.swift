/// Decides pen-down from pressure with two thresholds, as libinput does for tablets.
///
/// `BTN_TOUCH` is not trusted on pens: worn nibs and noisy sensors toggle it. The tip goes down when pressure
/// rises above `down` (a fraction of the range, libinput: 5 %) and up only when it falls below `up` (1 %), so a
/// pen hovering around one value does not chatter strokes.
public struct PressureHysteresis: Sendable, Hashable {
    public struct Thresholds: Sendable, Hashable, Codable {
        public var down: Double
        public var up: Double
        public init(down: Double = 0.05, up: Double = 0.01) {
            self.down = down
            self.up = max(0, min(up, down))
        }
    }

    public private(set) var isDown = false
    private let downValue: Int32
    private let upValue: Int32

    public init(axis: AxisInfo, thresholds: Thresholds = Thresholds()) {
        let range = Double(Int(axis.maximum) - Int(axis.minimum))
        func at(_ fraction: Double) -> Int32 {
            Int32(clamping: Int(axis.minimum) + Int((range * fraction).rounded(.up)))
        }
        // At least one unit above the minimum, so a resting value of 0 never counts as down.
        downValue = max(at(thresholds.down), axis.minimum + 1)
        upValue = min(max(at(thresholds.up), axis.minimum + 1), downValue)
    }

    /// Feeds the current pressure; returns the tip state.
    @discardableResult
    public mutating func update(_ pressure: Int32) -> Bool {
        if isDown {
            if pressure < upValue { isDown = false }
        } else if pressure >= downValue {
            isDown = true
        }
        return isDown
    }

    public mutating func reset() { isDown = false }
}
