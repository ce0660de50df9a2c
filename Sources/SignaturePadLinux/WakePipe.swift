import FileBytes
import Glibc
import SignaturePad

/// Owns a non-blocking pipe used to wake the session's I/O thread out of `poll` (start, finish, close).
final class WakePipe: Sendable {
    let readEnd: Int32
    let writeEnd: Int32

    init() throws {
        var fds: [Int32] = [-1, -1]
        // pipe2 is not exported by Glibc's Swift overlay; pipe + fcntl is equivalent here (single-threaded setup).
        let rc = fds.withUnsafeMutableBufferPointer { pipe($0.baseAddress) }
        guard rc == 0 else { throw Syscall.error(errno: errno, node: "wake pipe") }
        for fd in fds {
            _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
            _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
        }
        readEnd = fds[0]
        writeEnd = fds[1]
    }

    deinit {
        close(readEnd)
        close(writeEnd)
    }

    /// Wakes the poller; a full pipe already means "awake", so EAGAIN is fine.
    func signal() {
        var byte: UInt8 = 1
        _ = FileBytes.retryingEINTR { Int32(truncatingIfNeeded: write(writeEnd, &byte, 1)) }
    }

    func drain() {
        var buffer = [UInt8](repeating: 0, count: 64)
        while buffer.withUnsafeMutableBytes({ read(readEnd, $0.baseAddress, $0.count) }) > 0 {}
    }
}
