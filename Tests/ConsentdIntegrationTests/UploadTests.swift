import Foundation
import Testing

extension ConsentdIntegration {
    /// A completed consent reaches the configured FHIR endpoint as its transaction Bundle, after a failed first
    /// attempt, and its queue entry is gone only once the server acknowledged it.
    @Suite struct Upload {
        @Test func completedRecordIsUploadedAfterARetry() throws {
            let received = FileManager.default.temporaryDirectory.appendingPathComponent("fhir-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: received, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(at: received) }
            let server = Process()
            server.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
            server.arguments = [
                Paths.root.appendingPathComponent("Tests/ConsentdIntegrationTests/fhir_server.py").path,
                "--out", received.path, "--fail-first", "1", "--lifetime", "30",
            ]
            let portPipe = Pipe()
            server.standardOutput = portPipe
            try server.run()
            defer { server.terminate() }
            let portLine = String(decoding: portPipe.fileHandleForReading.availableData, as: UTF8.self)
            let port = try #require(Int(portLine.trimmingCharacters(in: .whitespacesAndNewlines)))

            let config = FileManager.default.temporaryDirectory.appendingPathComponent("consentd-upload-\(UUID().uuidString).json")
            defer { try? FileManager.default.removeItem(at: config) }
            let settings: JSONObject = [
                "upload": [
                    "endpoint": "http://127.0.0.1:\(port)/fhir", "timeout_seconds": 5,
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
    }
}
