import FileBytes
import Glibc
import SignaturePad

/// A bounded `poll(2)` on one descriptor; every wait in the pad code has a timeout.
enum FileDescriptorWait {
    enum Result { case readable, hangup, timedOut }

    static func readable(_ fd: Int32, timeout: Duration) throws -> Result {
        var pfd = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        let ms = milliseconds(timeout)
        let rc = FileBytes.retryingEINTR { poll(&pfd, 1, ms) }
        if rc < 0 { throw Syscall.error(errno: errno, node: "fd \(fd)") }
        if rc == 0 { return .timedOut }
        if pfd.revents & Int16(POLLIN) != 0 { return .readable }
        return .hangup
    }

    static func milliseconds(_ d: Duration) -> Int32 {
        let (s, atto) = d.components
        let ms = s * 1000 + atto / 1_000_000_000_000_000
        return Int32(clamping: max(0, ms))
    }
}
