import Foundation
import SignaturePad
import SignaturePadLinux
import Testing

extension PadDeviceTests {
    @Test func discoveryFindsPadsAndSkipsKeyboardAndMouse() throws {
        let tb = try MockTestbed()
        for device in ["keyboard", "mouse", "touchscreen", "pen-tablet", "mt-touchscreen", "no-resolution"] {
            try tb.add(device)
        }
        let pads = try PadDiscovery.pads(options: Self.options)
        #expect(pads.map(\.node) == ["/dev/input/event10", "/dev/input/event5", "/dev/input/event6", "/dev/input/event7"])
        #expect(!pads.contains { $0.name.contains("keyboard") || $0.name.contains("Mouse") })

        let pen = try #require(pads.first)
        #expect(pen.name == "Wacom One Pen Display Pen")
        #expect(pen.kind == .pen)
        #expect(pen.vendorID == 0x056a && pen.productID == 0x03a6)
        #expect(pen.x == AxisInfo(minimum: 0, maximum: 21600, resolution: 100))
        #expect(pen.y == AxisInfo(minimum: 0, maximum: 13500, resolution: 100))
        #expect(pen.widthMM == 216 && pen.heightMM == 135)
        #expect(pen.pressureLevels == 4096)
        #expect(pen.hasTilt)
        #expect(pen.isTablet && !pen.isTouchscreen && pen.isDedicated)

        let mt = try #require(pads.first { $0.node == "/dev/input/event6" })
        #expect(mt.kind == .multitouch && mt.slotCount == 10 && !mt.isDedicated)
        let st = try #require(pads.first { $0.node == "/dev/input/event5" })
        #expect(st.kind == .touch && st.widthMM == 4095.0 / 16 && st.pressureLevels == nil)
        let nores = try #require(pads.first { $0.node == "/dev/input/event7" })
        #expect(nores.widthMM == nil && nores.heightMM == nil && nores.isUsable)

        #expect(PadPreference.choose(from: pads)?.node == "/dev/input/event10")
        #expect(PadPreference.choose(from: pads, selector: .name("multitouch"))?.node == "/dev/input/event6")
    }

    @Test func onlyKeyboardAndMouseMeansNoPad() throws {
        let tb = try MockTestbed()
        try tb.add("keyboard")
        try tb.add("mouse")
        #expect(try PadDiscovery.pads(options: Self.options).isEmpty)
        let session = try PadCaptureSession(configuration: .init(discovery: Self.options))
        defer { session.close() }
        #expect(throws: SignaturePadError(.noPad, "")) { try session.startCapture() }
    }

    @Test func replayThroughLibevdev() throws {
        let tb = try MockTestbed()
        let node = try tb.add("pen-tablet")
        _ = try PadDiscovery.pads(options: Self.options)
        try tb.play("pen-tablet", "sign")
        let events = try Self.readAll(node: node)
        let expected = try Fixtures.evemu("pen-tablet", "sign").events
        #expect(events == expected)
    }
}
