import CSystemd
import Foundation
import Logging

/// Sends sd_notify(3) messages to the service manager when it asked for them (`NOTIFY_SOCKET` is set).
///
/// libsystemd does the sending, so every `NOTIFY_SOCKET` form works: a path, an abstract `@name`, a vsock address.
/// Without `NOTIFY_SOCKET` (started by hand, `make run`) every call is a no-op. `NOTIFY_SOCKET` is kept in the
/// environment: STOPPING=1 and the watchdog pings come long after READY=1.
///
/// sd_notify(3) sends on a blocking datagram socket: while the receiver's queue is full (a service manager that
/// does not read, `net.unix.max_dgram_qlen`) it waits. So the sending happens on one serial queue of its own,
/// never on a caller's thread: the cooperative pool and the event loops never wait for systemd, and the messages
/// keep their order (READY=1 before STOPPING=1).
public struct SystemdNotifier: Sendable {
    /// Whether a service manager listens.
    public let isEnabled: Bool
    private let logger: Logger
    private let queue = DispatchQueue(label: "consentd.sd-notify")

    public init(environment: [String: String] = ProcessInfo.processInfo.environment, logger: Logger) {
        isEnabled = !(environment["NOTIFY_SOCKET"] ?? "").isEmpty
        self.logger = logger
    }

    /// Sends `notifications` in one datagram, soon and in call order; a failure is logged, never thrown (the agent
    /// keeps serving).
    public func notify(_ notifications: SystemdNotification...) {
        guard isEnabled, !notifications.isEmpty else { return }
        let logger = self.logger
        queue.async { Self.send(notifications, logger: logger) }
    }

    private static func send(_ notifications: [SystemdNotification], logger: Logger) {
        let message = SystemdNotification.message(notifications)
        let result = csystemd_notify(message)
        if result < 0 {
            logger.warning(
                "cannot notify the service manager",
                metadata: ["message": "\(notifications.first?.assignment ?? "")", "errno": "\(-result)"])
        } else if notifications != [.watchdog] {  // pings are too frequent for the debug log
            logger.debug(
                "notified the service manager", metadata: ["message": "\(message.split(separator: "\n").joined(separator: " "))"])
        }
    }
}
