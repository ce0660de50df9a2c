import Foundation
import Testing

extension ConsentdIntegration {
    /// `allowedPeers` checked per connection from SO_PEERCRED, the socket's folder and mode.
    @Suite struct PeerAuthorization {
        /// `nobody`: the allowed, unprivileged UI of these tests.
        static let nobody: UInt32 = 65534
        static let asNobody = ["/usr/bin/setpriv", "--reuid=\(nobody)", "--regid=\(nobody)", "--clear-groups", "--"]

        /// A folder like /run/consentd under systemd: 2750, owner root, group the UI's (nobody's), so the socket
        /// consentd makes in it inherits that group; its parent may be entered by all.
        static func uiFolder() throws -> (parent: URL, folder: URL) {
            let parent = URL(fileURLWithPath: "/tmp").appendingPathComponent("cda-\(UUID().uuidString.prefix(8))")
            let folder = parent.appendingPathComponent("run")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: parent.path)
            #expect(chown(folder.path, 0, gid_t(nobody)) == 0)
            #expect(chmod(folder.path, 0o2750) == 0)
            return (parent, folder)
        }

        @Test func aRefusedPeerGetsOneErrorLineAndTheAgentKeepsServing() throws {
            let (parent, folder) = try uiFolderOrSkip()
            defer { try? FileManager.default.removeItem(at: parent) }
            let config = parent.appendingPathComponent("consentd.json")
            try #"{"allowedPeers":{"uids":[65534]}}"#.write(to: config, atomically: true, encoding: .utf8)
            let agent = try ConsentdProcess(
                "peer-refused", arguments: ["--config", config.path],
                socketPath: folder.appendingPathComponent("consentd.sock").path)

            // The folder is left as it was; the socket is 0660 with the folder's group (setgid): the UI's.
            let socketAttributes = try FileManager.default.attributesOfItem(atPath: agent.socket)
            #expect((socketAttributes[.posixPermissions] as? NSNumber)?.intValue == 0o660)
            #expect((socketAttributes[.groupOwnerAccountID] as? NSNumber)?.uint32Value == Self.nobody)
            let folderAttributes = try FileManager.default.attributesOfItem(atPath: folder.path)
            #expect((folderAttributes[.posixPermissions] as? NSNumber)?.intValue == 0o2750)

            // The test runs as root, which allowedPeers does not list: one error line, then EOF.
            let root = try agent.client("root")
            let refusal = try #require(root.next())
            #expect(refusal.errorType == "PeerRefused")
            #expect(refusal.int("error.code") == -32000)
            #expect(refusal["id"] is NSNull)
            #expect(refusal.int("error.data.uid") == 0)
            root.send(#"{"jsonrpc":"2.0","id":1,"method":"session.negotiate","params":{"client":"x","version":1}}"#)
            #expect(root.linesUntilClosed().isEmpty, "nothing after the refusal")
            #expect(root.isClosedByPeer)

            // nobody is listed: served, with a whole flow up to the signature page (a name the log must not show).
            let ui = try agent.client("nobody", launcher: Self.asNobody)
            ui.negotiate()
            FlowDriver(ui).toSignaturePage()
            // Refused again while the allowed UI is connected; the UI goes on.
            let again = try agent.client("root-again")
            #expect(again.next()?.errorType == "PeerRefused")
            #expect(ui.call("session.sync").int("result.seq") == 0)

            // Logged without PHI: ids and the reason.
            let refusedLines = agent.log.split(separator: "\n").filter { $0.contains("peer refused") }
            #expect(refusedLines.count == 2, "\(agent.log)")
            #expect(refusedLines.first?.contains("uid=0") == true)
            #expect(refusedLines.first?.contains("pid=\(root.pid)") == true, "the pid from SO_PEERCRED")
            #expect(refusedLines.first?.contains("reason=user_not_allowed") == true)
            #expect(!agent.log.contains("Lovelace") && !agent.log.contains("Ada "))
            agent.finish(keepingState: true)
            defer { agent.removeFiles() }

            // Audited as peer.refused, with the peer's uid and pid.
            let audit = try String(
                contentsOf: agent.stateDirectory.appendingPathComponent("audit/audit.log"), encoding: .utf8)
            let refused = audit.split(separator: "\n").compactMap { parseJSON(String($0)) }
                .filter { $0.string("event") == "peer.refused" }
            #expect(refused.count == 2)
            #expect(refused.first?.int("peer_uid") == 0)
            #expect(refused.first?.int("peer_pid") == Int(root.pid))
            #expect(refused.first?.string("reason") == "user_not_allowed")
            #expect(!audit.contains("Lovelace"))
        }

        @Test func anAllowedGroupAdmitsItsMembersOnly() throws {
            let (parent, folder) = try uiFolderOrSkip()
            defer { try? FileManager.default.removeItem(at: parent) }
            let config = parent.appendingPathComponent("consentd.json")
            try #"{"allowedPeers":{"gids":[65534]}}"#.write(to: config, atomically: true, encoding: .utf8)
            let agent = try ConsentdProcess(
                "peer-group", arguments: ["--config", config.path],
                socketPath: folder.appendingPathComponent("consentd.sock").path)
            // Root in nobody's group as a supplementary group: allowed by SO_PEERGROUPS.
            let member = try agent.client("member", launcher: ["/usr/bin/setpriv", "--groups=\(Self.nobody)", "--"])
            member.negotiate()
            #expect(member.call("pads.list").array("result.pads") != nil)
            // The same root without it: refused, reason group_not_allowed.
            let outsider = try agent.client("outsider", launcher: ["/usr/bin/setpriv", "--clear-groups", "--"])
            #expect(outsider.next()?.errorType == "PeerRefused")
            #expect(agent.log.contains("reason=group_not_allowed"), "\(agent.log)")
            agent.finish()
        }

        @Test func consentdMakesItsSocketFolderPrivateAndRefusesAnOpenOne() throws {
            let agent = try ConsentdProcess("socket-folder")
            let folder = (agent.socket as NSString).deletingLastPathComponent
            let mode = try FileManager.default.attributesOfItem(atPath: folder)[.posixPermissions] as? NSNumber
            #expect(mode?.intValue == 0o750, "created 0750")
            agent.finish()

            // A folder every user may enter: consentd refuses to start, naming the folder and the fix.
            let open = URL(fileURLWithPath: "/tmp").appendingPathComponent("cdo-\(UUID().uuidString.prefix(8))")
            try FileManager.default.createDirectory(at: open, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(at: open) }
            try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: open.path)
            let process = Process()
            process.executableURL = Paths.consentd
            process.arguments = [
                "--socket", open.appendingPathComponent("consentd.sock").path,
                "--state-dir", open.appendingPathComponent("state").path,
            ]
            let stderr = Pipe()
            process.standardError = stderr
            process.standardOutput = FileHandle.nullDevice
            try process.run()
            let output = String(decoding: stderr.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            process.waitUntilExit()
            #expect(process.terminationStatus != 0)
            #expect(output.contains(open.path) && output.contains("mode 755") && output.contains("0750"), "\(output)")
            #expect(!FileManager.default.fileExists(atPath: open.appendingPathComponent("consentd.sock").path))
        }

        /// The folder needs chown, so root; the integration suite runs as root in CI.
        private func uiFolderOrSkip() throws -> (parent: URL, folder: URL) {
            try #require(geteuid() == 0, "these tests switch users with setpriv and need root")
            return try Self.uiFolder()
        }
    }
}
