/// The whole pure pipeline for one capture: events → frames → strokes → ``Signature``.
///
/// The Linux session drives one of these from its reader thread; tests and the benchmark drive it from arrays or
/// evemu files. When a pad is unplugged and comes back, ``reconnect(device:)`` swaps the per-device state and
/// keeps the strokes already taken.
public struct StrokeCapture: Sendable {
    public private(set) var device: PadDescription
    private var assembler: FrameAssembler
    private var builder: StrokeBuilder

    /// - Throws: `SignaturePadError.noAxes` when the pad cannot produce ink.
    public init(device: PadDescription, thresholds: PressureHysteresis.Thresholds = .init()) throws {
        let profile = try CaptureProfile(pad: device, thresholds: thresholds)
        self.device = device
        self.assembler = FrameAssembler(profile: profile)
        self.builder = StrokeBuilder(profile: profile)
    }

    /// Feeds one event; returns the ink batch of the frame it closes, if any.
    @inline(__always)
    public mutating func process(_ event: InputEvent) -> FrameInk? {
        guard let output = assembler.process(event) else { return nil }
        return builder.apply(output)
    }

    /// Feeds many events, handing each batch to `emit`.
    public mutating func process(_ events: some Sequence<InputEvent>, emit: (FrameInk) -> Void = { _ in }) {
        for event in events {
            if let batch = process(event) { emit(batch) }
        }
    }

    /// Ends the open stroke as interrupted (the pad went away).
    public mutating func interrupt(_ reason: InterruptionReason, at time: Int64) -> FrameInk? {
        builder.interrupt(reason, at: time)
    }

    /// The pad is back (possibly on another node): fresh device state, same strokes.
    public mutating func reconnect(device: PadDescription) throws {
        let profile = try CaptureProfile(pad: device, thresholds: assembler.profile.thresholds)
        self.device = device
        self.assembler = FrameAssembler(profile: profile)
        // Keep the builder and its strokes; points already taken keep their normalised values.
        self.builder.profile = profile
    }

    /// Discards the ink so far; the device state is kept (the pen may be down right now).
    public mutating func clear() {
        builder.clear()
    }

    public var isPenDown: Bool { builder.isPenDown }
    public var pointCount: Int { builder.pointCount }
    public var strokes: [Stroke] { builder.strokes }

    /// The signature so far.
    public var signature: Signature {
        Signature(device: device, strokes: builder.strokes, gaps: builder.gaps, hover: builder.hover)
    }
}
