import CUMockdev
import Foundation
import Testing

/// A umockdev testbed owned by the test process, with consentd started inside it as a child.
///
/// `umockdev-run` (PadCapture) cannot unplug a device halfway: its testbed lives in umockdev-run. Here the test
/// owns the testbed, and umockdev delivers a uevent only when the sender itself runs under the preload (it looks
/// the device up with libudev in the mock /sys; otherwise `uevent_sender_send: No such device`). So this suite runs
/// only in the preloaded step of scripts/run-tests, and consentd inherits LD_PRELOAD and the testbed's UMOCKDEV_DIR.
final class SharedTestbed {
    static let fixtures = Paths.root.appendingPathComponent("Tests/SignaturePadLinuxTests/Fixtures")
    /// Whether the umockdev preload is loaded into this process (scripts/run-tests sets it for one step).
    static var isPreloaded: Bool {
        ProcessInfo.processInfo.environment["LD_PRELOAD"]?.contains("libumockdev-preload") ?? false
    }

    private let handle: UnsafeMutablePointer<UMockdevTestbed>
    /// The mock /sys and /dev, for consentd's UMOCKDEV_DIR.
    let root: String

    init() throws {
        guard let tb = umockdev_testbed_new() else { throw TestbedError("umockdev_testbed_new failed") }
        handle = tb
        // The caller owns the returned string (umockdev's "transfer full").
        let dir = umockdev_testbed_get_root_dir(tb)
        defer { g_free(dir) }
        root = dir.map { String(cString: $0) } ?? ""
    }

    deinit { g_object_unref(UnsafeMutableRawPointer(handle)) }

    /// Adds a fixture device (sysfs, udev properties, ioctl answers) without a uevent; returns its event node.
    @discardableResult
    func add(_ device: String) throws -> String {
        let node = try Self.field("N: ", of: device).map { "/dev/" + $0 } ?? ""
        try check { umockdev_testbed_add_from_file(handle, Self.file(device, "device.umockdev"), &$0) }
        try check { umockdev_testbed_load_ioctl(handle, node, Self.file(device, "device.ioctl"), &$0) }
        return node
    }

    /// Queues the replay of `recording` (a file of the fixtures folder) on `node`; it plays when the node is opened.
    func play(_ recording: String, on node: String) throws {
        try check { umockdev_testbed_load_evemu_events(handle, node, Self.fixtures.appendingPathComponent(recording).path, &$0) }
    }

    /// The kernel's `add` uevent: the device was plugged in.
    func announce(_ device: String) throws {
        umockdev_testbed_uevent(handle, try Self.syspath(device), "add")
    }

    /// The kernel's `remove` uevent, and the device gone from /sys and /dev: unplugged.
    func unplug(_ device: String) throws {
        let syspath = try Self.syspath(device)
        umockdev_testbed_uevent(handle, syspath, "remove")
        umockdev_testbed_remove_device(handle, syspath)
    }

    private static func file(_ device: String, _ name: String) -> String {
        fixtures.appendingPathComponent(device).appendingPathComponent(name).path
    }

    private static func syspath(_ device: String) throws -> String {
        guard let path = try field("P: ", of: device) else { throw TestbedError("\(device): no P: line") }
        return "/sys" + path
    }

    /// The first line of the device's .umockdev with `prefix`, without it.
    private static func field(_ prefix: String, of device: String) throws -> String? {
        let text = try String(contentsOfFile: file(device, "device.umockdev"), encoding: .utf8)
        return text.split(separator: "\n").first { $0.hasPrefix(prefix) }.map { String($0.dropFirst(prefix.count)) }
    }

    private func check(_ body: (inout UnsafeMutablePointer<GError>?) -> gboolean) throws {
        var error: UnsafeMutablePointer<GError>?
        let ok = body(&error)
        if let error {
            let message = error.pointee.message.map { String(cString: $0) } ?? "unknown"
            g_error_free(error)
            throw TestbedError("umockdev: \(message)")
        }
        if ok == 0 { throw TestbedError("umockdev call failed") }
    }
}

