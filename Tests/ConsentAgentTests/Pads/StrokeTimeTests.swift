import ConsentCore
import SignaturePad
import Testing

@testable import ConsentAgent

/// The stroke format's `t` of a pad timestamp: one conversion for the record, its device description and the echo,
/// which must not trap on the timestamps a FIFO pad or a broken driver can send.
@Suite struct StrokeTimeTests {
    @Test func ordinaryTimesAreMillisecondsSinceTheOrigin() {
        #expect(StrokePoint.milliseconds(1_000_250, since: 1_000_000) == 0.25)
        #expect(StrokePoint.milliseconds(5, since: 5) == 0)
        #expect(StrokePoint.milliseconds(4, since: 5) == 0, "t is never negative")
    }

    @Test func timesTooFarApartForInt64DoNotTrap() {
        #expect(StrokePoint.milliseconds(.max, since: .min) > 1.8e16)
        #expect(StrokePoint.milliseconds(.min, since: .max) == 0)
        let point = InkPoint(x: 0.5, y: 0.5, deviceX: 1, deviceY: 1, pressure: nil, time: .max)
        #expect(StrokePoint(point, origin: -1).t > 9.2e15)
    }

    @Test func theEchoGivesThePointsTheRecordsTimes() {
        let points = [
            InkPoint(x: 0.1, y: 0.2, deviceX: 1, deviceY: 2, pressure: 0.5, time: 2_000_000),
            InkPoint(x: 0.3, y: 0.4, deviceX: 3, deviceY: 4, pressure: nil, time: 2_012_500),
        ]
        let batch = InkBatch(flow: "f", pad: "p", stroke: 0, role: .participant, points: points, origin: 2_000_000)
        let recorded = points.map { StrokePoint($0, origin: 2_000_000) }
        #expect(batch.value == InkBatch(flow: "f", pad: "p", stroke: 0, points: recorded, role: .participant).value)
        #expect(recorded.map(\.t) == [0, 12.5])
    }
}
