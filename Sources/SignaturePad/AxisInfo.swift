/// The range of one absolute axis (`struct input_absinfo`).
///
/// The input core does not clamp values to `[minimum, maximum]` (see `linux/input.h`), so every consumer must.
/// `resolution` is units per millimetre for positions, and units per gram for pressure (0 = unknown).
public struct AxisInfo: Sendable, Hashable, Codable {
    public var minimum: Int32
    public var maximum: Int32
    public var fuzz: Int32
    public var flat: Int32
    public var resolution: Int32

    public init(minimum: Int32, maximum: Int32, fuzz: Int32 = 0, flat: Int32 = 0, resolution: Int32 = 0) {
        self.minimum = minimum
        self.maximum = maximum
        self.fuzz = fuzz
        self.flat = flat
        self.resolution = resolution
    }

    /// An axis whose maximum does not exceed its minimum cannot be normalised and is treated as absent.
    public var isUsable: Bool { maximum > minimum }

    /// The number of distinct values, e.g. 1024 pressure levels for `0...1023`.
    public var levels: Int { isUsable ? Int(maximum) - Int(minimum) + 1 : 0 }

    /// Physical length in millimetres when the resolution is known.
    public var lengthMM: Double? {
        guard resolution > 0, isUsable else { return nil }
        return Double(Int(maximum) - Int(minimum)) / Double(resolution)
    }

    /// `value` limited to the axis range.
    @inlinable
    public func clamp(_ value: Int32) -> Int32 { Swift.min(Swift.max(value, minimum), maximum) }

    /// `value`, clamped, mapped to `0...1` (0 for an unusable axis).
    @inlinable
    public func normalize(_ value: Int32) -> Double {
        guard maximum > minimum else { return 0 }
        return Double(Int(clamp(value)) - Int(minimum)) / Double(Int(maximum) - Int(minimum))
    }
}
