import SignaturePad
import Testing

/// The pure pipeline replaying the umockdev fixtures: the same strokes as through udev + libevdev.
@Suite struct ReplayTests {
    @Test func penTablet() throws {
        let signature = try FixturePads.replay(FixturePads.penTablet, "pen-tablet", "sign")
        #expect(
            summary(signature) == [
                ["1100,2050 p=300 t=10120000 S", "1200,2100 p=500 t=10130000", "1300,2150 p=150 t=10140000 E"],
                ["3000,3000 p=800 t=10180000 S", "21600,3100 p=900 t=10190000 C", "3200,3200 p=700 t=10200000 E"],
            ])
        #expect(signature.pointCount == 6)
        #expect(signature.duration == .microseconds(80_000))
        let box = try #require(signature.boundingBox)
        #expect(box.maxX == 1 && box.minX == 1100.0 / 21600)
        #expect(signature.strokes[0].points[0].pressure == 300.0 / 4095)
    }

    @Test func penTabletHoverBetweenStrokes() throws {
        let signature = try FixturePads.replay(FixturePads.penTablet, "pen-tablet", "sign")
        // The pen's approach before the first stroke is not kept; between the strokes it hovers at 1400,2150 (the
        // tip lifted) and moves to 3000,3000 before touching down again: the record's pen-up samples.
        #expect(signature.hover.map { "\($0.deviceX),\($0.deviceY) p=\($0.pressure ?? -1) t=\($0.time)" } == [
            "1400,2150 p=0.0 t=10160000", "3000,3000 p=0.0 t=10170000",
        ])
        #expect(signature.hover.allSatisfy { $0.flags.isEmpty })
        // Hover is never ink: the strokes, their length and the points counted are those of the tip alone.
        #expect(signature.pointCount == 6)
    }

    @Test func touchscreen() throws {
        let signature = try FixturePads.replay(FixturePads.touchscreen, "touchscreen", "sign")
        #expect(
            summary(signature) == [
                ["100,200 t=10100000 S", "150,250 t=10110000", "200,250 t=10120000 E"],
                ["4000,4000 t=10140000 S", "0,4095 t=10150000 EC"],
            ])
    }

    @Test func multitouch() throws {
        let signature = try FixturePads.replay(FixturePads.mtTouchscreen, "mt-touchscreen", "sign")
        #expect(
            summary(signature) == [
                ["500,300 t=10100000 S", "520,310 t=10120000 E"],
                ["600,400 t=10160000 S", "620,400 t=10170000 E"],
            ])
    }

    @Test func noResolution() throws {
        let signature = try FixturePads.replay(FixturePads.noResolution, "no-resolution", "sign")
        #expect(summary(signature) == [["10,20 t=10100000 S", "1023,767 t=10110000 E"]])
    }

    /// Without libevdev (raw records, e.g. from a pipe) the kernel rule applies: everything up to and including the
    /// SYN_REPORT after SYN_DROPPED is ignored, and the next frame is marked as resynced.
    @Test func synDroppedRawSemantics() throws {
        let signature = try FixturePads.replay(FixturePads.penTablet, "pen-tablet", "dropped")
        #expect(
            summary(signature) == [
                ["1000,1000 p=1000 t=10100000 S", "1100,1000 p=1000 t=10110000 EI", "!eventsDropped"],
                ["1400,1400 p=1000 t=10140000 SR", "1500,1400 p=1000 t=10150000 E"],
            ])
        #expect(signature.gaps == [CaptureGap(reason: .eventsDropped, from: 10_110_000, at: 10_120_000)])
    }

    @Test func inkBatchesPerFrame() throws {
        var capture = try StrokeCapture(device: FixturePads.sigpad)
        var batches: [FrameInk] = []
        capture.process(try FixturePads.events("sigpad", "sign")) { batches.append($0) }
        #expect(batches.map(\.points.count) == [1, 1, 1, 0])
        #expect(batches.map(\.strokeIndex) == [0, 0, 0, 0])
        #expect(batches.last?.endsStroke == true)
    }

    @Test func removalKeepsStrokesAndReconnectContinues() throws {
        var capture = try StrokeCapture(device: FixturePads.penTablet)
        capture.process(try FixturePads.events("pen-tablet", "before-removal"))
        let batch = capture.interrupt(.deviceRemoved, at: 10_130_000)
        #expect(batch?.interruption == .deviceRemoved && batch?.endsStroke == true)
        var replugged = FixturePads.penTablet
        replugged.node = "/dev/input/event12"
        try capture.reconnect(device: replugged)
        capture.process(try FixturePads.events("pen-tablet-replugged", "after-return"))
        // after-return.evemu restarts its clock at 10.10 s, before the last ink of the removal (10.12 s); a real
        // pad's monotonic clock never does, and the capture never lets time run backwards: its points take 10.12 s.
        #expect(
            summary(capture.signature) == [
                ["5000,5000 p=2000 t=10100000 S", "5100,5050 p=2000 t=10110000", "5200,5100 p=2000 t=10120000 EI",
                 "!deviceRemoved"],
                ["7000,7000 p=2000 t=10120000 S", "7100,7000 p=2000 t=10120000 E"],
            ])
    }
}