struct TestbedError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

extension ConsentdIntegration {
    /// Run by scripts/run-tests in its preloaded step (`--filter ConsentdIntegration/PadUnplug`); skipped elsewhere.
    @Suite(
        .enabled(
            if: SharedTestbed.isPreloaded,
            "needs the umockdev preload in the test process: run via scripts/run-tests (LD_PRELOAD=libumockdev-preload.so.0)"))
    struct PadUnplug {
        /// End to end: the tablet is pulled out mid-stroke and plugged back in (on a new node, as a
        /// real re-plug does). The UI sees the interrupted stroke end and `pad.removed`; the capture waits; after
        /// `pad.added` the ink continues the same signature under the new id with no new `signature.begin`; the
        /// record holds both parts, says which stroke was cut and where the gap is, and verifies.
        @Test func padRemovedMidSignatureAndReAdded() throws {
            let testbed = try SharedTestbed()
            let first = try testbed.add("pen-tablet")
            // Three points of a stroke, pen still down at the end.
            try testbed.play("pen-tablet/before-removal.evemu", on: first)
            let agent = try ConsentdProcess(
                "pad-unplug", arguments: ["--pad-include-uninitialized"], environment: ["UMOCKDEV_DIR": testbed.root])
            let ui = try agent.client()
            ui.negotiate()
            let subscribed = ui.call("events.subscribe", ["topics": ["flow", "ink", "pad"]])
            #expect((subscribed.array("result.snapshot.pads") as? [JSONObject])?.map { $0.string("id") } == [first])

            let flow = FlowDriver(ui)
            flow.toSignaturePage()
            #expect(flow.call("signature.begin").string("result.pad.id") == first)
            #expect(Self.wait(ui) { Self.points(in: $0.filter { $0.string("method") == "ink.points" }) == 3 }, "the first 3 points")
            #expect(!ui.events.contains { $0.string("method") == "ink.strokeEnded" }, "pen still down before the unplug")

            try testbed.unplug("pen-tablet")
            #expect(Self.wait(ui) { $0.contains { $0.string("method") == "pad.removed" } }, "pad.removed; log:\n\(agent.log)")
            let whileOut = ui.events.compactMap { event -> String? in
                switch event.string("method") {
                case "ink.strokeEnded": "end\(event.int("params.data.stroke") ?? -1)@\(event.string("params.data.pad") ?? "?")"
                case "pad.removed": "removed \(event.string("params.data.pad.id") ?? "?")"
                case "pad.added": "added"
                default: nil
                }
            }
            // The open stroke ends (interrupted) before the pad is reported gone.
            #expect(whileOut == ["end0@\(first)", "removed \(first)"])
            #expect(ui.call("pads.list").array("result.pads")?.isEmpty == true)
            // The capture waits; the flow still holds it, still at the signature page.
            #expect(flow.call("flow.get").string("result.view.review.page") == "signature")
            let before = ui.takeEvents("ink.points")
            #expect(Self.points(in: before) == 3)
            #expect(before.allSatisfy { $0.int("params.data.stroke") == 0 && $0.string("params.data.pad") == first })
            _ = ui.takeEvents("ink.strokeEnded")
            _ = ui.takeEvents("pad.removed")

            // Plugged back in: a new node; the whole signature is drawn on it.
            let second = try testbed.add("pen-tablet-replugged")
            #expect(second != first)
            try testbed.play("pen-tablet/signature.evemu", on: second)
            try testbed.announce("pen-tablet-replugged")
            #expect(Self.wait(ui) { $0.contains { $0.string("method") == "pad.added" } }, "pad.added; log:\n\(agent.log)")
            #expect(ui.takeEvents("pad.added").map { $0.string("params.data.pad.id") } == [second])
            #expect(
                Self.wait(ui, seconds: 20) { $0.filter { $0.string("method") == "ink.strokeEnded" }.count >= 2 },
                "both strokes after the return")
            let ended = ui.takeEvents("ink.strokeEnded")
            #expect(ended.map { $0.int("params.data.stroke") } == [1, 2])
            #expect(ended.allSatisfy { $0.string("params.data.pad") == second })
            let after = ui.takeEvents("ink.points")
            #expect(after.allSatisfy { $0.string("params.data.flow") == flow.flow && $0.string("params.data.pad") == second })
            // The echo after the return: strokes 1 and 2 of the same signature, x, y and pressure as recorded (t
            // counts from the first point of the signature, before the unplug).
            var echoed: [[[Double]]] = [[], []]
            for event in after {
                let stroke = (event.int("params.data.stroke") ?? -1) - 1
                guard echoed.indices.contains(stroke) else {
                    Issue.record("ink for stroke \(stroke + 1) after the return")
                    continue
                }
                echoed[stroke] += (event.array("params.data.points") as? [[Any]] ?? []).map(PadCapture.numbers)
            }
            let expected = try PenTablet.expectedSignature()
            let drawn = (expected["strokes"] as? [[[Any]]] ?? []).map { $0.map(PadCapture.numbers) }
            #expect(drawn.map(\.count) == [14, 6])
            #expect(PadCapture.same(echoed.map(Self.withoutTime), drawn.map(Self.withoutTime)), "echo \(echoed.map(\.count))")

