import Foundation
import IntegrationSupport
import Testing

extension ConsentdIntegration {
    /// No participant data in anything consentd writes besides the record itself, and none on disk
    /// in plaintext when records are encrypted.
    @Suite struct PHI {
        static let given = "Zebedee", family = "Quillfeather-Oyelaran"
        static let birthDate = "1931-07-04"
        static let passcode = "86420931"
        static let mrn = "MRN-77341-QX"
        static let phone = "+1-617-555-0142"
        static let street = "17 Wisteria Crescent"
        /// Stroke coordinates with seven digits no study text, hash or id is likely to contain.
        static let xs = [
            0.1357913, 0.1924687, 0.2468135, 0.2913579, 0.3579246, 0.4135792, 0.4682461, 0.5246813, 0.5791357,
            0.6357924, 0.6913572, 0.7468246,
        ]
        static let ys = [0.6183907, 0.3829461]

        /// What must never show up: the name and its parts, the birth date in two forms, the passcode, the other
        /// patient fields, and every stroke coordinate as Swift and JSON print it ("0.1357913": with the "0." no
        /// hex hash or base64 ciphertext can contain it by chance).
        static var needles: [String] {
            [given, family, "Quillfeather", "Oyelaran", birthDate, "19310704", passcode, mrn, phone, "555-0142",
             street, "Wisteria"]
                + (xs + ys).map { String(format: "%.7f", $0) }
        }

        static var signature: JSONObject {
            let points: [[Any]] = xs.enumerated().map { i, x in [x, ys[i % 2], Double(i) * 8, 0.5] }
            return ["strokes": [points], "widthMM": 120, "heightMM": 40]
        }

        static var patient: JSONObject {
            [
                "resourceType": "Patient", "gender": "female", "birthDate": birthDate,
                "name": [["given": [given], "family": family]],
                "identifier": [["system": "urn:oid:1.2.36.146.595.217.0.1", "value": mrn]],
                "telecom": [["system": "phone", "value": phone]],
                "address": [["line": [street], "city": "Boston", "state": "MA", "postalCode": "02115", "country": "US"]],
            ]
        }

        /// The bundled sample study, asking for a passcode too.
        static func studyWithPasscode(in directory: URL) throws -> URL {
            let sample = Paths.root.appendingPathComponent("Sources/SampleStudy/sample")
            let study = directory.appendingPathComponent("study")
            try FileManager.default.copyItem(at: sample, to: study)
            let options: JSONObject = ["askForSharing": true, "shareMoreInfoDocument": "Consent_sharing", "askToCreatePasscode": true]
            try JSONSerialization.data(withJSONObject: options).write(to: study.appendingPathComponent("options.json"))
            return study
        }

        /// Every finding of `needles` in `text`, named by where the text came from.
        static func leaks(in text: String, _ source: String) -> [String] {
            needles.filter { text.contains($0) }.map { "\(source) contains \"\($0)\"" }
        }

        /// Everything under the state directory but the records (audit log, queue, keys), as text.
        static func stateFiles(_ state: URL) -> [(String, String)] {
            guard let walker = FileManager.default.enumerator(at: state, includingPropertiesForKeys: [.isRegularFileKey]) else {
                return []
            }
            var files: [(String, String)] = []
            for case let url as URL in walker {
                let relative = String(url.path.dropFirst(state.path.count + 1))
                if relative.hasPrefix("records") {
                    walker.skipDescendants()
                    continue
                }
                guard (try? url.resourceValues(forKeys: [.isRegularFileKey]).isRegularFile) == true,
                    let data = fileBytes(url)
                else { continue }
                files.append((relative, String(decoding: data, as: UTF8.self)))
            }
            return files
        }

        /// Name, signature and passcode given, then `end` ends the flow.
        static func signedFlow(_ ui: SocatClient, sourceLocation: SourceLocation = #_sourceLocation) -> FlowDriver {
            let flow = FlowDriver(ui)
            flow.toSharing()
            flow.call("sharing.choose", ["shareWidely": false])
            flow.call("optional.answer", ["answers": ["future-research": true, "contact-other-studies": false]])
            flow.agree()
            #expect(flow.call("participant.setName", ["given": given, "family": family]).string("result.view.review.page") == "signature",
                sourceLocation: sourceLocation)
            #expect(flow.call("signature.submit", ["strokes": signature]).string("result.step") == "passcode", sourceLocation: sourceLocation)
            return flow
        }

