import CUMockdev
import Foundation
import SignaturePad

/// The fixtures folder next to this file.
enum Fixtures {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures")

    static func path(_ device: String, _ file: String) -> String {
        root.appendingPathComponent(device).appendingPathComponent(file).path
    }

    /// The event node each fixture device declares (`N: input/eventN` in its .umockdev).
    static func node(_ device: String) -> String {
        let text = (try? String(contentsOfFile: path(device, "device.umockdev"), encoding: .utf8)) ?? ""
        let line = text.split(separator: "\n").first { $0.hasPrefix("N: ") } ?? ""
        return "/dev/" + line.dropFirst(3)
    }

    /// The sysfs path of the event device (`P:` of the first paragraph), as umockdev exposes it.
    static func syspath(_ device: String) -> String {
        let text = (try? String(contentsOfFile: path(device, "device.umockdev"), encoding: .utf8)) ?? ""
        let line = text.split(separator: "\n").first { $0.hasPrefix("P: ") } ?? ""
        return "/sys" + line.dropFirst(3)
    }

    /// The pen-tablet fixture as the capture sees it (mirrors generate.py), for tests without umockdev.
    static let penTabletDescription = PadDescription(
        node: "/dev/input/event10", name: "Wacom One Pen Display Pen", vendorID: 0x056a, productID: 0x03a6,
        kind: .pen, isTablet: true, x: AxisInfo(minimum: 0, maximum: 21600, resolution: 100),
        y: AxisInfo(minimum: 0, maximum: 13500, resolution: 100), pressure: AxisInfo(minimum: 0, maximum: 4095),
        tiltX: AxisInfo(minimum: -64, maximum: 63, resolution: 57), tiltY: AxisInfo(minimum: -64, maximum: 63, resolution: 57))

    static func evemu(_ device: String, _ scenario: String) throws -> EvemuRecording {
        try EvemuReader.parse(String(contentsOfFile: path(device, "\(scenario).evemu"), encoding: .utf8))
    }
}

/// Whether the umockdev preload library is loaded into this process (set by scripts/run-tests).
///
/// `umockdev_in_mock_environment()` is not used: it caches its first answer, which is false before a testbed
/// exists.
enum MockEnvironment {
    static var isActive: Bool {
        ProcessInfo.processInfo.environment["LD_PRELOAD"]?.contains("libumockdev-preload") ?? false
    }
}

struct TestbedError: Error, CustomStringConvertible {
    var description: String
}

/// Owns one umockdev testbed: a private /sys and /dev for the duration of a test.
///
/// Creating it sets UMOCKDEV_DIR in this process; releasing it removes the directory and unsets the variable.
/// One testbed per test, because umockdev replays an evemu file only once per testbed.
final class MockTestbed {
    private let handle: UnsafeMutablePointer<UMockdevTestbed>

    init() throws {
        guard let tb = umockdev_testbed_new() else { throw TestbedError(description: "umockdev_testbed_new failed") }
        handle = tb
    }

    deinit { g_object_unref(UnsafeMutableRawPointer(handle)) }

    /// Adds a fixture device (sysfs + udev properties + ioctl answers); returns its event node.
    @discardableResult
    func add(_ device: String, announce: Bool = false) throws -> String {
        try check { umockdev_testbed_add_from_file(handle, Fixtures.path(device, "device.umockdev"), &$0) }
        let node = Fixtures.node(device)
        try check { umockdev_testbed_load_ioctl(handle, node, Fixtures.path(device, "device.ioctl"), &$0) }
        if announce { umockdev_testbed_uevent(handle, Fixtures.syspath(device), "add") }
        return node
    }

    /// Queues an evemu replay on the device's node.
    func play(_ device: String, _ scenario: String) throws {
        let node = Fixtures.node(device)
        try check {
            umockdev_testbed_load_evemu_events(handle, node, Fixtures.path(device, "\(scenario).evemu"), &$0)
        }
    }

    /// Sends an `add` uevent, as the kernel does when a device is plugged in.
    func announce(_ device: String) {
        umockdev_testbed_uevent(handle, Fixtures.syspath(device), "add")
    }

    /// Deletes the device without telling anyone (it vanished between enumeration and open).
    func vanish(_ device: String) {
        umockdev_testbed_remove_device(handle, Fixtures.syspath(device))
    }

    /// Sends a `remove` uevent and deletes the device from the testbed.
    func remove(_ device: String) {
        let syspath = Fixtures.syspath(device)
        umockdev_testbed_uevent(handle, syspath, "remove")
        umockdev_testbed_remove_device(handle, syspath)
    }

    private func check(_ body: (inout UnsafeMutablePointer<GError>?) -> gboolean) throws {
        var error: UnsafeMutablePointer<GError>?
        let ok = body(&error)
        if let error {
            let message = error.pointee.message.map { String(cString: $0) } ?? "unknown"
            g_error_free(error)
            throw TestbedError(description: "umockdev: \(message)")
        }
        if ok == 0 { throw TestbedError(description: "umockdev call failed") }
    }
}
