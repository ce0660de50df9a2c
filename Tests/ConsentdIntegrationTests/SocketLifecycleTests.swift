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
