import Glibc
import SignaturePad

/// Reads events from an evdev node through libevdev, with `SYN_DROPPED` resync (see ``EvdevDevice``).
public struct EvdevEventSource: InputEventSource {
    private let device: EvdevDevice

    /// Opens `node` for reading.
    ///
    /// - Throws: `.deviceGone`, `.permissionDenied`, `.notAnInputDevice`.
    public init(node: String) throws {
        device = try EvdevDevice(node: node)
    }

    /// The pad as this node describes itself (no udev classification).
    public var padDescription: PadDescription { device.describe(udev: nil) }

    /// The device header for an evemu recording of this node.
    public var evemuDevice: EvemuDevice { device.evemuDevice() }

    public mutating func read(into events: inout [InputEvent], timeout: Duration) throws -> InputEventReadStatus {
        if try device.readAvailable(into: &events) > 0 { return .events }
        switch try FileDescriptorWait.readable(device.fileDescriptor, timeout: timeout) {
        case .readable:
            return try device.readAvailable(into: &events) > 0 ? .events : .timedOut
        case .hangup:
            // POLLHUP/POLLERR with nothing to read: the node is gone.
            if try device.readAvailable(into: &events) > 0 { return .events }
            throw Syscall.error(errno: ENODEV, node: device.node)
        case .timedOut:
            return .timedOut
        }
    }
}
