import Foundation
import SignaturePad

/// The fixture devices of `Tests/SignaturePadLinuxTests/Fixtures` as descriptions, so pure tests replay the very
/// same evemu files the umockdev tests replay (mirrors generate.py).
enum FixturePads {
    static let penTablet = PadDescription(
        node: "/dev/input/event10", name: "Wacom One Pen Display Pen", vendorID: 0x056a, productID: 0x03a6,
        kind: .pen, isTablet: true, x: AxisInfo(minimum: 0, maximum: 21600, resolution: 100),
        y: AxisInfo(minimum: 0, maximum: 13500, resolution: 100), pressure: AxisInfo(minimum: 0, maximum: 4095),
        tiltX: AxisInfo(minimum: -64, maximum: 63, resolution: 57), tiltY: AxisInfo(minimum: -64, maximum: 63, resolution: 57))
    static let sigpad = PadDescription(
        node: "/dev/input/event11", name: "Consent Kiosk Test Signature Pad", vendorID: 0x056a, productID: 0x00a8,
        kind: .pen, isTagged: true, isTablet: true, x: AxisInfo(minimum: 0, maximum: 9599, resolution: 40),
        y: AxisInfo(minimum: 0, maximum: 5999, resolution: 40), pressure: AxisInfo(minimum: 0, maximum: 1023))
    static let touchscreen = PadDescription(
        node: "/dev/input/event5", name: "Test Single Touch Screen", kind: .touch, isTouchscreen: true,
        x: AxisInfo(minimum: 0, maximum: 4095, resolution: 16), y: AxisInfo(minimum: 0, maximum: 4095, resolution: 16))
    static let mtTouchscreen = PadDescription(
        node: "/dev/input/event6", name: "Test Multitouch Screen", kind: .multitouch, isTouchscreen: true,
        x: AxisInfo(minimum: 0, maximum: 1919, resolution: 10), y: AxisInfo(minimum: 0, maximum: 1079, resolution: 10),
        slotCount: 10)
    static let noResolution = PadDescription(
        node: "/dev/input/event7", name: "Generic Touch No Resolution", kind: .touch, isTouchscreen: true,
        x: AxisInfo(minimum: 0, maximum: 1023), y: AxisInfo(minimum: 0, maximum: 767))

    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("SignaturePadLinuxTests/Fixtures")

    static func events(_ device: String, _ scenario: String) throws -> [InputEvent] {
        let url = fixtures.appendingPathComponent(device).appendingPathComponent("\(scenario).evemu")
        return try EvemuReader.parse(String(contentsOf: url, encoding: .utf8)).events
    }

    static func replay(_ pad: PadDescription, _ device: String, _ scenario: String) throws -> Signature {
        var capture = try StrokeCapture(device: pad)
        capture.process(try events(device, scenario))
        return capture.signature
    }
}
