import Foundation
import Testing

extension ConsentdIntegration {
    @Suite struct SocketLifecycle {
        @Test func socketIsGroupReadableOnlyAndASecondAgentIsRefused() throws {
            let agent = try ConsentdProcess("socket")
            let mode = try FileManager.default.attributesOfItem(atPath: agent.socket)[.posixPermissions] as? NSNumber
            #expect(mode?.intValue == 0o660)

            let second = Process()
            second.executableURL = Paths.consentd
            second.arguments = ["--socket", agent.socket, "--state-dir", agent.stateDirectory.path]
            second.standardError = FileHandle.nullDevice
            try second.run()
            second.waitUntilExit()
            #expect(second.terminationStatus != 0, "a live socket is never replaced")
            let ui = try agent.client()
            ui.negotiate()
            agent.finish()
        }

        /// Connections are fully released: the agent's open fds return to their baseline after clients leave.
        @Test func descriptorsReturnToBaselineAfterClientsLeave() throws {
            let agent = try ConsentdProcess("fds")
            func openDescriptors() -> Int {
                (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(agent.pid)/fd").count) ?? -1
            }
            let warmup = try agent.client("warmup")
            warmup.negotiate()
            warmup.close()
            usleep(200_000)
            let baseline = openDescriptors()
            var clients: [SocatClient] = []
            for i in 0..<5 {
                let client = try agent.client("c\(i)")
                client.negotiate()
                client.call("events.subscribe", ["topics": ["flow"]])
                clients.append(client)
            }
            #expect(openDescriptors() >= baseline + 5)
            for client in clients { client.close() }
            var now = openDescriptors()
            for _ in 0..<50 where now != baseline {
                usleep(50_000)
                now = openDescriptors()
            }
            #expect(now == baseline)
            agent.finish()
        }

        @Test func staleSocketIsReplaced() throws {
            let agent = try ConsentdProcess("stale")
            kill(agent.pid, SIGKILL)
            usleep(200_000)
            #expect(FileManager.default.fileExists(atPath: agent.socket), "SIGKILL leaves the socket file")
            let restarted = try ConsentdProcess("stale2", socketPath: agent.socket)
            let ui = try restarted.client()
            ui.negotiate()
            restarted.finish()
        }
    }
}
