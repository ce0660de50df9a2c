import SignaturePad
import Testing

/// Findings of the FuzzPadEvents fuzz target (docs/RELIABILITY.md, "Fuzzing"): event timestamps a broken device,
/// a stepped realtime clock or a FIFO can carry. Each input is inlined as the events it decodes to.
@Suite struct HostileTimeTests {
    private static func ev(_ type: UInt16, _ code: UInt16, _ value: Int32, _ t: Int64) -> InputEvent {
        InputEvent(type: type, code: code, value: value, timestamp: t)
    }

    /// The pen down at `x` (pressure well above the threshold), then one frame at time `t`.
    private static func ink(x: Int32, at t: Int64) -> [InputEvent] {
        [ev(EventType.abs, AbsCode.x, x, t), ev(EventType.abs, AbsCode.pressure, 2000, t), ev(EventType.syn, SynCode.report, 0, t)]
    }

    private static func lift(at t: Int64) -> [InputEvent] {
        [ev(EventType.abs, AbsCode.pressure, 0, t), ev(EventType.syn, SynCode.report, 0, t)]
    }

    /// Corpus seed-2a031daaf9548849 (the pen display's fixture with the clock stepped 5 s back half way): the
    /// second stroke started before the first ended, so `startTime` came after `endTime` and the agent's
    /// `startTime...endTime` (the hover samples kept in the record) trapped; within a stroke it went backwards too.
    @Test func timeNeverRunsBackwardsOverTheCapture() throws {
        var capture = try StrokeCapture(device: FixturePads.penTablet)
        let events: [InputEvent] =
            [Self.ev(EventType.key, KeyCode.btnToolPen, 1, 10_000_000)] + Self.ink(x: 100, at: 10_000_000)
            + Self.ink(x: 200, at: 9_000_000) + Self.ink(x: 300, at: 10_100_000) + Self.lift(at: 10_200_000)
            + Self.lift(at: 4_000_000)  // a hover sample, stamped earlier still
            + Self.ink(x: 400, at: 5_000_000) + Self.ink(x: 500, at: 11_000_000)
        capture.process(events)
        let signature = capture.signature
        #expect(signature.strokes.map { $0.points.map(\.time) } == [[10_000_000, 10_000_000, 10_100_000], [10_200_000, 11_000_000]])
        #expect(signature.hover.map(\.time) == [10_200_000])
        #expect(signature.strokes.map { $0.points.map(\.deviceX) } == [[100, 200, 300], [400, 500]])
        let start = try #require(signature.startTime)
        let end = try #require(signature.endTime)
        #expect(start <= end)
        #expect(signature.duration == .microseconds(1_000_000))
    }

    /// Corpus seed-6a32a63b23a837fe: a stroke from -2^62 µs to +2^62 µs. `duration` subtracted in Int64 and
    /// overflowed (a trap in consentctl's capture summary).
    @Test func durationOfAnyTimeSpanNeverTraps() throws {
        var capture = try StrokeCapture(device: FixturePads.penTablet)
        capture.process(
            [Self.ev(EventType.key, KeyCode.btnToolPen, 1, -(1 << 62))] + Self.ink(x: 100, at: -(1 << 62))
                + Self.ink(x: 200, at: 1 << 62))
        #expect(capture.strokes.map(\.points.count) == [2])
        let signature = capture.signature
        #expect(signature.duration == .microseconds(1 << 62) * 2)
        #expect(signature.duration > .zero)
    }
}
