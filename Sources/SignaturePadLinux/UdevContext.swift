import CUdev
import SignaturePad

/// Owns one `struct udev` handle; enumerates input devices.
final class UdevContext {
    let handle: OpaquePointer

    /// - Throws: `.udevUnavailable` when libudev cannot start (no /sys).
    init() throws {
        guard let udev = udev_new() else {
            throw SignaturePadError(
                .udevUnavailable, "libudev could not be initialised; run the agent on a host with /sys and udev.")
        }
        handle = udev
    }

    deinit { udev_unref(handle) }

    /// Input devices with a node that udev or our rule marks as a pad (OR of the properties, AND the subsystem).
    func enumeratePadCandidates(requireInitialized: Bool) -> [UdevDeviceInfo] {
        guard let enumerate = udev_enumerate_new(handle) else { return [] }
        defer { udev_enumerate_unref(enumerate) }
        udev_enumerate_add_match_subsystem(enumerate, "input")
        udev_enumerate_add_match_property(enumerate, "ID_INPUT_TOUCHSCREEN", "1")
        udev_enumerate_add_match_property(enumerate, "ID_INPUT_TABLET", "1")
        udev_enumerate_add_match_property(enumerate, "CONSENT_KIOSK_PAD", "1")
        if requireInitialized { udev_enumerate_add_match_is_initialized(enumerate) }
        udev_enumerate_scan_devices(enumerate)

        var result: [UdevDeviceInfo] = []
        var entry = udev_enumerate_get_list_entry(enumerate)
        while let e = entry {
            defer { entry = udev_list_entry_get_next(e) }
            guard let path = udev_list_entry_get_name(e),
                let device = udev_device_new_from_syspath(handle, path)
            else { continue }
            defer { udev_device_unref(device) }
            let info = UdevDeviceInfo(device: device)
            if info.isPadCandidate { result.append(info) }
        }
        return result
    }
}
