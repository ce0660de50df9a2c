import Foundation
import NIOConcurrencyHelpers
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// The service manager's end of sd_notify(3): a datagram socket at a path, as systemd makes for a `Type=notify`
/// unit and passes in `NOTIFY_SOCKET`. Like systemd it reads every datagram as it comes (on a thread of its own:
/// a receiver that lets its queue fill makes the sender's sd_notify wait), and keeps each assignment (`READY=1`,
/// `WATCHDOG=1`, …).
final class NotifySocket: Sendable {
    let path: String
    private let fd: Int32
    private let state = State()

    private final class State: Sendable {
        let received = NIOLockedValueBox<[String]>([])
        let isClosed = Synchronization.Atomic<Bool>(false)
    }

    init(path: String) throws {
        self.path = path
        fd = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw POSIXError(.init(rawValue: errno) ?? .EIO) }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            for (i, byte) in path.utf8.prefix(raw.count - 1).enumerated() { raw[i] = byte }
        }
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        guard bound == 0 else {
            Glibc.close(fd)
            throw POSIXError(.init(rawValue: errno) ?? .EIO)
        }
        let (receiving, state) = (fd, state)
        Thread.detachNewThread {
            var buffer = [UInt8](repeating: 0, count: 4096)
            while !state.isClosed.load(ordering: .relaxed) {
                var poller = pollfd(fd: receiving, events: Int16(POLLIN), revents: 0)
                guard poll(&poller, 1, 100) > 0 else { continue }
                let count = recv(receiving, &buffer, buffer.count, Int32(MSG_DONTWAIT))
                guard count > 0 else { continue }
                let lines = String(decoding: buffer.prefix(count), as: UTF8.self).split(separator: "\n").map(String.init)
                state.received.withLockedValue { $0 += lines }
            }
            Glibc.close(receiving)
        }
    }

    /// Stops reading and removes the socket file.
    func close() {
        state.isClosed.store(true, ordering: .relaxed)
        unlink(path)
    }

    deinit { close() }

    /// Every assignment received so far, in order.
    var assignments: [String] { state.received.withLockedValue { $0 } }

    /// Waits until `assignment` (e.g. `READY=1`) has arrived; false on timeout.
    func waitFor(_ assignment: String, timeout: Duration = .seconds(20)) -> Bool {
        let deadline = ContinuousClock.now + timeout
        while !assignments.contains(assignment) {
            guard ContinuousClock.now < deadline else { return false }
            usleep(10_000)
        }
        return true
    }
}
