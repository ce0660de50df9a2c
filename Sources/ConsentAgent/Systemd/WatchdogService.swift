import Logging
import Foundation
import NIOCore
import NIOPosix
import ServiceLifecycle

/// Pings the systemd watchdog (`WATCHDOG=1`) at half the interval `WatchdogSec=` asks for, as long as the agent's
/// event loops answer.
///
/// Each ping first runs a no-op on an event loop, so a wedged loop stops the pings and systemd restarts the
/// agent (`Restart=on-failure`). It starts first and stops last: it keeps pinging while in-flight records are
/// written during a graceful shutdown.
public struct WatchdogService: Service {
    public let interval: Duration
    let notifier: SystemdNotifier
    let group: any EventLoopGroup
    let logger: Logger

    public init(
        interval: Duration, notifier: SystemdNotifier, group: any EventLoopGroup = MultiThreadedEventLoopGroup.singleton,
        logger: Logger
    ) {
        self.interval = interval
        self.notifier = notifier
        self.group = group
        self.logger = logger
    }

    /// The ping interval the environment asks for: half of `WATCHDOG_USEC`, when `WATCHDOG_PID` (if set) is
    /// this process; nil when the watchdog is off.
    public static func interval(environment: [String: String], pid: Int32) -> Duration? {
        guard let text = environment["WATCHDOG_USEC"], let usec = UInt64(text), usec > 0 else { return nil }
        if let owner = environment["WATCHDOG_PID"] {
            guard let ownerPID = Int32(owner), ownerPID == pid else { return nil }
        }
        return .microseconds(Int64(clamping: usec / 2))
    }

    /// The watchdog systemd asked this process for (`WatchdogSec=`), or nil.
    public static func fromEnvironment(
        _ environment: [String: String] = ProcessInfo.processInfo.environment,
        pid: Int32 = ProcessInfo.processInfo.processIdentifier, notifier: SystemdNotifier, logger: Logger
    ) -> WatchdogService? {
        guard notifier.isEnabled, let interval = interval(environment: environment, pid: pid) else { return nil }
        return WatchdogService(interval: interval, notifier: notifier, logger: logger)
    }

    public func run() async throws {
        logger.info("watchdog enabled", metadata: ["interval_ms": "\(AgentConfiguration.milliseconds(interval))"])
        notifier.notify(.watchdog)
        let (interval, group, notifier) = (interval, group, notifier)
        // Until this service's turn to stop comes, which is after every other service has stopped.
        try? await cancelWhenGracefulShutdown {
            while !Task.isCancelled {
                try await Task.sleep(for: interval)
                // The loops answer: consentd is alive, not just this task.
                guard (try? await group.next().submit({}).get()) != nil else { continue }
                notifier.notify(.watchdog)
            }
        }
    }
}
