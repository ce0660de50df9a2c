import CUdev
import Glibc
import SignaturePad

/// Owns one `udev_monitor` on the "udev" netlink source, filtered to the input subsystem.
///
/// It must be created and enabled **before** enumerating, so a pad plugged in between the two is seen by one of
/// them (duplicates are removed by syspath); this is how libinput, hidapi and udisks avoid the race.
final class UdevMonitor {
    private let handle: OpaquePointer
    /// Readable when uevents are queued; non-blocking.
    let fileDescriptor: Int32

    init(context: UdevContext) throws {
        guard let monitor = udev_monitor_new_from_netlink(context.handle, "udev") else {
            throw SignaturePadError(
                .udevUnavailable, "The udev monitor could not be created; run the agent where udev events arrive.")
        }
        udev_monitor_filter_add_match_subsystem_devtype(monitor, "input", nil)
        let rc = udev_monitor_enable_receiving(monitor)
        guard rc >= 0 else {
            udev_monitor_unref(monitor)
            throw SignaturePadError(
                .udevUnavailable, "The udev monitor could not start receiving events; check that udev runs.",
                cause: ErrnoCause(errno: -rc))
        }
        handle = monitor
        fileDescriptor = udev_monitor_get_fd(monitor)
        // libudev creates the socket non-blocking already; make sure, so receive() can never block the I/O thread.
        let flags = fcntl(fileDescriptor, F_GETFL)
        if flags >= 0 { _ = fcntl(fileDescriptor, F_SETFL, flags | O_NONBLOCK) }
    }

    deinit { udev_monitor_unref(handle) }

    /// The next queued event, or nil when none is queued.
    func receive() -> UdevDeviceInfo? {
        guard let device = udev_monitor_receive_device(handle) else { return nil }
        defer { udev_device_unref(device) }
        return UdevDeviceInfo(device: device)
    }
}
