import Foundation
import Testing

extension ConsentdIntegration {
    @Suite struct ConfigFile {
        @Test func unknownKeyIsRefusedByName() throws {
            let directory = URL(fileURLWithPath: "/tmp").appendingPathComponent("cdi-\(UUID().uuidString.prefix(8))")
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(at: directory) }
            let config = directory.appendingPathComponent("consentd.json")
            try #"{"sockett":"/tmp/x.sock"}"#.write(to: config, atomically: true, encoding: .utf8)
            let process = Process()
            process.executableURL = Paths.consentd
            process.arguments = ["--config", config.path]
            let stderr = Pipe()
            process.standardError = stderr
            process.standardOutput = FileHandle.nullDevice
            try process.run()
            let output = String(decoding: stderr.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            process.waitUntilExit()
            #expect(process.terminationStatus != 0)
            #expect(output.contains("\"sockett\""), "\(output)")
        }

        static func runToExit(_ arguments: [String]) throws -> (status: Int32, stderr: String) {
            let process = Process()
            process.executableURL = Paths.consentd
            process.arguments = arguments
            let stderr = Pipe()
            process.standardError = stderr
            process.standardOutput = FileHandle.nullDevice
            try process.run()
            let output = String(decoding: stderr.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            process.waitUntilExit()
            return (process.terminationStatus, output)
        }

        /// A start that fails at run time (here a study that is not there) says why in one line and
        /// exits 1; only a wrong flag gets the usage text and exit 64.
        @Test func aRuntimeFailureIsOneLineAndExitOneAndABadFlagIsAUsageError() throws {
            let directory = URL(fileURLWithPath: "/tmp").appendingPathComponent("cdi-\(UUID().uuidString.prefix(8))")
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(at: directory) }
            let missing = try Self.runToExit([
                "--study", directory.appendingPathComponent("no-such-study").path, "--no-pads",
                "--socket", directory.appendingPathComponent("s.sock").path,
                "--state-dir", directory.appendingPathComponent("state").path,
            ])
            #expect(missing.status == 1, "\(missing.stderr)")
            let lines = missing.stderr.split(separator: "\n").filter { $0.hasPrefix("Error:") || !$0.contains("consentd") }
            #expect(lines.count == 1 && lines[0].contains("Cannot load study"), "\(missing.stderr)")
            #expect(!missing.stderr.contains("Usage:"), "\(missing.stderr)")

            let badFlag = try Self.runToExit(["--log-level", "loud", "--no-pads"])
            #expect(badFlag.status == 64, "\(badFlag.stderr)")
            #expect(badFlag.stderr.contains("Unknown log level loud") && badFlag.stderr.contains("Usage:"), "\(badFlag.stderr)")
        }

        /// Every start logs its configuration's digest; a start whose configuration differs from the last start's
        /// logs the change, found by reading the log back past the flows since (which the agent does while its
        /// studies load); a start with the same configuration logs none.
        @Test func aConfigurationChangedSinceTheLastStartIsLoggedOnce() throws {
            let first = try ConsentdProcess("config-first")
            defer { first.removeFiles() }
            let ui = try first.client()
            ui.negotiate()
            for _ in 0..<3 {
                let flow = FlowDriver(ui)
                #expect(flow.call("flow.cancel").string("result.step") == "cancelled")
            }
            first.finish(keepingState: true)
            for name in ["config-second", "config-third"] {
                // The same socket and state directory: both are part of the configuration.
                let agent = try ConsentdProcess(
                    name, arguments: ["--inactivity-timeout", "90"], socketPath: first.socket,
                    stateDirectory: first.stateDirectory)
                agent.finish()
            }

            let lines = Faults.auditLines(first.stateDirectory).compactMap(parseJSON)
            let starts = lines.filter { $0.string("event") == "agent.started" }.compactMap { $0.string("configuration") }
            try #require(starts.count == 3, "\(lines)")
            #expect(starts[0] != starts[1] && starts[1] == starts[2])
            let changes = lines.enumerated().filter { $0.element.string("event") == "config.changed" }
            try #require(changes.count == 1, "\(lines)")
            let change = changes[0]
            try #require(change.offset > 0, "\(lines)")
            #expect(change.element.string("previous_configuration") == starts[0])
            #expect(change.element.string("configuration") == starts[1])
            // Right after the second start's line, before anything else the agent logs.
            #expect(lines[change.offset - 1].string("event") == "agent.started")
            #expect(lines[change.offset - 1].string("configuration") == starts[1])
        }

        @Test func configFileSetsTheLimitsAnnouncedInHello() throws {
            let directory = URL(fileURLWithPath: "/tmp").appendingPathComponent("cdi-\(UUID().uuidString.prefix(8))")
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(at: directory) }
            let config = directory.appendingPathComponent("consentd.json")
            try #"{"maxLineBytes":4096,"clientKillTimeoutSeconds":3,"logLevel":"debug"}"#.write(to: config, atomically: true, encoding: .utf8)
            let agent = try ConsentdProcess("config", arguments: ["--config", config.path])
            let ui = try agent.client()
            let hello = try #require(ui.next())
            #expect(hello.int("params.limits.maxLineBytes") == 4096)
            #expect(hello.int("params.limits.clientKillTimeoutMs") == 3000)
            agent.finish()
        }
    }
}