            let signed = flow.call("signature.submit")
            #expect(signed.string("result.step") == "done", "\(signed)")
            let completed = flow.call("flow.complete")
            #expect(completed.string("result.step") == "completed", "\(completed)")
            let directory = try #require(completed.string("result.directory"))
            #expect(Faults.verify(URL(fileURLWithPath: directory)) == 0, "consentctl verify \(directory)")

            let data = try Data(contentsOf: URL(fileURLWithPath: directory + "/signature.json"))
            let saved = try #require(try JSONSerialization.jsonObject(with: data) as? JSONObject)
            let strokes = (saved["strokes"] as? [[[Any]]] ?? []).map { $0.map(PadCapture.numbers) }
            #expect(strokes.map(\.count) == [3, 14, 6])
            // The cut stroke, as drawn before the unplug: (5000, 5000) … (5200, 5100) of 21600 × 13500, p 2000/4095.
            let cut: [[Double]] = [[5000, 5000], [5100, 5050], [5200, 5100]].map { [$0[0] / 21600, $0[1] / 13500, 2000 / 4095] }
            #expect(PadCapture.same([Self.withoutTime(strokes.first ?? [])], [cut]), "\(strokes.first ?? [])")
            #expect(PadCapture.same(Array(strokes.dropFirst()).map(Self.withoutTime), drawn.map(Self.withoutTime)))
            #expect(saved.string("device.name") == "Wacom One Pen Display Pen")
            let interrupted = saved.array("device.interruptedStrokes") as? [JSONObject] ?? []
            #expect(interrupted.map { "\($0.int("stroke") ?? -1) \($0.string("reason") ?? "?")" } == ["0 deviceRemoved"])
            let gaps = saved.array("device.gaps") as? [JSONObject] ?? []
            #expect(gaps.map { $0.string("reason") } == ["deviceRemoved"])

            #expect(!agent.log.contains("0.2314814"), "no point in the log")
            agent.finish()
        }

        /// Waits (bounded) until `done` holds for the events read so far, asking for more with `session.sync`.
        static func wait(_ ui: SocatClient, seconds: Int = 10, until done: ([JSONObject]) -> Bool) -> Bool {
            let deadline = ContinuousClock.now + .seconds(seconds)
            while !done(ui.events) {
                guard ContinuousClock.now < deadline else { return false }
                usleep(50_000)
                ui.call("session.sync")
            }
            return true
        }

        static func points(in ink: [JSONObject]) -> Int {
            ink.reduce(0) { $0 + ($1.array("params.data.points")?.count ?? 0) }
        }

        /// Each point as [x, y, p].
        static func withoutTime(_ stroke: [[Double]]) -> [[Double]] {
            stroke.map { $0.count == 4 ? [$0[0], $0[1], $0[3]] : $0 }
        }
    }
}
