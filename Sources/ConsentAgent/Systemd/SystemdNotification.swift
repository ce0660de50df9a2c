/// One assignment of the sd_notify(3) protocol; a datagram to `NOTIFY_SOCKET` carries one or more, a line each.
///
/// ```
/// READY=1\nSTATUS=serving /run/consentd/consentd.sock
/// ```
public enum SystemdNotification: Hashable, Sendable {
    /// Startup is finished: the socket serves (`Type=notify` units become active).
    case ready
    /// Graceful shutdown has begun.
    case stopping
    /// The keep-alive ping for `WatchdogSec=`.
    case watchdog
    /// A one-line status for `systemctl status`; line breaks are replaced, so it stays one assignment.
    case status(String)

    /// The `KEY=value` text of this assignment.
    public var assignment: String {
        switch self {
        case .ready: return "READY=1"
        case .stopping: return "STOPPING=1"
        case .watchdog: return "WATCHDOG=1"
        case .status(let text):
            let line = String(text.map { $0.isNewline ? " " : $0 })
            return "STATUS=" + line
        }
    }

    /// The datagram text for `notifications`, one assignment a line.
    public static func message(_ notifications: [SystemdNotification]) -> String {
        notifications.map(\.assignment).joined(separator: "\n")
    }
}
