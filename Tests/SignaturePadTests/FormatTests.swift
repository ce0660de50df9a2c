import SignaturePad
import Testing

@Suite struct EvemuTests {
    @Test func readsHeaderAndEvents() throws {
        let text = """
            # EVEMU 1.3
            N: Some Pad
            I: 0003 056a 00a8 0110
            P: 02 00 00 00 00 00 00 00
            B: 00 0b 00 00 00 00 00 00 00
            B: 01 00 00 00 00 00 00 00 00
            B: 01 00 00 00 00 00 00 00 00
            B: 01 00 00 00 00 00 00 00 00
            B: 01 00 00 00 00 00 00 00 00
            B: 01 00 00 00 00 00 00 00 00
            B: 01 01 00 00 00 00 00 00 00
            A: 00 0 9599 0 0 40
            A: 01 0 5999 0 0 40
            A: 18 0 1023 0 0 0
            E: 1.010000 0001 0140 1   # BTN_TOOL_PEN (padded usec: 10000 µs, as evemu reads it)
            E: 1.10000 0003 0000 -5
            E: 2.5 0000 0000 0
            """
        let rec = try EvemuReader.parse(text)
        let device = try #require(rec.device)
        #expect(device.name == "Some Pad" && device.vendor == 0x056a && device.product == 0x00a8)
        #expect(device.hasCode(type: EventType.key, code: KeyCode.btnToolPen))
        let pad = device.padDescription(node: "/dev/input/event3")
        #expect(pad.kind == .pen && pad.widthMM == 239.975 && pad.pressureLevels == 1024)
        #expect(rec.events.map(\.timestamp) == [1_010_000, 1_010_000, 2_000_005])
        #expect(rec.events[1].value == -5)
    }

    @Test(arguments: ["E: 1.5 0003", "E: x.5 0003 0000 1", "E: 1.1234567 0003 0000 1", "garbage", "A: zz 0 1 0 0"])
    func rejectsMalformedLines(line: String) {
        #expect(throws: SignaturePadError(.malformedRecording, "")) { try EvemuReader.parse("# EVEMU 1.3\n\(line)\n") }
    }

    @Test func writerRoundTripsWithoutLeadingZeroMicroseconds() throws {
        var device = EvemuDevice(name: "Pen", bustype: 3, vendor: 0x56a, product: 0xa8, version: 1)
        device.setCode(type: EventType.key, code: KeyCode.btnToolPen)
        device.axes[AbsCode.x] = AxisInfo(minimum: 0, maximum: 100, resolution: 4)
        let events = [
            InputEvent(type: 1, code: KeyCode.btnToolPen, value: 1, timestamp: 12_005_000),
            InputEvent(type: 0, code: 0, value: 0, timestamp: 12_000_001),
        ]
        let text = EvemuWriter.write(EvemuRecording(device: device, events: events))
        #expect(text.contains("E: 12.5000 0001 0140 1\n"))
        #expect(text.contains("E: 12.1 0000 0000 0\n"))
        let back = try EvemuReader.parse(text)
        #expect(back.events == events)
        #expect(back.device?.axes == device.axes)
        #expect(back.device?.hasCode(type: EventType.key, code: KeyCode.btnToolPen) == true)
    }
}

@Suite struct RawEventDecoderTests {
    @Test func anyChunkingDecodesTheSame() throws {
        let events = try FixturePads.events("pen-tablet", "sign")
        let bytes = events.flatMap(RawEventDecoder.encode)
        #expect(bytes.count == events.count * 24)
        for chunk in [1, 5, 24, 25, 1000] {
            var decoder = RawEventDecoder()
            var out: [InputEvent] = []
            var i = 0
            while i < bytes.count {
                let end = min(i + chunk, bytes.count)
                bytes[i..<end].withUnsafeBytes { decoder.decode($0, into: &out) }
                i = end
            }
            #expect(out == events)
            #expect(decoder.pendingByteCount == 0)
        }
    }
}

@Suite struct SignatureRequirementsTests {
    @Test func emptyPadIsRejected() throws {
        let signature = Signature(device: FixturePads.penTablet, strokes: [])
        #expect(throws: SignaturePadError(.emptySignature, "")) { try signature.validate() }
    }

    @Test func dotIsRejected() throws {
        let dot = (0..<30).map {
            InkPoint(x: 0.5, y: 0.5, deviceX: 10800 + Int32($0 % 3), deviceY: 6750, pressure: 0.5, time: Int64($0))
        }
        let signature = Signature(device: FixturePads.penTablet, strokes: [Stroke(points: dot)])
        do {
            try signature.validate()
            Issue.record("a dot was accepted")
        } catch let error as SignaturePadError {
            #expect(error.code == .signatureTooShort)
            #expect(error.message.contains("signing area"))
        }
        let few = Signature(device: FixturePads.penTablet, strokes: [Stroke(points: Array(dot.prefix(3)))])
        #expect(throws: SignaturePadError(.signatureTooShort, "")) { try few.validate() }
    }

    @Test func realSignatureIsAccepted() throws {
        // A zig-zag across half the pad width.
        var points: [InkPoint] = []
        for i in 0..<40 {
            let x = Int32(5000 + i * 270)
            let y: Int32 = i % 2 == 0 ? 6000 : 7000
            points.append(InkPoint(x: 0, y: 0, deviceX: x, deviceY: y, pressure: 0.5, time: Int64(i * 5000)))
        }
        let signature = Signature(device: FixturePads.penTablet, strokes: [Stroke(points: points)])
        #expect(signature.inkLength > 1)
        try signature.validate()
        try signature.validate(SignatureRequirements(minimumInkLength: 0.5, minimumPoints: 40))
        #expect(throws: SignaturePadError(.signatureTooShort, "")) {
            try signature.validate(SignatureRequirements(minimumInkLength: 0.5, minimumPoints: 41))
        }
    }
}

@Suite struct PadPreferenceTests {
    @Test func taggedThenTabletThenTouchscreen() {
        let pads = [FixturePads.touchscreen, FixturePads.penTablet, FixturePads.sigpad, FixturePads.mtTouchscreen]
        #expect(PadPreference.sorted(pads).map(\.node) == [
            "/dev/input/event11", "/dev/input/event10", "/dev/input/event5", "/dev/input/event6",
        ])
        #expect(PadPreference.choose(from: pads)?.node == "/dev/input/event11")
        #expect(PadPreference.choose(from: pads, selector: .node("/dev/input/event6"))?.name == "Test Multitouch Screen")
        #expect(PadPreference.choose(from: pads, selector: .name("WACOM one pen display pen"))?.node == "/dev/input/event10")
        #expect(PadPreference.choose(from: pads, selector: .name("nothing")) == nil)
        #expect(PadSelector(argument: "/dev/input/event3") == .node("/dev/input/event3"))
        #expect(PadSelector(argument: "Wacom") == .name("Wacom"))
    }

    @Test func unusablePadsAreNotChosenAutomatically() {
        var denied = FixturePads.sigpad
        denied.isAccessible = false
        #expect(PadPreference.choose(from: [denied, FixturePads.touchscreen])?.node == "/dev/input/event5")
        #expect(PadPreference.choose(from: [denied], selector: .node(denied.node)) == denied)
    }

    @Test func dedicatedPadsOnly() {
        #expect(FixturePads.sigpad.isDedicated && FixturePads.penTablet.isDedicated)
        #expect(!FixturePads.touchscreen.isDedicated && !FixturePads.mtTouchscreen.isDedicated)
        var penScreen = FixturePads.penTablet
        penScreen.isTouchscreen = true
        #expect(!penScreen.isDedicated)
    }
}
