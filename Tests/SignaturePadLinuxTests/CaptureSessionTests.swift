import Foundation
import SignaturePad
import SignaturePadLinux
import Testing

extension PadDeviceTests {
    /// Runs a whole capture of `scenario` on `device` through the session (udev + libevdev + I/O thread).
    func capture(_ device: String, _ scenario: String, expectGrab: Bool? = nil) async throws -> Signature {
        let tb = try MockTestbed()
        try tb.add(device)
        let session = try PadCaptureSession(configuration: .init(discovery: Self.options))
        defer { session.close() }
        try tb.play(device, scenario)
        let pad = try session.startCapture()
        #expect(pad.node == Fixtures.node(device))
        if let expectGrab { #expect(session.captureStatus?.isGrabbed == expectGrab) }
        await waitForQuiet(session)
        let signature = try session.finishCapture()
        #expect(session.captureStatus == nil)
        return signature
    }

    @Test func penTabletWithPressureAndTilt() async throws {
        let signature = try await capture("pen-tablet", "sign", expectGrab: true)
        #expect(
            summary(signature) == [
                ["1100,2050 p=300 t=10120000 S", "1200,2100 p=500 t=10130000", "1300,2150 p=150 t=10140000 E"],
                ["3000,3000 p=800 t=10180000 S", "21600,3100 p=900 t=10190000 C", "3200,3200 p=700 t=10200000 E"],
            ])
        #expect(signature.strokes[0].points[0].tiltX == 5 && signature.strokes[0].points[0].tiltY == -3)
        #expect(signature.strokes[1].points[1].tiltX == 10)
        #expect(signature.strokes[1].points[1].x == 1.0)
        #expect(signature.device.widthMM == 216)
        #expect(!signature.isInterrupted)
    }

    @Test func singleTouchScreenIsNeverGrabbed() async throws {
        let signature = try await capture("touchscreen", "sign", expectGrab: false)
        #expect(
            summary(signature) == [
                ["100,200 t=10100000 S", "150,250 t=10110000", "200,250 t=10120000 E"],
                ["4000,4000 t=10140000 S", "0,4095 t=10150000 EC"],
            ])
        #expect(signature.strokes[0].points[0].pressure == nil)
    }

    @Test func multitouchFirstFingerSignsOthersIgnored() async throws {
        let signature = try await capture("mt-touchscreen", "sign", expectGrab: false)
        #expect(
            summary(signature) == [
                ["500,300 t=10100000 S", "520,310 t=10120000 E"],
                ["600,400 t=10160000 S", "620,400 t=10170000 E"],
            ])
    }

    @Test func deviceWithoutResolution() async throws {
        let signature = try await capture("no-resolution", "sign")
        #expect(summary(signature) == [["10,20 t=10100000 S", "1023,767 t=10110000 E"]])
        #expect(signature.device.widthMM == nil)
        #expect(signature.strokes[0].points[1].x == 1 && signature.strokes[0].points[1].y == 1)
    }

    @Test func synDroppedInterruptsAndResyncs() async throws {
        let signature = try await capture("pen-tablet", "dropped")
        // libevdev resyncs from the device state (the .ioctl file says: pen up), so the frame after the drop
        // window inks nothing, and the pen-down frame starts a fresh stroke. Nothing is interpolated.
        #expect(
            summary(signature) == [
                ["1000,1000 p=1000 t=10100000 S", "1100,1000 p=1000 t=10110000 EI", "!eventsDropped"],
                ["1400,1400 p=1000 t=10140000 S", "1500,1400 p=1000 t=10150000 E"],
            ])
        #expect(signature.gaps.count == 1)
        #expect(signature.isInterrupted)
    }

    @Test func inkIsStreamedPerFrame() async throws {
        let tb = try MockTestbed()
        try tb.add("sigpad")
        let session = try PadCaptureSession(configuration: .init(discovery: Self.options))
        defer { session.close() }
        let recorder = EventRecorder(session)
        try tb.play("sigpad", "sign")
        try session.startCapture()
        await waitUntil { recorder.inkBatches.contains { $0.endsStroke } }
        let batches = recorder.inkBatches
        #expect(batches.map(\.points.count) == [1, 1, 1, 0])
        #expect(batches.last?.endsStroke == true && batches.last?.interruption == nil)
        #expect(batches.first?.points.first?.flags.contains(.strokeStart) == true)
        let signature = try session.finishCapture()
        #expect(signature.pointCount == 3)
        #expect(throws: SignaturePadError(.captureNotActive, "")) { try session.finishCapture() }
    }

    @Test func clearDiscardsInkAndCaptureContinues() async throws {
        let tb = try MockTestbed()
        try tb.add("pen-tablet")
        let session = try PadCaptureSession(configuration: .init(discovery: Self.options))
        defer { session.close() }
        try tb.play("pen-tablet", "sign")
        try session.startCapture()
        await waitUntil { (session.captureStatus?.strokeCount ?? 0) >= 1 && session.captureStatus?.isPenDown == false }
        try session.clearCapture()
        await waitForQuiet(session)
        let signature = try session.finishCapture()
        #expect(signature.strokes.count == 1)
        #expect(signature.strokes.first?.points.first?.deviceX == 3000)
    }
}
