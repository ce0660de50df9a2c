import Foundation
import Testing

extension ConsentdIntegration {
    @Suite struct ConsentFlow {
        @Test func completeConsentWithUIStrokesWritesTheRecord() throws {
            let agent = try ConsentdProcess("complete")
            let ui = try agent.client()
            ui.negotiate()
            #expect(ui.call("events.subscribe", ["topics": ["flow", "ink", "pad"]]).int("result.seq") == 0)
            #expect(ui.call("pads.list").array("result.pads")?.isEmpty == true)
            let flow = FlowDriver(ui)
            flow.toSignaturePage()

            #expect(flow.call("signature.begin").errorType == "NoPad")
            #expect(flow.call("signature.submit").errorType == "NoCapture")
            let short = flow.call("signature.submit", ["strokes": ["strokes": [[[0.5, 0.5, 0, 0.5]]]]])
            #expect(short.errorType == "SignatureTooShort")
            let outOfRange = flow.call("signature.submit", ["strokes": ["strokes": [[[1.5, 0.5, 0, 0.5]]]]])
            #expect(outOfRange.int("error.code") == -32602)
            #expect(outOfRange.string("error.data.field") == "strokes")
            // The reported defect: a UI recorded a finger-drawn signature as "Wacom STU-540 Pen". Refused,
            // naming the member and never echoing its value; the flow still waits for a signature.
            var claimed = FlowDriver.signature
            claimed["device"] = ["name": "Wacom STU-540 Pen", "kind": "pen"]
            let forged = flow.call("signature.submit", ["strokes": claimed])
            #expect(forged.int("error.code") == -32602)
            #expect(forged.string("error.data.field") == "strokes.device")
            #expect(!jsonLine(forged).contains("Wacom"))
            let signed = flow.call("signature.submit", ["strokes": FlowDriver.signature])
            #expect(signed.string("result.step") == "done")
            #expect(flow.call("flow.complete", ["bogus": true]).string("error.data.field") == "bogus")

            let completed = flow.call("flow.complete", ["location": ["country": "US", "state": "MA", "postalCode": "02115"]])
            #expect(completed.string("result.step") == "completed")
            let record = try #require(completed.string("result.record"))
            let directory = try #require(completed.string("result.directory"))
            let files = completed.array("result.files") as? [String] ?? []
            #expect(files == [
                "bundle.json", "consent.json", "consent.pdf", "contract.json", "manifest.json", "manifest.sig",
                "patient.json", "provenance.json", "questionnaire-response.json", "signature-participant.iso19794-7",
                "signature.json",
            ])
            #expect(directory.hasPrefix(agent.stateDirectory.path + "/records/"))

