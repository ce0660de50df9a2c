import Foundation
import SignaturePad
import SignaturePadLinux
import Testing

extension PadDeviceTests {
    @Test func hotplugAddAndRemove() async throws {
        let tb = try MockTestbed()
        try tb.add("keyboard")
        let session = try PadCaptureSession(configuration: .init(discovery: Self.options))
        defer { session.close() }
        let recorder = EventRecorder(session)
        #expect(session.pads.isEmpty)

        try tb.add("sigpad", announce: true)
        #expect(await waitUntil { session.pads.count == 1 })
        #expect(session.preferredPad?.name == "Consent Kiosk Test Signature Pad")
        #expect(session.preferredPad?.isTagged == true)

        try tb.add("touchscreen", announce: true)
        #expect(await waitUntil { session.pads.count == 2 })
        // A tagged pad is preferred over the touch screen, whatever the plug order.
        #expect(session.pads.map(\.node) == ["/dev/input/event11", "/dev/input/event5"])

        tb.remove("sigpad")
        #expect(await waitUntil { session.pads.count == 1 })
        #expect(session.preferredPad?.node == "/dev/input/event5")

        // The recorder reads the session's event stream on a task of its own, so it may lag behind `pads`: wait
        // for its three events (a loaded machine under UBSan once compared after the first).
        let seen = { recorder.all.map { event -> String in
            switch event {
            case .padAdded(let p): "+\(p.node)"
            case .padRemoved(let p): "-\(p.node)"
            default: "?"
            }
        } }
        #expect(await waitUntil { seen().count >= 3 })
        #expect(seen() == ["+/dev/input/event11", "+/dev/input/event5", "-/dev/input/event11"])
    }

    @Test func removalMidSignatureInterruptsAndResumes() async throws {
        let tb = try MockTestbed()
        try tb.add("pen-tablet")
        let session = try PadCaptureSession(configuration: .init(discovery: Self.options))
        defer { session.close() }
        let recorder = EventRecorder(session)
        try tb.play("pen-tablet", "before-removal")
        try session.startCapture()
        #expect(await waitUntil { session.captureStatus?.pointCount == 3 })
        #expect(session.captureStatus?.isPenDown == true)

        tb.remove("pen-tablet")
        #expect(await waitUntil { session.captureStatus?.isWaitingForPad == true })
        #expect(session.captureStatus?.isPenDown == false)
        #expect(session.captureStatus?.isGrabbed == false)

        // The same pad comes back (on a new node, as after a real re-plug): the capture reopens it and the new ink
        // continues the same signature.
        try tb.add("pen-tablet-replugged")
        try tb.play("pen-tablet-replugged", "after-return")
        tb.announce("pen-tablet-replugged")
        #expect(await waitUntil { session.captureStatus?.isWaitingForPad == false })
        await waitForQuiet(session)
        #expect(session.captureStatus?.pad.node == "/dev/input/event12")
        #expect(session.captureStatus?.isGrabbed == true)
        let signature = try session.finishCapture()
        #expect(signature.device.node == "/dev/input/event12")
        // after-return.evemu restarts its clock at 10.10 s, before the last ink of the removal (10.12 s); a real
        // pad's monotonic clock never does, and the capture never lets time run backwards: its points take 10.12 s.
        #expect(
            summary(signature) == [
                ["5000,5000 p=2000 t=10100000 S", "5100,5050 p=2000 t=10110000",
                 "5200,5100 p=2000 t=10120000 EI", "!deviceRemoved"],
                ["7000,7000 p=2000 t=10120000 S", "7100,7000 p=2000 t=10120000 E"],
            ])
        #expect(signature.gaps.map(\.reason) == [.deviceRemoved])

        let lifecycle = { recorder.all.compactMap { event -> String? in
            switch event {
            case .captureSuspended: "suspended"
            case .captureResumed: "resumed"
            case .padAdded: "added"
            case .padRemoved: "removed"
            case .ink(let b) where b.interruption != nil: "interrupted"
            default: nil
            }
        } }
        #expect(await waitUntil { lifecycle().count >= 5 })  // the recorder's task may lag, as above
        #expect(lifecycle() == ["interrupted", "suspended", "removed", "added", "resumed"])
    }

    @Test func deviceGoneBetweenEnumerationAndOpen() throws {
        let tb = try MockTestbed()
        try tb.add("pen-tablet")
        let session = try PadCaptureSession(configuration: .init(discovery: Self.options))
        defer { session.close() }
        tb.vanish("pen-tablet")  // no uevent: the session still lists it
        #expect(session.pads.count == 1)
        #expect(throws: SignaturePadError(.deviceGone, "")) { try session.startCapture() }
        #expect(session.captureStatus == nil)
    }

    @Test func deviceWithoutAxesIsListedButNeverChosen() throws {
        let tb = try MockTestbed()
        try tb.add("no-axes")
        let session = try PadCaptureSession(configuration: .init(discovery: Self.options))
        defer { session.close() }
        let pad = try #require(session.pads.first)
        #expect(!pad.isUsable && pad.x == nil)
        #expect(session.preferredPad == nil)
        #expect(throws: SignaturePadError(.noPad, "")) { try session.startCapture() }
        #expect(throws: SignaturePadError(.noAxes, "")) { try session.startCapture(on: .node(pad.node)) }
    }

    @Test func selectingByNameAndNode() async throws {
        let tb = try MockTestbed()
        try tb.add("pen-tablet")
        try tb.add("touchscreen")
        let session = try PadCaptureSession(configuration: .init(preferredPad: .name("single touch"), discovery: Self.options))
        defer { session.close() }
        #expect(session.preferredPad?.node == "/dev/input/event5")
        let pad = try session.startCapture(on: .node("/dev/input/event10"))
        #expect(pad.name == "Wacom One Pen Display Pen")
        #expect(throws: SignaturePadError(.captureAlreadyActive, "")) { try session.startCapture() }
        session.cancelCapture()
        #expect(throws: SignaturePadError(.noPad, "")) { try session.startCapture(on: .name("no such pad")) }
    }
}
