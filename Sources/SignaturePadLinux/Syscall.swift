import FileBytes
import Glibc
import SignaturePad

/// Where the pad code turns an errno into a ``SignaturePadError`` that says what to do. Interrupted calls are
/// retried by the package's one helper, `FileBytes.retryingEINTR`.
enum Syscall {
    /// `open(2)` with EINTR retry.
    static func open(_ path: String, flags: Int32) throws -> Int32 {
        let rc = FileBytes.retryingEINTR { Glibc.open(path, flags) }
        if rc < 0 { throw error(errno: errno, node: path) }
        return rc
    }

    /// Maps an errno from opening or reading an input node to an error that says what to do.
    static func error(errno err: Int32, node: String) -> SignaturePadError {
        let cause = ErrnoCause(errno: err)
        switch err {
        case EACCES, EPERM:
            return SignaturePadError(
                .permissionDenied,
                "No permission to open \(node); install udev/70-consent-kiosk-pad.rules and add the agent's user to "
                    + "its group (see udev/README.md).", cause: cause)
        case ENOENT, ENODEV, ENXIO:
            return SignaturePadError(
                .deviceGone, "The pad \(node) is gone (unplugged or removed); plug it in again or choose another pad.",
                cause: cause)
        case ENOTTY, EINVAL:
            return SignaturePadError(
                .notAnInputDevice, "\(node) is not an evdev input device; choose a /dev/input/event* node.",
                cause: cause)
        default:
            return SignaturePadError(
                .ioFailure, "Accessing \(node) failed; check the pad's connection and try again.", cause: cause)
        }
    }
}

/// An errno as an error cause, printed with its name.
struct ErrnoCause: Error, Sendable, CustomStringConvertible {
    var errno: Int32
    var description: String { "errno \(errno) (\(String(cString: strerror(errno))))" }
}
