import ConsentCore
import Foundation
import SignaturePad
import Testing

@testable import ConsentAgent

/// `Signature` (the pad module's full-fidelity capture) → `SignatureStrokes` (the record's stroke format).
@Suite struct SignatureStrokesConversionTests {
    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()
        .appendingPathComponent("SignaturePadLinuxTests/Fixtures/pen-tablet")

    /// The pure pipeline over the recording the umockdev test replays gives exactly the strokes that
    /// `ConsentdIntegrationTests.PadCaptureTests` expects in the record (both read signature.strokes.json).
    @Test func replayOfTheFixtureGivesTheExpectedStrokes() throws {
        let text = try String(contentsOf: Self.fixtures.appendingPathComponent("signature.evemu"), encoding: .utf8)
        var capture = try StrokeCapture(device: FakePadSession.pad)
        capture.process(try EvemuReader.parse(text).events)
        let strokes = SignatureStrokes(capture.signature)
        let expected = try JSONDecoder().decode(
            SignatureStrokes.self, from: Data(contentsOf: Self.fixtures.appendingPathComponent("signature.strokes.json")))

        #expect(strokes.strokes == expected.strokes)
        #expect(strokes.strokes.map(\.count) == [14, 6])
        #expect(strokes.widthMM == 216 && strokes.heightMM == 135)
        #expect(expected.widthMM == strokes.widthMM && expected.heightMM == strokes.heightMM)
        try strokes.validate()

        let device = try #require(strokes.device)
        #expect(device["name"] == "Wacom One Pen Display Pen")
        #expect(device["vendorId"] == "056a" && device["productId"] == "03a6")
        #expect(device["kind"] == "pen")
        #expect(device["x"] == ["minimum": 0, "maximum": 21600, "resolution": 100])
        #expect(device["y"] == ["minimum": 0, "maximum": 13500, "resolution": 100])
        #expect(device["pressureLevels"] == 4096)
        #expect(device["hasTilt"] == true)
        #expect(device["interruptedStrokes"] == [])
        #expect(device["gaps"] == [])
        // The agent states the provenance: a pad, which one (the session's pad id), not the UI.
        #expect(device["source"] == "pad")
        #expect(device["padId"] == .string(FakePadSession.pad.node))
        #expect(device["node"] == nil && device["syspath"] == nil)
        // The pen reports tilt: the record keeps it per point, shaped like the strokes.
        #expect(strokes.tilt?.map(\.count) == [14, 6])
        #expect(strokes.tilt?.joined().allSatisfy { $0.count == 2 } == true)
    }

    /// The pen's hover samples: those between the signature's first and last point are kept, in the
    /// stroke format with their tilt, as the record's pen-up samples; the approach and the hovering after are not.
    @Test func hoverBetweenTheFirstAndLastPointIsKept() throws {
        func point(_ x: Double, _ t: Int64, pressure: Double? = 0.5, tilt: Int32 = 7) -> InkPoint {
            InkPoint(x: x, y: 0.5, deviceX: Int32(x * 21600), deviceY: 6750, pressure: pressure, time: t, tiltX: tilt, tiltY: -tilt)
        }
        let strokes = [
            Stroke(points: [point(0.1, 1_000_000), point(0.2, 1_010_000)]),
            Stroke(points: [point(0.6, 1_050_000), point(0.7, 1_060_000)]),
        ]
        let hover = [point(0.05, 990_000, pressure: 0), point(0.3, 1_020_000, pressure: 0, tilt: 3),
                     point(0.5, 1_040_000, pressure: 0, tilt: 4), point(0.8, 1_070_000, pressure: 0)]
        let converted = SignatureStrokes(Signature(device: FakePadSession.pad, strokes: strokes, hover: hover))
        #expect(converted.hover == [StrokePoint(x: 0.3, y: 0.5, t: 20, p: 0), StrokePoint(x: 0.5, y: 0.5, t: 40, p: 0)])
        #expect(converted.hoverTilt == [[3, -3], [4, -4]])
        #expect(converted.strokes.map(\.count) == [2, 2])
        try converted.validate()
        // No hover reported: no member at all.
        let plain = SignatureStrokes(Signature(device: FakePadSession.pad, strokes: strokes))
        #expect(plain.hover == nil && plain.hoverTilt == nil)
    }

    /// A pad without pressure or resolution whose first stroke was cut by an unplug: the stroke is kept as drawn,
    /// and the device description says which stroke and when.
    @Test func interruptedStrokesAreKeptAndMarked() throws {
        let pad = PadDescription(
            node: "/dev/input/event7", name: "Generic Touch No Resolution", vendorID: 0x1234, productID: 0x5678,
            kind: .touch, isTouchscreen: true, x: AxisInfo(minimum: 0, maximum: 1023), y: AxisInfo(minimum: 0, maximum: 767))
        func point(_ x: Double, _ time: Int64, _ flags: InkPoint.Flags = []) -> InkPoint {
            InkPoint(x: x, y: 0.5, deviceX: Int32(x * 1023), deviceY: 384, pressure: nil, time: time, flags: flags)
        }
        let signature = Signature(
            device: pad,
            strokes: [
                Stroke(
                    points: [point(0.1, 5_000_000, .strokeStart), point(0.2, 5_010_000, [.strokeEnd, .interrupted])],
                    interruption: .deviceRemoved),
                Stroke(points: [point(0.3, 7_500_000, .strokeStart), point(0.4, 7_512_500, .strokeEnd)]),
            ],
            gaps: [CaptureGap(reason: .deviceRemoved, from: 5_010_000, at: 5_025_000)])

        let strokes = SignatureStrokes(signature)
        #expect(strokes.strokes == [
            [StrokePoint(x: 0.1, y: 0.5, t: 0, p: nil), StrokePoint(x: 0.2, y: 0.5, t: 10, p: nil)],
            [StrokePoint(x: 0.3, y: 0.5, t: 2500, p: nil), StrokePoint(x: 0.4, y: 0.5, t: 2512.5, p: nil)],
        ])
        #expect(strokes.widthMM == nil && strokes.heightMM == nil)
        try strokes.validate()
        let device = try #require(strokes.device)
        #expect(device["interruptedStrokes"] == [["stroke": 0, "reason": "deviceRemoved"]])
        #expect(device["gaps"] == [["reason": "deviceRemoved", "fromMs": .number(10), "atMs": .number(25)]])
        #expect(device["pressureLevels"] == .null)
        #expect(device["kind"] == "touch")
        #expect(device["x"] == ["minimum": 0, "maximum": 1023, "resolution": 0])
    }
}
