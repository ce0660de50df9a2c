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
