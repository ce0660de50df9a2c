import Foundation
import Testing

extension ConsentdIntegration {
    /// A completed consent reaches the configured FHIR endpoint as its transaction Bundle, after a failed first
    /// attempt, and its queue entry is gone only once the server acknowledged it.
    @Suite struct Upload {
        @Test func completedRecordIsUploadedAfterARetry() throws {
            let received = FileManager.default.temporaryDirectory.appendingPathComponent("fhir-\(UUID().uuidString)")
            defer { try? FileManager.default.removeItem(at: received) }
            let server = try FHIRTestServer(received: received, failFirst: 1, lifetime: 30)
            defer { server.stop() }
            let config = FileManager.default.temporaryDirectory.appendingPathComponent("consentd-upload-\(UUID().uuidString).json")
            defer { try? FileManager.default.removeItem(at: config) }
            let settings: JSONObject = [
                "upload": [
                    "endpoint": server.endpoint, "timeout_seconds": 5,
                    "backoff_initial_seconds": 0.2, "backoff_max_seconds": 0.5, "backoff_jitter": 0,
                ] as JSONObject
            ]
            try JSONSerialization.data(withJSONObject: settings).write(to: config)
            let agent = try ConsentdProcess("upload", arguments: ["--config", config.path])
            let ui = try agent.client()
            ui.negotiate()
            let flow = FlowDriver(ui)
            flow.toSignaturePage()
            #expect(flow.call("signature.submit", ["strokes": FlowDriver.signature]).string("result.step") == "done")
            let completed = flow.call("flow.complete")
            let record = try #require(completed.string("result.record"))

            // Delivered in the background: a 503, a retry after the backoff, then the acknowledgment.
            let queue = agent.stateDirectory.appendingPathComponent("queue")
            var delivered = false
            for _ in 0..<100 {
                let requests = (try? FileManager.default.contentsOfDirectory(atPath: received.path)) ?? []
                let pending = (try? FileManager.default.contentsOfDirectory(atPath: queue.path).filter { $0.hasSuffix(".json") }) ?? []
                if requests.count >= 2, pending.isEmpty { delivered = true; break }
                usleep(100_000)
            }
            #expect(delivered, "log:\n\(agent.log)")
            let second = try JSONSerialization.jsonObject(with: Data(contentsOf: received.appendingPathComponent("002.json"))) as? JSONObject
            #expect(second?["path"] as? String == "/fhir")
            #expect(second?["contentType"] as? String == "application/fhir+json; charset=utf-8")
            let bundle = try #require((second?["body"] as? String).flatMap { try JSONSerialization.jsonObject(with: Data($0.utf8)) as? JSONObject })
            #expect(bundle["type"] as? String == "transaction")
            let onDisk = try Data(contentsOf: URL(fileURLWithPath: try #require(completed.string("result.directory")) + "/bundle.json"))
            #expect((second?["body"] as? String).map { Data($0.utf8) } == onDisk)
            agent.finish(keepingState: true)
            defer { agent.removeFiles() }
            let audit = try String(contentsOf: agent.stateDirectory.appendingPathComponent("audit/audit.log"), encoding: .utf8)
            #expect(audit.contains("\"event\":\"record.uploaded\"") && audit.contains(record))
        }

        /// A stop between the record's rename and its queue entry (a kill -9 there) must not lose the upload: the
        /// completion journal still names the record, and the next start queues it. The state after such a kill is
        /// made directly: a record written by one agent, then the journal entry the kill would have left.
        @Test func aRecordKeptByAnInterruptedCompletionIsQueuedAtTheNextStart() throws {
            let first = try ConsentdProcess("upload-recovery-write")
            let ui = try first.client()
            ui.negotiate()
            let flow = FlowDriver(ui)
            flow.toSignaturePage()
            #expect(flow.call("signature.submit", ["strokes": FlowDriver.signature]).string("result.step") == "done")
            let record = try #require(flow.call("flow.complete").string("result.record"))
            first.finish(keepingState: true)
            defer { first.removeFiles() }
            let completing = first.stateDirectory.appendingPathComponent("completing")
            try FileManager.default.createDirectory(at: completing, withIntermediateDirectories: true)
            let interruptedFlow = "f-\(UUID().uuidString.lowercased())"
            try Data(record.utf8).write(to: completing.appendingPathComponent(interruptedFlow))

            // Nothing listens on port 9 (discard): the entry stays queued, retrying.
            let config = FileManager.default.temporaryDirectory.appendingPathComponent("consentd-upload-\(UUID().uuidString).json")
            defer { try? FileManager.default.removeItem(at: config) }
            let settings: JSONObject = [
                "upload": ["endpoint": "http://127.0.0.1:9/fhir", "backoff_initial_seconds": 30] as JSONObject
            ]
            try JSONSerialization.data(withJSONObject: settings).write(to: config)
            let second = try ConsentdProcess(
                "upload-recovery-queue", arguments: ["--config", config.path], stateDirectory: first.stateDirectory)
            let queue = first.stateDirectory.appendingPathComponent("queue")
            let queued = ((try? FileManager.default.contentsOfDirectory(atPath: queue.path)) ?? []).filter {
                $0.hasSuffix("-\(record).json")
            }
            #expect(queued.count == 1, "the kept record is queued once; queue: \(queued); log:\n\(second.log)")
            #expect(second.log.contains("queued the record of an interrupted completion"))
            second.finish(keepingState: true)
            let audit = try String(contentsOf: first.stateDirectory.appendingPathComponent("audit/audit.log"), encoding: .utf8)
            #expect(audit.split(separator: "\n").contains {
                $0.contains(#""event":"flow.interrupted""#) && $0.contains(#""outcome":"record_kept""#)
                    && $0.contains(interruptedFlow) && $0.contains(record)
            })

            // The same entry again (a second kill in the same window): the record is queued already, not twice.
            try Data(record.utf8).write(to: completing.appendingPathComponent(interruptedFlow))
            let third = try ConsentdProcess(
                "upload-recovery-again", arguments: ["--config", config.path], stateDirectory: first.stateDirectory)
            third.finish(keepingState: true)
            let after = ((try? FileManager.default.contentsOfDirectory(atPath: queue.path)) ?? []).filter {
                $0.hasSuffix("-\(record).json")
            }
            #expect(after.count == 1, "queued once, not twice: \(after)")
        }
    }
}
