/// Collects frames into strokes and yields one ``FrameInk`` per frame for live echo.
///
/// Never invents ink: a drop or an unplug ends the current stroke as interrupted and records a ``CaptureGap``;
/// the next pen-down starts a new stroke from wherever the pen really is.
///
/// Time never runs backwards over the points of a capture (ink and hover): a frame stamped earlier than one before
/// it gives its point the later time instead (nothing is reordered or dropped). evdev's clock is monotonic when
/// the reader could select it, but the realtime fallback steps back with the wall clock and a FIFO can carry any
/// bytes; the agent builds `startTime...endTime` from a signature and the stroke format refuses hover time that
/// decreases, so such a stamp would otherwise crash or spoil the record.
public struct StrokeBuilder: Sendable {
    public internal(set) var profile: CaptureProfile
    public private(set) var strokes: [Stroke] = []
    public private(set) var gaps: [CaptureGap] = []
    /// The pen's hover (in proximity, tip up) samples since the first stroke began, in time order: the pen-up
    /// samples of ISO/IEC 19794-7. Never ink, never echoed live; at most ``maximumHoverPoints``.
    public private(set) var hover: [InkPoint] = []
    /// A pen left hovering over the pad for many minutes stops adding samples here (strokes are not affected).
    public static let maximumHoverPoints = 200_000
    public private(set) var pointCount = 0
    /// A stroke is open (the pen is down).
    public private(set) var isPenDown = false
    /// The timestamp (µs) of the first point since the builder began or was cleared (see ``FrameInk/origin``).
    public private(set) var origin: Int64?
    private var lastTime: Int64?
    /// The latest frame time seen (ink, lift or hover): no point gets an earlier one.
    private var clock: Int64?

    public init(profile: CaptureProfile) {
        self.profile = profile
    }

    public mutating func apply(_ output: FrameOutput) -> FrameInk? {
        switch output {
        case .frame(let frame): return apply(frame)
        case .hover(let frame):
            // Before the first stroke the pen is only approaching: that is not part of the signature.
            let time = advanceClock(to: frame.time)
            if !strokes.isEmpty, !isPenDown, hover.count < Self.maximumHoverPoints {
                hover.append(makePoint(frame, at: time))
            }
            return nil
        case .dropped(let time): return interrupt(.eventsDropped, at: time)
        }
    }

    public mutating func apply(_ frame: PenFrame) -> FrameInk? {
        lastTime = frame.time
        let time = advanceClock(to: frame.time)
        if frame.isDown {
            var point = makePoint(frame, at: time)
            if !isPenDown {
                strokes.append(Stroke())
                isPenDown = true
                point.flags.insert(.strokeStart)
            }
            let index = strokes.count - 1
            strokes[index].points.append(point)
            pointCount += 1
            if origin == nil { origin = point.time }
            return FrameInk(strokeIndex: index, points: [point], origin: origin)
        }
        guard isPenDown else { return nil }
        return endStroke(interruption: nil)
    }

    /// Ends the open stroke as interrupted (events lost, pad removed) and records the gap.
    public mutating func interrupt(_ reason: InterruptionReason, at time: Int64) -> FrameInk? {
        gaps.append(CaptureGap(reason: reason, from: lastTime, at: time))
        guard isPenDown else { return nil }
        return endStroke(interruption: reason)
    }

    /// Discards everything captured so far ("clear" on the kiosk).
    public mutating func clear() {
        strokes.removeAll()
        gaps.removeAll()
        hover.removeAll()
        pointCount = 0
        isPenDown = false
        lastTime = nil
        origin = nil
        clock = nil
    }

    /// `time`, or the latest time seen when that is later; moves the clock on.
    private mutating func advanceClock(to time: Int64) -> Int64 {
        let now = max(time, clock ?? time)
        clock = now
        return now
    }

    private mutating func endStroke(interruption: InterruptionReason?) -> FrameInk? {
        isPenDown = false
        let index = strokes.count - 1
        guard index >= 0, let last = strokes[index].points.indices.last else { return nil }
        strokes[index].points[last].flags.insert(.strokeEnd)
        if let interruption {
            strokes[index].points[last].flags.insert(.interrupted)
            strokes[index].interruption = interruption
        }
        return FrameInk(strokeIndex: index, points: [], endsStroke: true, interruption: interruption, origin: origin)
    }

    @inline(__always)
    private func makePoint(_ frame: PenFrame, at time: Int64) -> InkPoint {
        var flags: InkPoint.Flags = frame.isResync ? .resynced : []
        let xAxis = profile.x
        let yAxis = profile.y
        if frame.x != xAxis.clamp(frame.x) || frame.y != yAxis.clamp(frame.y) { flags.insert(.clamped) }
        let pressure: Double? =
            if let axis = profile.pressure, let p = frame.pressure { axis.normalize(p) } else { nil }
        return InkPoint(
            x: xAxis.normalize(frame.x), y: yAxis.normalize(frame.y), deviceX: xAxis.clamp(frame.x), deviceY: yAxis.clamp(frame.y),
            pressure: pressure, time: time, tiltX: frame.tiltX, tiltY: frame.tiltY, flags: flags)
    }
}
