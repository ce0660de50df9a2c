import Foundation
import Testing

extension ConsentdIntegration {
    /// SIGTERM waits for records being written and says goodbye; records survive restarts and
    /// upgrades.
    @Suite struct GracefulStop {
        @Test func sigtermDuringFlowCompleteRepliesThenSaysGoodbyeAndTheRecordSurvivesARestart() throws {
            let agent = try ConsentdProcess("sigterm-complete")
            defer { agent.removeFiles() }
            let ui = try agent.client()
            ui.negotiate()
            let monitor = try agent.client("monitor")
            monitor.negotiate()
            let flow = FlowDriver(ui)
            flow.toSignaturePage()
            #expect(flow.call("signature.submit", ["strokes": FlowDriver.signature]).string("result.step") == "done")

            // SIGTERM once the agent is writing the record.
            ui.send(jsonLine(["jsonrpc": "2.0", "id": "complete", "method": "flow.complete", "params": ["flow": flow.flow]]))
            let deadline = ContinuousClock.now + .seconds(20)
            while !agent.log.contains("writing the record"), ContinuousClock.now < deadline { usleep(2_000) }
            agent.stop()

            // The reply first, then the goodbye, then EOF.
            let reply = ui.reply(to: "complete")
            #expect(reply.string("result.step") == "completed")
            let record = try #require(reply.string("result.record"))
            let goodbye = ui.next()
            #expect(goodbye?.string("method") == "agent.stopping")
            #expect(goodbye?.int("params.data.unfinishedRecords") == 0)
            #expect(ui.linesUntilClosed().isEmpty)
            #expect(ui.isClosedByPeer)
            // Every client, subscribed or not.
            #expect(monitor.next()?.string("method") == "agent.stopping")
            #expect(monitor.nextLine(timeout: .seconds(5)) == nil)
            let log = agent.log
            let written = try #require(log.range(of: "record written"))
            let stopped = try #require(log.range(of: "closing the connections"))
            #expect(written.lowerBound < stopped.lowerBound)
            ui.close()
            monitor.close()
            #expect(SchemaValidator.validate([
                Paths.transcripts.appendingPathComponent("sigterm-complete-ui.jsonl"),
                Paths.transcripts.appendingPathComponent("sigterm-complete-monitor.jsonl"),
            ]).status == 0)

            // A restart on the same state finds the record intact, and leaves it untouched.
            let directory = agent.stateDirectory.appendingPathComponent("records/\(record)")
            let before = try RecordSnapshot(directory)
            #expect(try ConsentctlVerify.run(directory.path) == 0)
            let restarted = try ConsentdProcess("sigterm-restart", stateDirectory: agent.stateDirectory)
            defer { restarted.removeFiles() }
            let again = try restarted.client()
            again.negotiate()
            let fetched = again.call("records.get", ["id": record])
            #expect(fetched.string("result.directory") == directory.path)
            #expect((fetched.array("result.files") as? [String])?.contains("manifest.sig") == true)
            restarted.finish()
            #expect(try RecordSnapshot(directory) == before)
            #expect(try ConsentctlVerify.run(directory.path) == 0)
        }

        /// A record written by an earlier version (Tests/Fixtures/golden-record, made by consentd 0.1.0) must stay
        /// readable and verifiable by every later one, and an agent starting on a state directory holding it must
        /// not touch it: the contract of "records survive an agent upgrade".
        @Test func aRecordOfAnEarlierVersionIsServedVerifiedAndLeftAlone() throws {
            let golden = Paths.root.appendingPathComponent("Tests/Fixtures/golden-record")
            let id = try #require(
                try FileManager.default.contentsOfDirectory(atPath: golden.appendingPathComponent("records").path).first)
            #expect(try ConsentctlVerify.run(golden.appendingPathComponent("records/\(id)").path,
                                             key: golden.appendingPathComponent("kiosk.pub").path) == 0)

            let state = URL(fileURLWithPath: "/tmp").appendingPathComponent("cdg-\(UUID().uuidString.prefix(8))")
            defer { try? FileManager.default.removeItem(at: state) }
            try FileManager.default.createDirectory(at: state, withIntermediateDirectories: true)
            try FileManager.default.copyItem(
                at: golden.appendingPathComponent("records"), to: state.appendingPathComponent("records"))
            let directory = state.appendingPathComponent("records/\(id)")
            let before = try RecordSnapshot(directory)

            let agent = try ConsentdProcess("golden", stateDirectory: state)
            let ui = try agent.client()
            ui.negotiate()
            let fetched = ui.call("records.get", ["id": id])
            #expect(fetched.string("result.directory") == directory.path)
            #expect(fetched.array("result.files")?.count == before.files.count)
            agent.finish()

            #expect(try RecordSnapshot(directory) == before, "startup and shutdown leave existing records alone")
            #expect(try ConsentctlVerify.run(directory.path) == 0)
        }
    }
}

/// Every file of a record: its bytes, mode and modification time.
struct RecordSnapshot: Equatable {
    struct File: Equatable {
        var data: Data
        var mode: Int
        var modified: Date
    }

    var files: [String: File]

    init(_ directory: URL) throws {
        var files: [String: File] = [:]
        for name in try FileManager.default.contentsOfDirectory(atPath: directory.path) {
            let path = directory.appendingPathComponent(name).path
            let attributes = try FileManager.default.attributesOfItem(atPath: path)
            files[name] = File(
                data: try Data(contentsOf: URL(fileURLWithPath: path)),
                mode: (attributes[.posixPermissions] as? NSNumber)?.intValue ?? -1,
                modified: attributes[.modificationDate] as? Date ?? .distantPast)
        }
        self.files = files
    }
}

/// `consentctl verify`, as an auditor runs it.
enum ConsentctlVerify {
    static func run(_ directory: String, key: String? = nil) throws -> Int32 {
        let process = Process()
        process.executableURL = Paths.consentd.deletingLastPathComponent().appendingPathComponent("consentctl")
        process.arguments = ["verify", directory] + (key.map { ["--key", $0] } ?? [])
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        return process.terminationStatus
    }
}
