import Foundation
import Testing

extension ConsentdIntegration {
    /// A change of a consent's answers to the optional elements without withdrawing (`flow.start {change}`), end
    /// to end: consentd over its socket, the records checked with consentctl verify and the FHIR validator, the
    /// upload queue's payload read from the state directory.
    @Suite struct Change {
        /// The sample study with a passcode asked, and an upload endpoint nothing listens on (port 9, discard): the
        /// entries stay queued, so what the queue would send can be read.
        static func agent(_ name: String) throws -> (agent: ConsentdProcess, cleanup: () -> Void) {
            let study = try LinkedRecords.sampleCopy { folder in
                let url = folder.appendingPathComponent("options.json")
                var options = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: url)) as? JSONObject)
                options["askToCreatePasscode"] = true
                try JSONSerialization.data(withJSONObject: options).write(to: url)
            }
            let config = FileManager.default.temporaryDirectory.appendingPathComponent("consentd-change-\(UUID().uuidString).json")
            let settings: JSONObject = [
                "upload": ["endpoint": "http://127.0.0.1:9/fhir", "backoff_initial_seconds": 30] as JSONObject
            ]
            try JSONSerialization.data(withJSONObject: settings).write(to: config)
            let agent = try ConsentdProcess(name, arguments: ["--study", study.path, "--config", config.path])
            return (agent, {
                try? FileManager.default.removeItem(at: study)
                try? FileManager.default.removeItem(at: config)
            })
        }

        static func provisions(_ consent: JSONObject) -> [String: String] {
            var types: [String: String] = [:]
            for nested in consent[path: "provision.provision"] as? [JSONObject] ?? [] {
                if let id = nested["id"] as? String, id.hasPrefix("optional-") { types[id] = nested["type"] as? String }
            }
            return types
        }

        @Test func changeOneAnswerWithThePasscode() throws {
            let (agent, cleanup) = try Self.agent("change")
            defer { cleanup() }
            let ui = try agent.client()
            ui.negotiate()
            // Answered future-research yes, contact-other-studies no (`toSignaturePage`).
            let original = try LinkedRecords.consent(ui, passcode: "2468")
            let before = try LinkedRecords.contents(original.directory)
            #expect(Self.provisions(try LinkedRecords.json(original.directory, "consent.json")) == [
                "optional-future-research": "permit", "optional-contact-other-studies": "deny",
            ])

            #expect(ui.call("flow.start", ["change": original.id]).errorType == "PasscodeRequired")
            #expect(ui.call("flow.start", ["change": original.id, "withdraw": original.id]).string("error.data.field") == "change")
            #expect(ui.call("flow.start", ["change": "00000000-0000-4000-8000-000000000000"]).errorType == "UnknownRecord")

            let started = ui.call("flow.start", ["change": original.id, "passcode": "2468"])
            #expect(started.string("result.step") == "optional")
            #expect(started.string("result.amends") == original.id)
            #expect(started.string("result.view.optional.amends") == original.id)
            let elements = try #require(started.array("result.view.optional.elements") as? [JSONObject])
            #expect(elements.map { $0["id"] as? String } == ["future-research", "contact-other-studies"])
            #expect(elements.map { $0["answer"] as? Bool } == [true, false])
            // Nothing changed yet: nothing to go on with, nothing to decline; the same answers again are refused.
            let actions = started.array("result.view.actions") as? [String] ?? []
            #expect(actions.contains("optionalAnswer") && actions.contains("cancel"))
            #expect(!actions.contains("next") && !actions.contains("decline") && !actions.contains("back"))
            let flow = FlowDriver(ui, flow: try #require(started.string("result.flow")))
            // A second change of the same record, started before the first is kept (another kiosk page).
            let rival = FlowDriver(
                ui, flow: try #require(ui.call("flow.start", ["change": original.id, "passcode": "2468"]).string("result.flow")))
            #expect(flow.call("flow.next", ["step": "optional"]).errorType == "InvalidAction")
            #expect(flow.call("optional.answer", ["answers": ["future-research": true]]).errorType == "InvalidAnswers")
            #expect(flow.call("optional.answer", ["answers": ["elsewhere": true]]).errorType == "InvalidAnswers")

            // One answer changed: on to the name and signature, no passcode step (the record's PIN is kept).
            let changed = flow.call("optional.answer", ["answers": ["contact-other-studies": true]])
            #expect(changed.string("result.step") == "reviewStep")
            #expect(changed.string("result.view.review.page") == "name")
            let back = flow.call("flow.back", ["step": "reviewStep"])
            #expect(back.string("result.step") == "optional")
            #expect((back.array("result.view.optional.elements") as? [JSONObject])?.map { $0["answer"] as? Bool } == [true, true])
            #expect(flow.call("flow.next", ["step": "optional"]).string("result.view.review.page") == "name")
            #expect(flow.call("participant.setName", ["given": "Ada", "family": "Lovelace"]).string("result.view.review.page") == "signature")
            let completed = flow.signAndComplete()
            let change = try #require(completed.string("result.record"))
            let directory = URL(fileURLWithPath: try #require(completed.string("result.directory")))

            // The new record: valid, active, every answer as it now stands, amending the original.
            try LinkedRecords.expectValid(directory)
            let manifest = try LinkedRecords.json(directory, "manifest.json")
            #expect(manifest["amends"] as? String == original.id)
            #expect(manifest["withdraws"] == nil && manifest["previousRecord"] == nil)
            #expect(manifest["passcode"] != nil)
            #expect((manifest["optionalElements"] as? [JSONObject])?.map { $0["permitted"] as? Bool } == [true, true])
            let consent = try LinkedRecords.json(directory, "consent.json")
            #expect(consent["status"] as? String == "active")
            #expect(Self.provisions(consent) == ["optional-future-research": "permit", "optional-contact-other-studies": "permit"])
            #expect(try LinkedRecords.json(directory, "contract.json")["status"] as? String == "executed")
            #expect(LinkedRecords.linkRoles(try LinkedRecords.json(directory, "provenance.json")) == ["revision", "revision"])
            #expect(
                try LinkedRecords.json(directory, "patient.json")["id"] as? String
                    == LinkedRecords.json(original.directory, "patient.json")["id"] as? String)
            #expect(try LinkedRecords.contents(original.directory) == before)

            // Linked from both sides, like a withdrawal.
            let earlier = ui.call("records.get", ["id": original.id])
            #expect(earlier.string("result.amendedBy") == change)
            #expect(earlier.string("result.kind") == "consent")
            let later = ui.call("records.get", ["id": change])
            #expect(later.string("result.kind") == "change")
            #expect(later.string("result.amends") == original.id)

            // The upload queue sends the change's Bundle: its Consent, and the original's again, inactive.
            let queue = agent.stateDirectory.appendingPathComponent("queue")
            let queued = ((try? FileManager.default.contentsOfDirectory(atPath: queue.path)) ?? []).filter { $0.hasSuffix(".json") }
            #expect(queued.contains { $0.hasSuffix("-\(change).json") }, "queue: \(queued)")
            let bundle = try LinkedRecords.json(directory, "bundle.json")
            let entries = bundle["entry"] as? [JSONObject] ?? []
            let consents = entries.filter { $0[path: "resource.resourceType"] as? String == "Consent" }
            #expect(consents.count == 2)
            let resent = try #require(consents.first { $0[path: "request.method"] as? String == "PUT" })
            #expect(resent[path: "request.url"] as? String == "Consent?identifier=urn:consent-kiosk:record-id|\(original.id)")
            #expect(resent[path: "resource.status"] as? String == "inactive")
            #expect(resent[path: "resource.identifier.0.value"] as? String == original.id)
            #expect(Self.provisions(try #require(resent["resource"] as? JSONObject)) == [
                "optional-future-research": "permit", "optional-contact-other-studies": "deny",
            ])
            let posted = try #require(consents.first { $0[path: "request.method"] as? String == "POST" })
            #expect(posted[path: "resource.status"] as? String == "active")
            #expect(posted[path: "resource.identifier.0.value"] as? String == change)

            // The rival change is refused when it is completed: its answers start from a record that no longer
            // stands; the flow is given back, to be cancelled.
            rival.call("optional.answer", ["answers": ["future-research": false]])
            rival.call("participant.setName", ["given": "Ada", "family": "Lovelace"])
            #expect(rival.call("signature.submit", ["strokes": FlowDriver.signature]).string("result.step") == "done")
            #expect(rival.call("flow.complete").errorType == "AlreadyAmended")
            #expect(rival.call("flow.cancel").string("result.step") == "cancelled")

            // Changed once: the later record is the one to change; a withdrawal of it needs the same PIN.
            #expect(ui.call("flow.start", ["change": original.id, "passcode": "2468"]).errorType == "AlreadyAmended")
            #expect(ui.call("flow.start", ["withdraw": original.id, "passcode": "2468"]).errorType == "AlreadyAmended")
            #expect(ui.call("flow.start", ["previous": original.id]).errorType == "AlreadyAmended")
            #expect(ui.call("flow.start", ["withdraw": change]).errorType == "PasscodeRequired")
            let again = ui.call("flow.start", ["change": change, "passcode": "2468"])
            #expect((again.array("result.view.optional.elements") as? [JSONObject])?.map { $0["answer"] as? Bool } == [true, true])
            ui.call("flow.cancel", ["flow": try #require(again.string("result.flow"))])

            #expect(!agent.logShows("2468") && !agent.log.contains("Lovelace"))
            agent.finish(keepingState: true)
            defer { agent.removeFiles() }
            // The audit trail names the change's original, once (the rival's refused completion is not a change).
            let audit = try String(contentsOf: agent.stateDirectory.appendingPathComponent("audit/audit.log"), encoding: .utf8)
            let amended = audit.split(separator: "\n").compactMap { parseJSON(String($0)) }.filter {
                $0["event"] as? String == "record.amended"
            }
            #expect(amended.map { $0["record"] as? String } == [original.id])
            #expect(amended.first?["outcome"] as? String == "amended")
            #expect(!audit.contains("Lovelace"))
        }

        /// Two changes of one record completed at the same moment from two kiosk pages: one is kept, the other is
        /// refused (a change being written claims the record, as a withdrawal does), and the record has one change.
        @Test func twoChangesOfOneRecordCompletedAtOnceKeepOne() throws {
            let (agent, cleanup) = try Self.agent("change-race")
            defer { cleanup() }
            let ui = try agent.client()
            ui.negotiate()
            let original = try LinkedRecords.consent(ui, passcode: "2468")
            var flows: [FlowDriver] = []
            for number in 0..<2 {
                let page = try agent.client("page-\(number)")
                page.negotiate()
                let started = page.call("flow.start", ["change": original.id, "passcode": "2468"])
                let flow = FlowDriver(page, flow: try #require(started.string("result.flow")))
                flow.call("optional.answer", ["answers": ["future-research": false]])
                flow.call("participant.setName", ["given": "Ada", "family": "Lovelace"])
                #expect(flow.call("signature.submit", ["strokes": FlowDriver.signature]).string("result.step") == "done")
                flows.append(flow)
            }
            for flow in flows {
                flow.client.send(jsonLine(["jsonrpc": "2.0", "id": "complete", "method": "flow.complete", "params": ["flow": flow.flow]]))
            }
            let replies = flows.map { $0.client.reply(to: "complete") }
            let kept = replies.compactMap { $0.string("result.record") }
            #expect(kept.count == 1, "\(replies)")
            #expect(replies.compactMap(\.errorType) == ["AlreadyAmended"], "\(replies)")
            #expect(ui.call("records.get", ["id": original.id]).string("result.amendedBy") == kept.first)
            let records = try FileManager.default.contentsOfDirectory(
                atPath: agent.stateDirectory.appendingPathComponent("records").path)
            #expect(records.filter { UUID(uuidString: $0) != nil }.count == 2, "the original and one change: \(records)")
            agent.finish()
        }

        /// A wrong PIN is refused and counted with the withdrawal's: five in a row lock the record for either.
        @Test func aWrongPasscodeIsRefusedAndCounted() throws {
            let (agent, cleanup) = try Self.agent("change-pin")
            defer { cleanup() }
            let ui = try agent.client()
            ui.negotiate()
            let original = try LinkedRecords.consent(ui, passcode: "2468")
            let refused = ui.call("flow.start", ["change": original.id, "passcode": "1111"])
            #expect(refused.errorType == "WrongPasscode")
            #expect(refused.string("error.message")?.contains("1111") == false)
            for attempt in 2...5 {
                #expect(ui.call("flow.start", ["withdraw": original.id, "passcode": "000\(attempt)"]).errorType == "WrongPasscode")
            }
            #expect(ui.call("flow.start", ["change": original.id, "passcode": "2468"]).errorType == "PasscodeLocked")
            #expect(!agent.logShows("2468") && !agent.logShows("1111"))
            agent.finish()
        }

        /// A record withdrawn, and a study without optional elements, are refused with their own errors, named in
        /// every language's texts.
        @Test func withdrawnRecordsAndStudiesWithoutOptionalElementsAreRefused() throws {
            let agent = try ConsentdProcess("change-refused")
            let ui = try agent.client()
            ui.negotiate()
            let original = try LinkedRecords.consent(ui)
            let withdrawal = FlowDriver(ui, flow: try #require(ui.call("flow.start", ["withdraw": original.id]).string("result.flow")))
            withdrawal.call("withdrawal.confirm")
            withdrawal.call("participant.setName", ["given": "Ada", "family": "Lovelace"])
            let withdrawn = try #require(withdrawal.signAndComplete().string("result.record"))
            #expect(ui.call("flow.start", ["change": original.id]).errorType == "AlreadyWithdrawn")
            #expect(ui.call("flow.start", ["change": withdrawn]).errorType == "NotAConsent")
            for language in ["en", "de", "fr", "es"] {
                let texts = ui.call("study.get", ["language": language])
                for type in ["AlreadyAmended", "NoOptionalElements", "StudyChanged"] {
                    #expect(texts.string("result.study.texts.errors.\(type)")?.isEmpty == false)
                }
                #expect(texts.string("result.study.texts.change")?.isEmpty == false)
            }
            agent.finish()

            let study = try LinkedRecords.sampleCopy { folder in
                for contract in ["contract.json", "de/contract.json", "fr/contract.json", "es/contract.json"] {
                    let url = folder.appendingPathComponent(contract)
                    var json = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: url)) as? JSONObject)
                    json["extension"] = (json["extension"] as? [JSONObject] ?? []).filter {
                        $0["url"] as? String != "urn:consent-kiosk:optional-element"
                    }
                    try JSONSerialization.data(withJSONObject: json).write(to: url)
                }
            }
            defer { try? FileManager.default.removeItem(at: study) }
            let plain = try ConsentdProcess("change-no-elements", arguments: ["--study", study.path])
            let kiosk = try plain.client()
            kiosk.negotiate()
            let flow = FlowDriver(kiosk)
            flow.toSharing()
            #expect(flow.call("sharing.choose", ["shareWidely": true]).string("result.view.review.page") == "document")
            #expect(flow.agree().string("result.view.review.page") == "name")
            flow.call("participant.setName", ["given": "Ada", "family": "Lovelace"])
            let record = try #require(flow.signAndComplete().string("result.record"))
            #expect(kiosk.call("flow.start", ["change": record]).errorType == "NoOptionalElements")
            plain.finish()
        }
    }
}
