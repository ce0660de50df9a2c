import Foundation
import IntegrationSupport
import Testing

extension ConsentdIntegration {
    /// `recordEncryption` together with `upload`. Records hold only envelopes for their recipient;
    /// the queue keeps a sealed copy of each Bundle (never plaintext), delivers it after a restart, and withdrawal
    /// and re-consent of encrypted records complete and upload too.
    @Suite struct EncryptedUpload {
        typealias PHI = ConsentdIntegration.PHI

        /// Every file under `folder` that contains a PHI needle.
        static func leaks(under folder: URL) -> [String] {
            var found: [String] = []
            let walker = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: nil)
            while let url = walker?.nextObject() as? URL {
                guard let data = fileBytes(url) else { continue }
                found += PHI.leaks(in: String(decoding: data, as: UTF8.self), url.path)
            }
            return found
        }

        static func files(_ folder: URL) -> [String] {
            ((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []).filter { !$0.hasPrefix(".") }.sorted()
        }

        static func config(_ url: URL, publicKey: URL, endpoint: String, backoff: Double) throws {
            let settings: JSONObject = [
                "recordEncryption": ["recipientPublicKey": publicKey.path, "keyId": "irb-upload"] as JSONObject,
                "upload": [
                    "endpoint": endpoint, "timeout_seconds": 5, "backoff_initial_seconds": backoff,
                    "backoff_max_seconds": max(backoff, 0.5), "backoff_jitter": 0,
                ] as JSONObject,
            ]
            try JSONSerialization.data(withJSONObject: settings).write(to: url)
        }

        /// Waits until the server received `count` requests and the queue (entries and payloads) is empty.
        static func waitForDelivery(_ received: URL, count: Int, queue: URL) -> Bool {
            for _ in 0..<150 {
                let requests = files(received).count
                let pending = files(queue).filter { $0.hasSuffix(".json") }
                let payloads = files(queue.appendingPathComponent("payloads"))
                if requests >= count, pending.isEmpty, payloads.isEmpty { return true }
                usleep(100_000)
            }
            return false
        }

        /// The Bundle the server received in request `number` (1-based).
        static func received(_ folder: URL, _ number: Int) throws -> JSONObject {
            let request = try #require(
                try JSONSerialization.jsonObject(with: Data(contentsOf: folder.appendingPathComponent(String(format: "%03d.json", number))))
                    as? JSONObject)
            let body = try #require(request["body"] as? String)
            return try #require(try JSONSerialization.jsonObject(with: Data(body.utf8)) as? JSONObject)
        }

        static func resource(_ type: String, in bundle: JSONObject) -> JSONObject? {
            (bundle["entry"] as? [JSONObject])?.compactMap { $0["resource"] as? JSONObject }.first { $0["resourceType"] as? String == type }
        }

        @Test func encryptedRecordsUploadAcrossARestartAndCanBeWithdrawnAndReconsented() throws {
            let work = URL(fileURLWithPath: "/tmp").appendingPathComponent("enc-upload-\(UUID().uuidString.prefix(8))")
            try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(at: work) }
            let privateKey = work.appendingPathComponent("recipient.key"), publicKey = work.appendingPathComponent("recipient.pem")
            #expect(try Tools.run("/usr/bin/openssl", ["genpkey", "-algorithm", "RSA", "-pkeyopt", "rsa_keygen_bits:2048", "-out", privateKey.path]).status == 0)
            #expect(try Tools.run("/usr/bin/openssl", ["pkey", "-in", privateKey.path, "-pubout", "-out", publicKey.path]).status == 0)

            // 1. Nothing listens (port 9): both records wait in the queue, sealed (retried every second; the
            // backoff is kept in the entries across the restart).
            let offline = work.appendingPathComponent("offline.json")
            try Self.config(offline, publicKey: publicKey, endpoint: "http://127.0.0.1:9/fhir", backoff: 1)
            let first = try ConsentdProcess("enc-upload-1", arguments: ["--config", offline.path])
            defer { first.removeFiles() }
            let ui = try first.client()
            ui.negotiate()
            let flow = FlowDriver(ui)
            flow.toSharing()
            flow.call("sharing.choose", ["shareWidely": true])
            flow.call("optional.answer", ["answers": ["future-research": true, "contact-other-studies": false]])
            flow.agree()
            flow.call("participant.setName", ["given": PHI.given, "family": PHI.family])
            #expect(flow.call("signature.submit", ["strokes": PHI.signature]).string("result.step") == "done")
            let completed = flow.call("flow.complete", ["patient": PHI.patient])
            let withdrawn = try #require(completed.string("result.record"), "log:\n\(first.log)")
            #expect((completed.array("result.files") as? [String])?.contains("bundle.json.enc") == true)
            let replaced = try LinkedRecords.consent(ui).id
            first.finish(keepingState: true)

            let state = first.stateDirectory
            let queue = state.appendingPathComponent("queue")
            let payloads = queue.appendingPathComponent("payloads")
            #expect(Self.files(payloads) == [withdrawn, replaced].sorted().map { $0 + ".bundle.sealed" })
            for entry in Self.files(queue).filter({ $0.hasSuffix(".json") }) {
                let object = try JSONSerialization.jsonObject(with: Data(contentsOf: queue.appendingPathComponent(entry))) as? JSONObject
                #expect(object?["sealedPayload"] as? Bool == true, "\(entry)")
            }
            #expect(!FileManager.default.fileExists(atPath: state.appendingPathComponent("records/\(withdrawn)/bundle.json").path))
            let keyMode = try FileManager.default.attributesOfItem(atPath: state.appendingPathComponent("keys/upload-payload.key").path)[.posixPermissions] as? Int
            #expect(keyMode == 0o600)
            let waiting = Self.leaks(under: state)
            #expect(waiting.isEmpty, "plaintext PHI on disk while records wait:\n\(waiting.joined(separator: "\n"))")

