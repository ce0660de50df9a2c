import CEvdev
import FileBytes
import Glibc
import SignaturePad

/// Owns one open evdev node: its file descriptor and the libevdev handle on it.
///
/// The node is opened non-blocking; all reads go through libevdev, which turns the kernel's `SYN_DROPPED` into a
/// resync (EVIOCG* queries) that we forward as events. Closing (deinit) also releases a grab, and the kernel
/// releases it if the process dies.
final class EvdevDevice {
    let node: String
    let fileDescriptor: Int32
    private let handle: OpaquePointer
    private(set) var isGrabbed = false
    /// Whether `EVIOCSCLOCKID(CLOCK_MONOTONIC)` was accepted; if not, timestamps are on the realtime clock.
    private(set) var hasMonotonicClock = false

    /// - Throws: `.deviceGone` (vanished since enumeration), `.permissionDenied`, `.notAnInputDevice`.
    init(node: String) throws {
        let fd = try Syscall.open(node, flags: O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        var device: OpaquePointer?
        let rc = FileBytes.retryingEINTR(returningNegatedErrno: { libevdev_new_from_fd(fd, &device) })
        guard rc == 0, let device else {
            close(fd)
            throw Syscall.error(errno: rc < 0 ? -rc : EINVAL, node: node)
        }
        self.node = node
        self.fileDescriptor = fd
        self.handle = device
        hasMonotonicClock = libevdev_set_clock_id(device, CLOCK_MONOTONIC) == 0
    }

    deinit {
        if isGrabbed { _ = libevdev_grab(handle, LIBEVDEV_UNGRAB) }
        libevdev_free(handle)
        close(fileDescriptor)
    }

    // MARK: Identity and axes

    var name: String { libevdev_get_name(handle).map { String(cString: $0) } ?? "" }
    var vendorID: UInt16 { UInt16(truncatingIfNeeded: libevdev_get_id_vendor(handle)) }
    var productID: UInt16 { UInt16(truncatingIfNeeded: libevdev_get_id_product(handle)) }

    func hasCode(type: UInt16, code: UInt16) -> Bool {
        libevdev_has_event_code(handle, UInt32(type), UInt32(code)) != 0
    }

    func axis(_ code: UInt16) -> AxisInfo? {
        guard hasCode(type: EventType.abs, code: code), let info = libevdev_get_abs_info(handle, UInt32(code)) else {
            return nil
        }
        let a = info.pointee
        return AxisInfo(
            minimum: a.minimum, maximum: a.maximum, fuzz: a.fuzz, flat: a.flat, resolution: a.resolution)
    }

    /// How the capture sees this device, combined with what udev says about it.
    func describe(udev info: UdevDeviceInfo?) -> PadDescription {
        let kind: PadDescription.Kind
        var x = axis(AbsCode.x)
        var y = axis(AbsCode.y)
        var pressure = axis(AbsCode.pressure)
        var slots = 0
        // ABS_MT_SLOT - 1 marks a device whose "MT" axes are really other axes (libevdev's rule): not multitouch.
        let isFakeMT = hasCode(type: EventType.abs, code: AbsCode.mtSlot - 1)
        if !isFakeMT, let slot = axis(AbsCode.mtSlot), let mx = axis(AbsCode.mtPositionX),
            let my = axis(AbsCode.mtPositionY)
        {
            kind = .multitouch
            x = mx
            y = my
            pressure = axis(AbsCode.mtPressure)
            slots = max(0, Int(slot.maximum) + 1)
        } else if hasCode(type: EventType.key, code: KeyCode.btnToolPen) {
            kind = .pen
        } else {
            kind = .touch
        }
        let udevName = info?.name ?? ""
        return PadDescription(
            node: node, syspath: info?.syspath ?? "", name: name.isEmpty ? udevName : name,
            vendorID: vendorID != 0 ? vendorID : (info?.vendorID ?? 0),
            productID: productID != 0 ? productID : (info?.productID ?? 0), kind: kind,
            isTagged: info?.isTagged ?? false, isTablet: info?.isTablet ?? (kind == .pen),
            isTouchscreen: info?.isTouchscreen ?? (kind != .pen), isAccessible: true, x: x, y: y, pressure: pressure,
            tiltX: axis(AbsCode.tiltX), tiltY: axis(AbsCode.tiltY), slotCount: slots)
    }

    /// The full description for an evemu recording header.
    func evemuDevice() -> EvemuDevice {
        var device = EvemuDevice(
            name: name, bustype: UInt16(truncatingIfNeeded: libevdev_get_id_bustype(handle)), vendor: vendorID,
            product: productID, version: UInt16(truncatingIfNeeded: libevdev_get_id_version(handle)))
        var props = [UInt8](repeating: 0, count: 8)
        for prop in 0..<32 where libevdev_has_property(handle, UInt32(prop)) != 0 {
            props[prop / 8] |= 1 << (prop % 8)
        }
        device.properties = props
        for type in UInt16(1)...EventType.max where libevdev_has_event_type(handle, UInt32(type)) != 0 {
            let maxCode = libevdev_event_type_get_max(UInt32(type))
            guard maxCode > 0 else { continue }
            for code in 0...UInt16(clamping: maxCode) where hasCode(type: type, code: code) {
                device.setCode(type: type, code: code)
                if type == EventType.abs, let a = axis(code) { device.axes[code] = a }
            }
        }
        return device
    }

    // MARK: Grab

    /// Takes exclusive delivery (EVIOCGRAB) so the desktop does not also see the pen while a signature is taken.
    func grab() throws {
        guard !isGrabbed else { return }
        let rc = libevdev_grab(handle, LIBEVDEV_GRAB)
        guard rc == 0 else { throw Syscall.error(errno: -rc, node: node) }
        isGrabbed = true
    }

    func ungrab() {
        guard isGrabbed else { return }
        _ = libevdev_grab(handle, LIBEVDEV_UNGRAB)
        isGrabbed = false
    }

    // MARK: Reading

    /// Appends the events readable now (at most `limit`), resolving `SYN_DROPPED` through libevdev.
    ///
    /// A drop is forwarded as `SYN_DROPPED` followed by a `SYN_REPORT` (closing the window the kernel rule tells
    /// consumers to ignore), then libevdev's resync deltas, which end with their own `SYN_REPORT`. So the pure
    /// ``FrameAssembler`` marks the stroke interrupted and applies the real current state, never a guess.
    ///
    /// - Returns: the number of events appended (0 when nothing was pending).
    /// - Throws: `.deviceGone` on `ENODEV` (unplug, revoke), `.ioFailure` otherwise.
    @discardableResult
    func readAvailable(into events: inout [InputEvent], limit: Int = 4096) throws -> Int {
        var ev = input_event()
        let normal = LIBEVDEV_READ_FLAG_NORMAL.rawValue
        let sync = LIBEVDEV_READ_FLAG_SYNC.rawValue
        let success = Int32(LIBEVDEV_READ_STATUS_SUCCESS.rawValue)
        let syncStatus = Int32(LIBEVDEV_READ_STATUS_SYNC.rawValue)
        var flags = normal
        var count = 0
        while count < limit {
            let rc = FileBytes.retryingEINTR(returningNegatedErrno: { libevdev_next_event(handle, flags, &ev) })
            if rc == success || rc == syncStatus {
                let event = InputEvent(type: ev.type, code: ev.code, value: ev.value, timestamp: cevdev_event_usec(&ev))
                events.append(event)
                count += 1
                if rc == syncStatus, flags == normal {
                    // This is the SYN_DROPPED itself; the deltas follow in sync mode.
                    events.append(InputEvent(type: EventType.syn, code: SynCode.report, value: 0, timestamp: event.timestamp))
                    flags = sync
                }
                continue
            }
            if rc == -EAGAIN {
                if flags == sync {
                    flags = normal
                    continue
                }
                break
            }
            throw Syscall.error(errno: -rc, node: node)
        }
        return count
    }
}