        /// A full consent at trace level with an upload (one failed attempt, then delivered), a cancelled, a declined
        /// and an ineligible flow, and bad input carrying PHI; then a second agent logging in journal form, whose
        /// flow expires. Nothing consentd wrote outside the record holds any needle.
        @Test func logsOfEveryKindOfFlowHoldNoPHI() throws {
            let work = FileManager.default.temporaryDirectory.appendingPathComponent("phi-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(at: work) }
            let study = try Self.studyWithPasscode(in: work)

            let received = work.appendingPathComponent("received")
            let server = try FHIRTestServer(received: received, failFirst: 1, lifetime: 60)
            defer { server.stop() }
            let config = work.appendingPathComponent("config.json")
            let settings: JSONObject = [
                "logLevel": "trace",
                "upload": [
                    "endpoint": server.endpoint, "timeout_seconds": 5,
                    "backoff_initial_seconds": 0.2, "backoff_max_seconds": 0.5, "backoff_jitter": 0,
                ] as JSONObject,
            ]
            try JSONSerialization.data(withJSONObject: settings).write(to: config)

            // --log-level debug (ConsentdProcess's) would override the file: trace comes last and wins.
            let agent = try ConsentdProcess(
                "phi-logs", arguments: ["--config", config.path, "--study", study.path, "--log-level", "trace"])
            let ui = try agent.client()
            ui.negotiate()

            // Bad input with PHI in it: refused, never echoed into the log.
            ui.send(#"{"jsonrpc":"2.0","id":"x","method":"participant.setName","params":{"given":"\#(Self.given)","family":"\#(Self.family)""#)
            #expect(ui.next()?.errorType == "ParseError")
            ui.send(#"{"jsonrpc":"2.0","id":"y","method":"participant.setName","params":{"flow":"f-\#(Self.family)","given":"\#(Self.given)","family":"\#(Self.family)"}}"#)
            #expect(ui.next()?.errorType == "UnknownFlow")
            ui.call("events.subscribe", ["topics": ["flow", "ink", "pad"]])

            // The full consent, with the patient fields.
            let complete = Self.signedFlow(ui)
            #expect(complete.call("participant.setName", ["given": String(repeating: Self.family, count: 20), "family": "X"]).errorType != nil)
            #expect(complete.call("passcode.set", ["passcode": "12ab"]).errorType == "InvalidPasscode")
            #expect(complete.call("passcode.set", ["passcode": Self.passcode]).string("result.step") == "done")
            var badPatient = Self.patient
            badPatient["birthDate"] = "1931-13-45"
            #expect(complete.call("flow.complete", ["patient": badPatient]).errorType != nil)
            let completed = complete.call("flow.complete", ["patient": Self.patient])
            #expect(completed.string("result.step") == "completed")
            let directory = try #require(completed.string("result.directory"))
            let patientFile = try String(contentsOfFile: directory + "/patient.json", encoding: .utf8)
            #expect(patientFile.contains(Self.family) && patientFile.contains(Self.birthDate), "the needles are in the record")

            let cancelled = Self.signedFlow(ui)
            #expect(cancelled.call("flow.cancel").string("result.step") == "cancelled")
            let declined = Self.signedFlow(ui)
            #expect(declined.call("flow.decline").string("result.step") == "declined")
            let ineligible = FlowDriver(ui)
            #expect(ineligible.call("eligibility.answer", ["answers": [false]]).string("result.step") == "ineligible")
            for flow in [cancelled, declined] {
                let ended = flow.call("flow.get")
                #expect(!Self.needles.contains { jsonLine(ended).contains($0) }, "flow.get of an ended flow: \(jsonLine(ended))")
            }

            // The upload: a failed attempt (logged), then delivered.
            let queue = agent.stateDirectory.appendingPathComponent("queue")
            var delivered = false
            for _ in 0..<150 {
                let requests = (try? FileManager.default.contentsOfDirectory(atPath: received.path)) ?? []
                let pending = (try? FileManager.default.contentsOfDirectory(atPath: queue.path).filter { $0.hasSuffix(".json") }) ?? []
                if requests.count >= 2, pending.isEmpty { delivered = true; break }
                usleep(100_000)
            }
            #expect(delivered, "log:\n\(agent.log)")
            ui.call("session.sync")
            let events = ui.events.map { jsonLine($0) }.joined(separator: "\n")
            agent.finish(keepingState: true)
            defer { agent.removeFiles() }

            var leaks = Self.leaks(in: agent.log, "stderr") + Self.leaks(in: agent.output, "stdout")
                + Self.leaks(in: events, "the events sent to the UI")
            let state = Self.stateFiles(agent.stateDirectory)
            #expect(state.contains { $0.0 == "audit/audit.log" })
            for (name, text) in state { leaks += Self.leaks(in: text, name) }
            #expect(leaks.isEmpty, "\(leaks.joined(separator: "\n"))")
            // The scan saw a trace-level log of the whole run.
            #expect(agent.log.contains("debug") && agent.log.contains("record written") && agent.log.contains("record uploaded"))
            #expect(agent.log.contains("process is not dumpable"))

            // A flow that expires, logged in journal form (stderr as the journal stream).
            let journal = try ConsentdProcess(
                "phi-journal", arguments: ["--study", study.path, "--log-level", "trace", "--inactivity-timeout", "1"],
                environment: ["JOURNAL_STREAM": "logFileStream"])
            let kiosk = try journal.client()
            kiosk.negotiate()
            kiosk.call("events.subscribe", ["topics": ["flow"]])
            let flow = FlowDriver(kiosk)
            flow.toSharing()
            flow.call("sharing.choose", ["shareWidely": true])
            flow.call("optional.answer", ["answers": ["future-research": true, "contact-other-studies": false]])
            flow.agree()
            flow.call("participant.setName", ["given": Self.given, "family": Self.family])
            flow.call("signature.submit", ["strokes": Self.signature])
            usleep(2_500_000)
            kiosk.call("session.sync")
            #expect(kiosk.takeEvents("flow.expired").first?.string("params.data.flow") == flow.flow)
            let expired = flow.call("flow.get")
            #expect(expired.string("result.step") == "expired")
            let journalEvents = kiosk.events.map { jsonLine($0) }.joined(separator: "\n") + jsonLine(expired)
            journal.finish(keepingState: true)
            defer { journal.removeFiles() }
            #expect(journal.log.contains("<6>flow ended"), "journal-form lines:\n\(journal.log)")
            var journalLeaks = Self.leaks(in: journal.log, "journal stderr") + Self.leaks(in: journal.output, "journal stdout")
                + Self.leaks(in: journalEvents, "the events of the expired flow")
            for (name, text) in Self.stateFiles(journal.stateDirectory) { journalLeaks += Self.leaks(in: text, name) }
            #expect(journalLeaks.isEmpty, "\(journalLeaks.joined(separator: "\n"))")
        }

        /// With `recordEncryption`, a record consentd writes holds no plaintext PHI; it verifies without the key
        /// (manifest and envelopes) and with it (contents); `consentctl decrypt` restores files that verify and whose
        /// FHIR passes the independent validator; a wrong key is a clear error, exit 1, nothing written.
        @Test func encryptedRecordHoldsNoPlaintextAndDecrypts() throws {
            let work = FileManager.default.temporaryDirectory.appendingPathComponent("phi-enc-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(at: work) }
            let privateKey = work.appendingPathComponent("recipient.key"), publicKey = work.appendingPathComponent("recipient.pem")
            let wrongKey = work.appendingPathComponent("other.key")
            #expect(try Tools.run("/usr/bin/openssl", ["genpkey", "-algorithm", "RSA", "-pkeyopt", "rsa_keygen_bits:2048", "-out", privateKey.path]).status == 0)
            #expect(try Tools.run("/usr/bin/openssl", ["pkey", "-in", privateKey.path, "-pubout", "-out", publicKey.path]).status == 0)
            #expect(try Tools.run("/usr/bin/openssl", ["genrsa", "-out", wrongKey.path, "2048"]).status == 0)
            let config = work.appendingPathComponent("config.json")
            let settings: JSONObject = ["recordEncryption": ["recipientPublicKey": publicKey.path, "keyId": "irb-test"] as JSONObject]
            try JSONSerialization.data(withJSONObject: settings).write(to: config)

            let agent = try ConsentdProcess("phi-encrypted", arguments: ["--config", config.path])
            let ui = try agent.client()
            ui.negotiate()
            let flow = FlowDriver(ui)
            flow.toSharing()
            flow.call("sharing.choose", ["shareWidely": true])
            flow.call("optional.answer", ["answers": ["future-research": true, "contact-other-studies": false]])
            flow.agree()
            flow.call("participant.setName", ["given": Self.given, "family": Self.family])
            #expect(flow.call("signature.submit", ["strokes": Self.signature]).string("result.step") == "done")
            let completed = flow.call("flow.complete", ["patient": Self.patient])
            let directory = try #require(completed.string("result.directory"))
            let files = completed.array("result.files") as? [String] ?? []
            #expect(files == [
                "bundle.json.enc", "consent.json.enc", "consent.pdf.enc", "contract.json.enc", "manifest.json", "manifest.sig",
                "patient.json.enc", "provenance.json.enc", "questionnaire-response.json.enc", "signature-participant.iso19794-7.enc",
                "signature.json.enc",
            ])
            agent.finish(keepingState: true)
            defer { agent.removeFiles() }

            // Nothing on disk in plaintext: every file of the state directory, the record's included.
            var leaks: [String] = []
            let walker = FileManager.default.enumerator(at: agent.stateDirectory, includingPropertiesForKeys: nil)
            var scanned = 0
            while let url = walker?.nextObject() as? URL {
                guard let data = fileBytes(url) else { continue }
                scanned += 1
                leaks += Self.leaks(in: String(decoding: data, as: UTF8.self), url.lastPathComponent)
            }
            #expect(scanned >= 11)
            #expect(leaks.isEmpty, "\(leaks.joined(separator: "\n"))")
            for file in files {
                let attributes = try FileManager.default.attributesOfItem(atPath: directory + "/" + file)
                #expect((attributes[.posixPermissions] as? NSNumber)?.intValue == 0o600, "\(file)")
            }

            let consentctl = Paths.consentd.deletingLastPathComponent().appendingPathComponent("consentctl").path
            let sealed = try Tools.run(consentctl, ["verify", directory])
            #expect(sealed.status == 0, "\(sealed.output)")
            #expect(sealed.output.contains("pass --private-key"))
            let opened = try Tools.run(consentctl, ["verify", directory, "--private-key", privateKey.path])
            #expect(opened.status == 0, "\(opened.output)")
            #expect(opened.output.contains("the contents match too"))
            let wrongVerify = try Tools.run(consentctl, ["verify", directory, "--private-key", wrongKey.path])
            #expect(wrongVerify.status == 2 && wrongVerify.output.contains("MISMATCH patient.json.enc"), "\(wrongVerify.output)")

            let wrongOut = work.appendingPathComponent("wrong")
            let wrong = try Tools.run(consentctl, ["decrypt", "--key", wrongKey.path, directory, "--out", wrongOut.path])
            #expect(wrong.status == 1)
            #expect(wrong.output.contains("does not open with this private key"), "\(wrong.output)")
            #expect(!FileManager.default.fileExists(atPath: wrongOut.path))

            let plain = work.appendingPathComponent("plain")
            let decrypted = try Tools.run(consentctl, ["decrypt", "--key", privateKey.path, directory, "--out", plain.path])
            #expect(decrypted.status == 0, "\(decrypted.output)")
            let names = try FileManager.default.contentsOfDirectory(atPath: plain.path).sorted()
            #expect(names == [
                "bundle.json", "consent.json", "consent.pdf", "contract.json", "manifest.json", "manifest.sig", "patient.json",
                "provenance.json", "questionnaire-response.json", "signature-participant.iso19794-7", "signature.json",
            ])
            for name in names {
                let attributes = try FileManager.default.attributesOfItem(atPath: plain.path + "/" + name)
                #expect((attributes[.posixPermissions] as? NSNumber)?.intValue == 0o600, "\(name)")
            }
            let patient = try String(contentsOf: plain.appendingPathComponent("patient.json"), encoding: .utf8)
            #expect(patient.contains(Self.family) && patient.contains(Self.birthDate))
            let verified = try Tools.run(consentctl, ["verify", plain.path])
            #expect(verified.status == 0, "\(verified.output)")
            let again = try Tools.run(consentctl, ["decrypt", "--key", privateKey.path, directory, "--out", plain.path])
            #expect(again.status == 1, "never over an existing directory")

            // The independent FHIR validator (fhir.resources) the signing tests use.
            let fhir = ["bundle.json", "consent.json", "contract.json", "patient.json", "provenance.json"].map { plain.path + "/" + $0 }
            let validation = try Tools.run(
                Paths.validatorPython.path, [Paths.root.appendingPathComponent("Tests/ConsentSigningTests/validate_fhir.py").path] + fhir)
            #expect(validation.status == 0, "\(validation.output)")
        }

