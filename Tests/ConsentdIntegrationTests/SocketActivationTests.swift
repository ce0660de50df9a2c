import Foundation
import IntegrationSupport
import Testing

#if canImport(Glibc)
import Glibc
#endif

extension ConsentdIntegration {
    /// consentd as systemd runs it from deploy/systemd: an inherited listening socket (LISTEN_FDS), READY=1 and
    /// watchdog pings on NOTIFY_SOCKET, journal-style log lines, STOPPING=1 and exit 0 on SIGTERM.
    @Suite struct SocketActivation {
        static let activator = "/usr/bin/systemd-socket-activate"

        @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: activator),
            "systemd-socket-activate is missing: scripts/ensure-deps installs the Debian package systemd"),
            .timeLimit(.minutes(2)))
        func servesTheInheritedSocketAndNotifiesSystemd() throws {
            signal(SIGPIPE, SIG_IGN)
            let directory = URL(fileURLWithPath: "/tmp").appendingPathComponent("cdi-\(UUID().uuidString.prefix(8))")
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(at: directory) }
            let socket = directory.appendingPathComponent("consentd.sock").path
            let notify = try NotifySocket(path: directory.appendingPathComponent("notify.sock").path)
            defer { notify.close() }
            let log = directory.appendingPathComponent("consentd.log")
            _ = FileManager.default.createFile(atPath: log.path, contents: nil)
            // The journal stream is consentd's stderr: systemd names it by device and inode.
            let attributes = try FileManager.default.attributesOfItem(atPath: log.path)
            let journalStream = "\(attributes[.systemNumber] as? Int ?? 0):\(attributes[.systemFileNumber] as? Int ?? 0)"

            // systemd-socket-activate gives consentd only the variables -E names: a sanitized run's options
            // (scripts/sanitize: the suppressions, the exit code of a report) are passed on by name.
            let sanitizer = ["ASAN_OPTIONS", "LSAN_OPTIONS", "TSAN_OPTIONS", "UBSAN_OPTIONS", "SWIFT_BACKTRACE"].flatMap { name in
                ProcessInfo.processInfo.environment[name].map { ["-E", "\(name)=\($0)"] } ?? []
            }
            let process = Process()
            process.executableURL = URL(fileURLWithPath: Self.activator)
            process.arguments = [
                "--listen=\(socket)", "-E", "NOTIFY_SOCKET=\(notify.path)", "-E", "WATCHDOG_USEC=400000",
                "-E", "JOURNAL_STREAM=\(journalStream)",
            ] + sanitizer + [
                Paths.consentd.path, "--state-dir", directory.appendingPathComponent("state").path, "--log-level", "debug",
                "--no-pads",
            ]
            process.standardError = try FileHandle(forWritingTo: log)
            process.standardOutput = FileHandle.nullDevice
            try process.run()
            defer { process.end() }
            func logText() -> String { fileText(log.path) ?? "" }

            // systemd-socket-activate binds the socket; consentd starts on the first connection (as with the unit).
            let deadline = ContinuousClock.now + .seconds(10)
            while (try? FileManager.default.attributesOfItem(atPath: socket)[.type] as? FileAttributeType) != .typeSocket,
                ContinuousClock.now < deadline, process.isRunning
            {
                usleep(20_000)
            }
            #expect(!notify.waitFor("READY=1", timeout: .milliseconds(200)), "consentd must not start before a client")

            let transcript = Paths.transcripts.appendingPathComponent("socket-activation-ui.jsonl")
            try FileManager.default.createDirectory(at: Paths.transcripts, withIntermediateDirectories: true)
            let ui = try SocatClient(socket: socket, name: "ui", transcript: transcript)
            let hello = try #require(ui.next(timeout: .seconds(30)), "no hello on the inherited socket; log:\n\(logText())")
            #expect(hello.string("method") == "hello")
            #expect(notify.waitFor("READY=1"), "no READY=1 on NOTIFY_SOCKET; got \(notify.assignments); log:\n\(logText())")
            #expect(notify.waitFor("WATCHDOG=1", timeout: .seconds(5)), "no watchdog ping; got \(notify.assignments)")
            #expect(ui.call("session.negotiate", ["client": "activation-test", "version": 1]).int("result.version") == 1)

            // The listener keeps accepting on the inherited socket.
            let secondTranscript = Paths.transcripts.appendingPathComponent("socket-activation-second.jsonl")
            let second = try SocatClient(socket: socket, name: "second", transcript: secondTranscript)
            #expect(second.next()?.string("method") == "hello")

            // Journal form: priority prefix, no timestamp.
            let lines = logText().split(separator: "\n")
            #expect(lines.contains { $0.hasPrefix("<6>listening ") && $0.contains("activation=systemd") }, "log:\n\(logText())")
            #expect(!lines.contains { $0.hasPrefix("<") && $0.contains(" info ") }, "journal lines carry no level words")

            // systemd-socket-activate execs consentd: same pid.
            kill(process.processIdentifier, SIGTERM)
            #expect(notify.waitFor("STOPPING=1"), "no STOPPING=1; got \(notify.assignments)")
            let exited = process.waitForExit(within: .seconds(30))
            #expect(exited, "consentd did not exit after SIGTERM; log:\n\(logText())")
            guard exited else { return }
            #expect(process.terminationStatus == 0, "exit status; log:\n\(logText())")
            // consentd closed both connections on its way out.
            ui.close()
            second.close()
            let schema = SchemaValidator.validate([transcript, secondTranscript])
            #expect(schema.status == 0, "schema violations:\n\(schema.output)")
            let ready = notify.assignments.firstIndex(of: "READY=1") ?? .max
            #expect(ready < notify.assignments.firstIndex(of: "STOPPING=1") ?? -1, "READY=1 before STOPPING=1")
            // The socket file is systemd's: consentd neither replaced nor removed it.
            #expect(FileManager.default.fileExists(atPath: socket), "consentd removed the socket systemd owns")
        }
    }
}