            // 2. Restarted against a server (with a changed study, for the re-consent): both are delivered as the
            // Bundles the kiosk signed, and their sealed copies are gone.
            let received = work.appendingPathComponent("received")
            let server = try FHIRTestServer(received: received, failFirst: 1, lifetime: 90)
            defer { server.stop() }
            let online = work.appendingPathComponent("online.json")
            try Self.config(online, publicKey: publicKey, endpoint: server.endpoint, backoff: 0.2)
            let study = try LinkedRecords.sampleCopy { folder in
                let url = folder.appendingPathComponent("withdrawing.html")
                let text = try String(contentsOf: url, encoding: .utf8)
                try (text + "<p>You may also ask us to delete your samples.</p>\n").write(to: url, atomically: true, encoding: .utf8)
            }
            defer { try? FileManager.default.removeItem(at: study) }
            let second = try ConsentdProcess(
                "enc-upload-2", arguments: ["--config", online.path, "--study", study.path], stateDirectory: state)
            #expect(Self.waitForDelivery(received, count: 3, queue: queue), "log:\n\(second.log)")
            let delivered = try Self.received(received, 2)
            #expect(Self.resource("Patient", in: delivered).map { PHI.leaks(in: jsonLine($0), "patient") }?.isEmpty == false,
                "the server got the real Bundle, with the participant's Patient")
            #expect(Self.resource("ResearchSubject", in: delivered)?["status"] as? String == "on-study")

            // 3. Withdrawal of the encrypted record: written encrypted, uploaded with the subject withdrawn.
            let kiosk = try second.client()
            kiosk.negotiate()
            let started = kiosk.call("flow.start", ["withdraw": withdrawn])
            #expect(started.string("result.step") == "withdrawal", "\(started)")
            let withdrawal = FlowDriver(kiosk, flow: started.string("result.flow") ?? "?")
            #expect(withdrawal.call("withdrawal.confirm").string("result.view.review.page") == "name")
            withdrawal.call("participant.setName", ["given": PHI.given, "family": PHI.family])
            let withdrawalRecord = withdrawal.signAndComplete()
            #expect((withdrawalRecord.array("result.files") as? [String])?.contains("consent.json.enc") == true)
            #expect(kiosk.call("records.get", ["id": withdrawn]).string("result.withdrawnBy") == withdrawalRecord.string("result.record"))
            #expect(Self.waitForDelivery(received, count: 4, queue: queue), "log:\n\(second.log)")
            let withdrawalBundle = try Self.received(received, 4)
            #expect(Self.resource("Consent", in: withdrawalBundle)?["status"] as? String == "inactive")
            let subject = Self.resource("ResearchSubject", in: withdrawalBundle)
            #expect(subject?["status"] as? String == "withdrawn")
            #expect(subject?[path: "identifier"].flatMap { ($0 as? [JSONObject])?.first?["value"] as? String } == withdrawn)

            // 4. Re-consent of the other encrypted record to the changed study: the same, on-study.
            let reconsent = kiosk.call("flow.start", ["previous": replaced])
            #expect(reconsent.string("result.step") == "changes", "\(reconsent)")
            let again = FlowDriver(kiosk, flow: reconsent.string("result.flow") ?? "?")
            #expect(again.call("flow.next", ["step": "changes"]).string("result.step") == "eligibility")
            again.toSignaturePage()
            let newRecord = try #require(again.signAndComplete().string("result.record"))
            #expect(kiosk.call("records.get", ["id": replaced]).array("result.replacedBy") as? [String] == [newRecord])
            #expect(Self.waitForDelivery(received, count: 5, queue: queue), "log:\n\(second.log)")
            let reconsentSubject = Self.resource("ResearchSubject", in: try Self.received(received, 5))
            #expect(reconsentSubject?["status"] as? String == "on-study")
            #expect((reconsentSubject?["identifier"] as? [JSONObject])?.first?["value"] as? String == replaced)

            // 5. Withdrawing the re-consent names the same subject: the first record of the chain, not the re-consent.
            let last = kiosk.call("flow.start", ["withdraw": newRecord])
            let lastWithdrawal = FlowDriver(kiosk, flow: last.string("result.flow") ?? "?")
            #expect(lastWithdrawal.call("withdrawal.confirm").string("result.view.review.page") == "name")
            lastWithdrawal.call("participant.setName", ["given": "Ada", "family": "Lovelace"])
            _ = lastWithdrawal.signAndComplete()
            #expect(Self.waitForDelivery(received, count: 6, queue: queue), "log:\n\(second.log)")
            let chainSubject = Self.resource("ResearchSubject", in: try Self.received(received, 6))
            #expect(chainSubject?["status"] as? String == "withdrawn")
            #expect((chainSubject?["identifier"] as? [JSONObject])?.first?["value"] as? String == replaced)
            second.finish(keepingState: true)

            // Nothing in plaintext on disk after all of it; the decrypted withdrawal verifies and its FHIR is valid.
            let after = Self.leaks(under: state)
            #expect(after.isEmpty, "\(after.joined(separator: "\n"))")
            let plain = work.appendingPathComponent("plain")
            let directory = state.appendingPathComponent("records/\(withdrawalRecord.string("result.record") ?? "?")")
            let decrypted = try Tools.run(Tools.consentctl, ["decrypt", "--key", privateKey.path, directory.path, "--out", plain.path])
            #expect(decrypted.status == 0, "\(decrypted.output)")
            try LinkedRecords.expectValid(plain)
        }
    }
}