        /// With `biometricEscrow` the strokes and the 19794-7 data are nowhere in plaintext (no
        /// stroke coordinate in any file of the state directory), the record verifies, and only the escrow key's
        /// holder gets them back with `consentctl escrow open`.
        @Test func escrowedBiometricsAreOnlySealedAndOpenForTheExaminer() throws {
            let work = FileManager.default.temporaryDirectory.appendingPathComponent("phi-escrow-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(at: work) }
            let privateKey = work.appendingPathComponent("escrow.key"), publicKey = work.appendingPathComponent("escrow.pem")
            #expect(try Tools.run("/usr/bin/openssl", ["genpkey", "-algorithm", "RSA", "-pkeyopt", "rsa_keygen_bits:2048", "-out", privateKey.path]).status == 0)
            #expect(try Tools.run("/usr/bin/openssl", ["pkey", "-in", privateKey.path, "-pubout", "-out", publicKey.path]).status == 0)
            let config = work.appendingPathComponent("config.json")
            let settings: JSONObject = ["biometricEscrow": ["recipientPublicKey": publicKey.path, "keyId": "notary-test"] as JSONObject]
            try JSONSerialization.data(withJSONObject: settings).write(to: config)

            let agent = try ConsentdProcess("phi-escrow", arguments: ["--config", config.path])
            let ui = try agent.client()
            ui.negotiate()
            let flow = FlowDriver(ui)
            flow.toSharing()
            flow.call("sharing.choose", ["shareWidely": true])
            flow.call("optional.answer", ["answers": ["future-research": true, "contact-other-studies": false]])
            flow.agree()
            flow.call("participant.setName", ["given": Self.given, "family": Self.family])
            #expect(flow.call("signature.submit", ["strokes": Self.signature]).string("result.step") == "done")
            let completed = flow.call("flow.complete", ["patient": Self.patient])
            let directory = try #require(completed.string("result.directory"))
            let files = completed.array("result.files") as? [String] ?? []
            #expect(files == [
                "bundle.json", "consent.json", "consent.pdf", "contract.json", "manifest.json", "manifest.sig", "patient.json",
                "provenance.json", "questionnaire-response.json", "signature-participant.iso19794-7.escrow",
                "signature.json.escrow",
            ])
            agent.finish(keepingState: true)
            defer { agent.removeFiles() }

