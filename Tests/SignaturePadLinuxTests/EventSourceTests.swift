import Foundation
import Glibc
import SignaturePad
import Testing

@testable import SignaturePadLinux

/// Linux readers that need no mock devices: raw records through a pipe, and bad nodes.
@Suite struct EventSourceTests {
    @Test func rawRecordsThroughAPipeReplayLikeEvemu() throws {
        let url = Fixtures.root.appendingPathComponent("pen-tablet/sign.evemu")
        let events = try EvemuReader.parse(String(contentsOf: url, encoding: .utf8)).events
        var fds: [Int32] = [-1, -1]
        #expect(pipe(&fds) == 0)
        defer { close(fds[0]) }
        // Odd-sized writes: records straddle reads.
        let bytes = events.flatMap(RawEventDecoder.encode)
        var offset = 0
        while offset < bytes.count {
            let end = min(offset + 37, bytes.count)
            let written = bytes[offset..<end].withUnsafeBytes { write(fds[1], $0.baseAddress, $0.count) }
            #expect(written == end - offset)
            offset = end
        }
        close(fds[1])

        var source = FileDescriptorEventSource(fileDescriptor: fds[0])
        var capture = try StrokeCapture(device: Fixtures.penTabletDescription)
        try capture.run(&source, timeout: .seconds(1))
        #expect(summary(capture.signature).map(\.count) == [3, 3])
        #expect(capture.signature.strokes[1].points[1].deviceX == 21600)
    }

    @Test func readTimesOutInsteadOfHanging() throws {
        var fds: [Int32] = [-1, -1]
        #expect(pipe(&fds) == 0)
        defer {
            close(fds[0])
            close(fds[1])
        }
        var source = FileDescriptorEventSource(fileDescriptor: fds[0])
        var events: [InputEvent] = []
        let clock = ContinuousClock()
        let start = clock.now
        #expect(try source.read(into: &events, timeout: .milliseconds(50)) == .timedOut)
        #expect(clock.now - start < .seconds(2))
    }

    @Test func missingNodeIsDeviceGone() {
        #expect(throws: SignaturePadError(.deviceGone, "")) {
            try EvdevEventSource(node: "/dev/input/event-does-not-exist")
        }
    }

    @Test func regularFileIsNotAnInputDevice() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("not-evdev-\(getpid())").path
        FileManager.default.createFile(atPath: path, contents: Data("hello".utf8))
        defer { try? FileManager.default.removeItem(atPath: path) }
        #expect(throws: SignaturePadError(.notAnInputDevice, "")) { try EvdevEventSource(node: path) }
    }

    @Test func errnoMapping() {
        #expect(Syscall.error(errno: EACCES, node: "/dev/input/event3").code == .permissionDenied)
        #expect(Syscall.error(errno: EPERM, node: "/dev/input/event3").code == .permissionDenied)
        #expect(Syscall.error(errno: ENODEV, node: "/dev/input/event3").code == .deviceGone)
        #expect(Syscall.error(errno: ENOTTY, node: "/dev/input/event3").code == .notAnInputDevice)
        #expect(Syscall.error(errno: EIO, node: "/dev/input/event3").code == .ioFailure)
        let denied = Syscall.error(errno: EACCES, node: "/dev/input/event3")
        #expect(denied.message.contains("udev/README.md"))
    }

    @Test func udevRulesGrantGroupAccessOnly() throws {
        let rules = try String(
            contentsOf: Fixtures.root.deletingLastPathComponent().deletingLastPathComponent()
                .deletingLastPathComponent().appendingPathComponent("udev/70-consent-kiosk-pad.rules"),
            encoding: .utf8)
        let active = rules.split(separator: "\n").filter { !$0.hasPrefix("#") }.joined(separator: "\n")
        #expect(active.contains("MODE=\"0660\""))
        #expect(active.contains("GROUP=\"consent-kiosk\""))
        #expect(!active.contains("0666") && !active.contains("uaccess"))
        #expect(active.contains("056a"))
        #expect(active.contains("ENV{ID_INPUT_TABLET}==\"1\""))
        #expect(active.contains("ENV{CONSENT_KIOSK_PAD}=\"1\""))
    }
}
