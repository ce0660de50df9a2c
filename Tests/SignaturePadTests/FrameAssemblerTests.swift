import SignaturePad
import Testing

private func ev(_ type: UInt16, _ code: UInt16, _ value: Int32, _ t: Int64 = 0) -> InputEvent {
    InputEvent(type: type, code: code, value: value, timestamp: t)
}

private func syn(_ t: Int64 = 0) -> InputEvent { ev(EventType.syn, SynCode.report, 0, t) }

@Suite struct FrameAssemblerTests {
    @Test func eventsActOnlyOnSynReport() throws {
        var a = FrameAssembler(profile: try CaptureProfile(pad: FixturePads.touchscreen))
        #expect(a.process(ev(EventType.key, KeyCode.btnTouch, 1)) == nil)
        #expect(a.process(ev(EventType.abs, AbsCode.x, 10)) == nil)
        #expect(a.process(ev(EventType.abs, AbsCode.y, 20)) == nil)
        #expect(a.process(syn(5)) == .frame(PenFrame(time: 5, isDown: true, x: 10, y: 20)))
        // A frame that changed nothing produces nothing.
        #expect(a.process(syn(6)) == nil)
    }

    @Test func hoverIsNotInk() throws {
        var a = FrameAssembler(profile: try CaptureProfile(pad: FixturePads.penTablet))
        _ = a.process(ev(EventType.key, KeyCode.btnToolPen, 1))
        _ = a.process(ev(EventType.abs, AbsCode.x, 100))
        // The pen in proximity with its tip up: a pen-up sample, never a frame of ink.
        #expect(a.process(syn(3)) == .hover(PenFrame(time: 3, isDown: false, x: 100, y: 0, pressure: 0, tiltX: 0, tiltY: 0)))
    }

    @Test func hoverNeedsThePenInProximity() throws {
        var a = FrameAssembler(profile: try CaptureProfile(pad: FixturePads.penTablet))
        // Motion with no tool reported (a pad that reports no proximity) is neither ink nor hover.
        _ = a.process(ev(EventType.abs, AbsCode.x, 100))
        #expect(a.process(syn()) == nil)
        // The eraser end hovering is not the pen.
        _ = a.process(ev(EventType.key, KeyCode.btnToolRubber, 1))
        _ = a.process(ev(EventType.abs, AbsCode.x, 200))
        #expect(a.process(syn()) == nil)
        // The pen leaving proximity ends the hover.
        _ = a.process(ev(EventType.key, KeyCode.btnToolRubber, 0))
        _ = a.process(ev(EventType.key, KeyCode.btnToolPen, 1))
        #expect(a.process(syn(7)) == .hover(PenFrame(time: 7, isDown: false, x: 200, y: 0, pressure: 0, tiltX: 0, tiltY: 0)))
        _ = a.process(ev(EventType.key, KeyCode.btnToolPen, 0))
        #expect(a.process(syn(8)) == nil)
    }

    @Test func eraserNeverInks() throws {
        var a = FrameAssembler(profile: try CaptureProfile(pad: FixturePads.penTablet))
        _ = a.process(ev(EventType.key, KeyCode.btnToolRubber, 1))
        _ = a.process(ev(EventType.key, KeyCode.btnTouch, 1))
        _ = a.process(ev(EventType.abs, AbsCode.pressure, 3000))
        #expect(a.process(syn()) == nil)
    }

    @Test func palmToolNeverSigns() throws {
        var a = FrameAssembler(profile: try CaptureProfile(pad: FixturePads.mtTouchscreen))
        for e in [
            ev(EventType.abs, AbsCode.mtSlot, 0), ev(EventType.abs, AbsCode.mtTrackingID, 1),
            ev(EventType.abs, AbsCode.mtToolType, MTToolType.palm), ev(EventType.abs, AbsCode.mtPositionX, 5),
        ] { _ = a.process(e) }
        #expect(a.process(syn()) == nil)
        // A real finger arriving later signs.
        for e in [
            ev(EventType.abs, AbsCode.mtSlot, 1), ev(EventType.abs, AbsCode.mtTrackingID, 2),
            ev(EventType.abs, AbsCode.mtPositionX, 50), ev(EventType.abs, AbsCode.mtPositionY, 60),
        ] { _ = a.process(e) }
        #expect(a.process(syn(9)) == .frame(PenFrame(time: 9, isDown: true, x: 50, y: 60)))
    }

    @Test func outOfRangeSlotIsIgnored() throws {
        var a = FrameAssembler(profile: try CaptureProfile(pad: FixturePads.mtTouchscreen))
        for e in [
            ev(EventType.abs, AbsCode.mtSlot, 5000), ev(EventType.abs, AbsCode.mtTrackingID, 1),
            ev(EventType.abs, AbsCode.mtSlot, -3), ev(EventType.abs, AbsCode.mtPositionX, 5),
        ] { _ = a.process(e) }
        #expect(a.process(syn()) == nil)
    }

    @Test func pressureHysteresis() {
        var h = PressureHysteresis(axis: AxisInfo(minimum: 0, maximum: 1000))
        // down at ≥ 50 (5 %), up below 10 (1 %)
        #expect(h.update(49) == false)
        #expect(h.update(50) == true)
        #expect(h.update(10) == true)
        #expect(h.update(9) == false)
        #expect(h.update(30) == false)
        var zero = PressureHysteresis(axis: AxisInfo(minimum: 0, maximum: 10), thresholds: .init(down: 0, up: 0))
        #expect(zero.update(0) == false)  // a resting 0 is never down
        #expect(zero.update(1) == true)
    }

    @Test func deviceWithoutAxesIsRejected() {
        let pad = PadDescription(node: "/dev/input/event9", name: "x", kind: .touch, x: nil, y: nil)
        #expect(throws: SignaturePadError(.noAxes, "")) { try StrokeCapture(device: pad) }
        let flat = PadDescription(
            node: "/dev/input/event9", name: "x", kind: .touch, x: AxisInfo(minimum: 5, maximum: 5),
            y: AxisInfo(minimum: 0, maximum: 9))
        #expect(throws: SignaturePadError(.noAxes, "")) { try StrokeCapture(device: flat) }
    }

    /// Garbage codes and extreme values: no crash, everything normalised stays in 0...1.
    @Test(arguments: [FixturePads.penTablet, FixturePads.touchscreen, FixturePads.mtTouchscreen])
    func garbageNeverCrashes(pad: PadDescription) throws {
        var rng = SystemRandomNumberGenerator()
        var capture = try StrokeCapture(device: pad)
        let values: [Int32] = [.min, .max, -1, 0, 1, 65535, 5000]
        for i in 0..<50_000 {
            let type = UInt16.random(in: 0...6, using: &rng)
            let code = Bool.random(using: &rng) ? UInt16.random(in: 0...0x3f, using: &rng) : UInt16.random(in: 0...UInt16.max, using: &rng)
            let value = Bool.random(using: &rng) ? values.randomElement(using: &rng) ?? 0 : Int32.random(in: .min ... .max, using: &rng)
            _ = capture.process(InputEvent(type: type, code: code, value: value, timestamp: Int64(i)))
        }
        for stroke in capture.signature.strokes {
            for p in stroke.points {
                #expect((0...1).contains(p.x) && (0...1).contains(p.y))
                if let pr = p.pressure { #expect((0...1).contains(pr)) }
            }
        }
    }
}