            let coordinates = (Self.xs + Self.ys).map { String(format: "%.7f", $0) }
            let walker = FileManager.default.enumerator(at: agent.stateDirectory, includingPropertiesForKeys: nil)
            while let url = walker?.nextObject() as? URL {
                guard let data = fileBytes(url) else { continue }
                let text = String(decoding: data, as: UTF8.self)
                for needle in coordinates { #expect(!text.contains(needle), "\(url.lastPathComponent) holds a stroke coordinate") }
            }

            let consentctl = Paths.consentd.deletingLastPathComponent().appendingPathComponent("consentctl").path
            let verified = try Tools.run(consentctl, ["verify", directory])
            #expect(verified.status == 0, "\(verified.output)")
            #expect(verified.output.contains("SIGNATURE participant: intact"))
            let out = work.appendingPathComponent("examiner")
            let opened = try Tools.run(consentctl, ["escrow", "open", directory, "--key", privateKey.path, "--out", out.path])
            #expect(opened.status == 0, "\(opened.output)")
            let strokes = try String(contentsOf: out.appendingPathComponent("signature.json"), encoding: .utf8)
            #expect(strokes.contains(coordinates[0]))
            #expect(FileManager.default.fileExists(atPath: out.appendingPathComponent("signature-participant.iso19794-7").path))
        }

        /// A config that would need the plaintext Bundle at rest, or a key that is not there, stops consentd.
        @Test func unusableEncryptionSettingsStopTheAgent() throws {
            let work = FileManager.default.temporaryDirectory.appendingPathComponent("phi-bad-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(at: work) }
            let cases: [(JSONObject, String)] = [
                (["recordEncryption": ["recipientPublicKey": work.appendingPathComponent("missing.pem").path] as JSONObject],
                 "recordEncryption.recipientPublicKey"),
                (["recordEncryption": ["recipientPublicKey": "/etc/hostname", "keyId": "k"] as JSONObject,
                  "upload": ["endpoint": "http://127.0.0.1:9/fhir"] as JSONObject], "recordEncryption.recipientPublicKey"),
            ]
            for (index, (settings, message)) in cases.enumerated() {
                let config = work.appendingPathComponent("config-\(index).json")
                try JSONSerialization.data(withJSONObject: settings).write(to: config)
                let result = try Tools.run(
                    Paths.consentd.path,
                    ["--config", config.path, "--socket", work.appendingPathComponent("s.sock").path, "--state-dir", work.appendingPathComponent("state").path])
                #expect(result.status != 0)
                #expect(result.output.contains(message), "\(result.output)")
            }
        }
    }
}
