import Testing

@testable import ConsentAgent

@Suite struct SocketActivationTests {
    @Test(arguments: [
        ([:], SocketActivation.Environment.notActivated),
        (["LISTEN_PID": "42", "LISTEN_FDS": "1"], .activated(count: 1)),
        (["LISTEN_PID": "42", "LISTEN_FDS": "3", "LISTEN_FDNAMES": "a:b:c"], .activated(count: 3)),
        // Inherited by accident from a parent that was activated: not ours.
        (["LISTEN_PID": "41", "LISTEN_FDS": "1"], .notActivated),
    ] as [([String: String], SocketActivation.Environment)])
    func parsesTheEnvironment(environment: [String: String], expected: SocketActivation.Environment) {
        #expect(SocketActivation.parse(environment, pid: 42) == expected)
    }

    @Test(arguments: [
        (["LISTEN_FDS": "1"], "LISTEN_PID"),
        (["LISTEN_PID": "x", "LISTEN_FDS": "1"], "LISTEN_PID"),
        (["LISTEN_PID": "42"], "LISTEN_FDS"),
        (["LISTEN_PID": "42", "LISTEN_FDS": "two"], "LISTEN_FDS"),
        (["LISTEN_PID": "42", "LISTEN_FDS": "-1"], "LISTEN_FDS"),
        (["LISTEN_PID": "42", "LISTEN_FDS": "0"], "LISTEN_FDS"),
    ] as [([String: String], String)])
    func namesTheBadVariable(environment: [String: String], variable: String) {
        guard case .invalid(let message) = SocketActivation.parse(environment, pid: 42) else {
            Issue.record("accepted \(environment)")
            return
        }
        #expect(message.contains(variable), "\(message)")
    }

    @Test func anotherProcessesSocketsAreNotTaken() throws {
        #expect(try SocketActivation.takeInheritedSocket(environment: ["LISTEN_PID": "1", "LISTEN_FDS": "1"], pid: 42) == nil)
        #expect(try SocketActivation.takeInheritedSocket(environment: [:], pid: 42) == nil)
    }

    @Test func unusableVariablesAreRefusedAtStart() {
        #expect(throws: AgentError.self) {
            _ = try SocketActivation.takeInheritedSocket(environment: ["LISTEN_PID": "42", "LISTEN_FDS": "0"], pid: 42)
        }
    }
}

@Suite struct SystemdNotificationTests {
    @Test func formatsOneAssignmentPerLine() {
        #expect(SystemdNotification.ready.assignment == "READY=1")
        #expect(SystemdNotification.stopping.assignment == "STOPPING=1")
        #expect(SystemdNotification.watchdog.assignment == "WATCHDOG=1")
        #expect(SystemdNotification.message([.ready, .status("serving")]) == "READY=1\nSTATUS=serving")
    }

    @Test func aStatusStaysOneLine() {
        #expect(SystemdNotification.status("two\nlines\r\n").assignment == "STATUS=two lines ")
    }

    @Test func watchdogIntervalIsHalfOfWatchdogUsec() {
        #expect(WatchdogService.interval(environment: ["WATCHDOG_USEC": "30000000"], pid: 7) == .seconds(15))
        #expect(WatchdogService.interval(environment: ["WATCHDOG_USEC": "30000000", "WATCHDOG_PID": "7"], pid: 7) == .seconds(15))
    }

    @Test func watchdogIsOffUnlessAskedForThisProcess() {
        #expect(WatchdogService.interval(environment: [:], pid: 7) == nil)
        #expect(WatchdogService.interval(environment: ["WATCHDOG_USEC": "0"], pid: 7) == nil)
        #expect(WatchdogService.interval(environment: ["WATCHDOG_USEC": "soon"], pid: 7) == nil)
        #expect(WatchdogService.interval(environment: ["WATCHDOG_USEC": "30000000", "WATCHDOG_PID": "8"], pid: 7) == nil)
    }

    @Test func notifierIsANoOpWithoutNotifySocket() {
        let notifier = SystemdNotifier(environment: [:], logger: .init(label: "test"))
        #expect(!notifier.isEnabled)
        notifier.notify(.ready)
        #expect(SystemdNotifier(environment: ["NOTIFY_SOCKET": "@x"], logger: .init(label: "test")).isEnabled)
    }
}