            // Durable and private: every file 0600, the strokes exactly as submitted.
            for file in files {
                let attributes = try FileManager.default.attributesOfItem(atPath: directory + "/" + file)
                #expect((attributes[.posixPermissions] as? NSNumber)?.intValue == 0o600, "\(file)")
            }
            let saved = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: directory + "/signature.json"))) as? JSONObject
            #expect((saved?["strokes"] as? [[Any]])?.map(\.count) == [12, 2])
            #expect(saved?["widthMM"] as? NSNumber == 120)
            // The agent states the provenance: drawn in the UI, by the connection's negotiated client.
            #expect(saved?[path: "device.source"] as? String == "ui")
            #expect(saved?[path: "device.client"] as? String == "integration-test/ui")
            #expect(!String(decoding: try Data(contentsOf: URL(fileURLWithPath: directory + "/signature.json")), as: UTF8.self).contains("Wacom"))

            // The record is signed by the kiosk's key and verifies as a whole, with the tool an auditor uses.
            let verify = Process()
            verify.executableURL = Paths.consentd.deletingLastPathComponent().appendingPathComponent("consentctl")
            verify.arguments = ["verify", directory]
            verify.standardOutput = FileHandle.nullDevice
            try verify.run()
            verify.waitUntilExit()
            #expect(verify.terminationStatus == 0)
            let pdf = try Data(contentsOf: URL(fileURLWithPath: directory + "/consent.pdf"))
            #expect(pdf.starts(with: Data("%PDF-".utf8)))

            let fetched = ui.call("records.get", ["id": record])
            #expect(fetched.string("result.directory") == directory)
            #expect(ui.call("records.get", ["id": "../etc"]).errorType == "UnknownRecord")
            #expect(flow.call("flow.next", ["step": "done"]).errorType == "FlowFinished")

            ui.call("session.sync")
            #expect(ui.takeEvents("flow.completed").first?.string("params.data.record") == record)
            // Wire events and logs never carry the name.
            #expect(!ui.events.contains { jsonLine($0).contains("Lovelace") })
            #expect(!agent.log.contains("Lovelace") && !agent.log.contains("Ada "))
            agent.finish(keepingState: true)
            defer { agent.removeFiles() }

            // The audit trail: the flow's events in order, a chain that verifies against the record's signed
            // head, and none of the participant's identifiers.
            let auditLog = try String(
                contentsOf: agent.stateDirectory.appendingPathComponent("audit/audit.log"), encoding: .utf8)
            #expect(!auditLog.contains("Lovelace") && !auditLog.contains("Ada"))
            let events = auditLog.split(separator: "\n").compactMap {
                (try? JSONSerialization.jsonObject(with: Data($0.utf8))) as? JSONObject
            }
            let flowID = try #require(completed.string("result.flow"))
            let ofFlow = events.filter { $0["flow"] as? String == flowID }.compactMap { event -> String? in
                guard let name = event["event"] as? String else { return nil }
                return name == "flow.step" ? "step:\(event["step"] as? String ?? "?")" : name
            }
            #expect(ofFlow.first == "flow.started")
            #expect(ofFlow.suffix(2) == ["record.written", "flow.completed"])
            for expected in ["flow.eligibility", "step:visual", "flow.sharing", "step:review.signature", "flow.signature", "step:done"] {
                #expect(ofFlow.contains(expected), "\(expected)")
            }
            #expect(events.last?["event"] as? String == "agent.stopped")
            let verifyAudit = Process()
            verifyAudit.executableURL = Paths.consentd.deletingLastPathComponent().appendingPathComponent("consentctl")
            verifyAudit.arguments = [
                "audit", "verify", "--state-dir", agent.stateDirectory.path,
                "--records", agent.stateDirectory.appendingPathComponent("records").path,
            ]
            verifyAudit.standardOutput = FileHandle.nullDevice
            try verifyAudit.run()
            verifyAudit.waitUntilExit()
            #expect(verifyAudit.terminationStatus == 0)
        }

        @Test func ineligibleEndsTheFlow() throws {
            let agent = try ConsentdProcess("ineligible")
            let ui = try agent.client()
            ui.negotiate()
            let flow = FlowDriver(ui)
            let partial = flow.call("eligibility.answer", ["answers": [true]])
            #expect(partial.string("result.view.eligibility.status") == "incomplete")
            #expect(flow.call("flow.next", ["step": "eligibility"]).errorType == "NotEligible")
            #expect(flow.call("eligibility.answer", ["answers": [true, true, true, true, true]]).errorType == "InvalidAnswers")
            let ineligible = flow.call("eligibility.answer", ["answers": [false]])
            #expect(ineligible.string("result.step") == "ineligible")
            #expect(ineligible.string("result.view.end.message") != nil)
            #expect(flow.call("flow.next", ["step": "eligibility"]).errorType == "FlowFinished")
            agent.finish()
        }

        @Test func disagreeAtReviewDeclines() throws {
            let agent = try ConsentdProcess("decline")
            let ui = try agent.client()
            ui.negotiate()
            ui.call("events.subscribe", ["topics": ["flow"]])
            let flow = FlowDriver(ui)
            flow.toSharing()
            flow.call("sharing.choose", ["shareWidely": false])
            flow.call("optional.answer", ["answers": ["future-research": true, "contact-other-studies": false]])
            let reply = flow.call("review.disagree")
            #expect(reply.string("result.step") == "declined")
            ui.call("session.sync")
            #expect(ui.takeEvents("flow.declined").first?.string("params.data.flow") == flow.flow)
            #expect(flow.call("flow.get").string("result.step") == "declined")
            agent.finish()
        }

        @Test func backAndNext() throws {
            let agent = try ConsentdProcess("backnext")
            let ui = try agent.client()
            ui.negotiate()
            let flow = FlowDriver(ui)
            flow.call("eligibility.answer", ["answers": FlowDriver.eligibleAnswers])
            // The sample study begins with its key information, then the scenes.
            let key = flow.call("flow.next", ["step": "eligibility"])
            #expect(key.string("result.step") == "keyInformation")
            #expect(key.string("result.view.title") == "Key information")
            #expect(key.string("result.view.keyInformation.html")?.contains("Alternatives:") == true)
            #expect(flow.call("flow.next", ["step": "visual"]).errorType == "StepMismatch")
            let first = flow.call("flow.next", ["step": "keyInformation"])
            #expect(first.string("result.step") == "visual")
            #expect(first.int("result.view.scene.index") == 0)
            let count = first.int("result.view.scene.count") ?? 0
            #expect(count >= 2)
            #expect(flow.call("flow.next", ["step": "visual"]).int("result.view.scene.index") == 1)
            #expect(flow.call("flow.back", ["step": "visual"]).int("result.view.scene.index") == 0)
            #expect(flow.call("flow.back", ["step": "visual"]).string("result.step") == "keyInformation")
            #expect(flow.call("flow.back", ["step": "keyInformation"]).string("result.step") == "eligibility")
            #expect(flow.call("flow.back", ["step": "eligibility"]).errorType == "InvalidAction")
            #expect(flow.call("flow.next", ["step": "eligibility"]).string("result.step") == "keyInformation")
            agent.finish()
        }

        @Test func actionForTheWrongStep() throws {
            let agent = try ConsentdProcess("wrongstep")
            let ui = try agent.client()
            ui.negotiate()
            let flow = FlowDriver(ui)
            let mismatch = flow.call("sharing.choose", ["shareWidely": true])
            #expect(mismatch.errorType == "StepMismatch")
            #expect(mismatch.int("error.code") == -32000)
            #expect(mismatch.string("error.data.step") == "eligibility")
            #expect(flow.call("flow.next", ["step": "visual"]).errorType == "StepMismatch")
            #expect(flow.call("review.agree").errorType == "StepMismatch")
            #expect(flow.call("flow.next", ["step": "nowhere"]).string("error.data.field") == "step")
            #expect(ui.call("flow.get", ["flow": "f-unknown"]).errorType == "UnknownFlow")
            // Refused actions changed nothing.
            #expect(flow.call("flow.get").string("result.step") == "eligibility")
            agent.finish()
        }

        @Test func idleFlowExpires() throws {
            let agent = try ConsentdProcess("expiry", arguments: ["--inactivity-timeout", "0.5"])
            let ui = try agent.client()
            ui.negotiate()
            ui.call("events.subscribe", ["topics": ["flow"]])
            let flow = FlowDriver(ui)
            usleep(1_500_000)
            ui.call("session.sync")
            #expect(ui.takeEvents("flow.expired").first?.string("params.data.flow") == flow.flow)
            #expect(flow.call("flow.get").string("result.step") == "expired")
            #expect(flow.call("eligibility.answer", ["answers": [true]]).errorType == "FlowExpired")
            agent.finish()
        }
    }
}
