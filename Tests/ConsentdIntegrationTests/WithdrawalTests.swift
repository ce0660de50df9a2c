import Foundation
import Testing

extension FlowDriver {
    /// A driver for a flow started otherwise (a withdrawal, a re-consent).
    init(_ client: SocatClient, flow: String) {
        self.client = client
        self.flow = flow
    }

    /// Signs and completes a consent at the signature page; with `passcode`, sets it at the passcode step.
    func signAndComplete(passcode: String? = nil, sourceLocation: SourceLocation = #_sourceLocation) -> JSONObject {
        let signed = call("signature.submit", ["strokes": FlowDriver.signature], sourceLocation: sourceLocation)
        if let passcode {
            #expect(signed.string("result.step") == "passcode", sourceLocation: sourceLocation)
            #expect(call("passcode.set", ["passcode": passcode]).string("result.step") == "done", sourceLocation: sourceLocation)
        } else {
            #expect(signed.string("result.step") == "done", sourceLocation: sourceLocation)
        }
        let completed = call("flow.complete", sourceLocation: sourceLocation)
        #expect(completed.string("result.step") == "completed", sourceLocation: sourceLocation)
        return completed
    }
}

/// Withdrawal (`flow.start {withdraw}`) and re-consent (`flow.start {previous}`) end to end: consentd over its
/// socket, records checked with consentctl verify and the independent FHIR validator.
enum LinkedRecords {
    static func consent(_ ui: SocatClient, passcode: String? = nil) throws -> (id: String, directory: URL) {
        let flow = FlowDriver(ui)
        flow.toSignaturePage()
        let completed = flow.signAndComplete(passcode: passcode)
        return (try #require(completed.string("result.record")), URL(fileURLWithPath: try #require(completed.string("result.directory"))))
    }

    /// Every file of a record, by name.
    static func contents(_ directory: URL) throws -> [String: Data] {
        var files: [String: Data] = [:]
        for name in try FileManager.default.contentsOfDirectory(atPath: directory.path) {
            files[name] = try Data(contentsOf: directory.appendingPathComponent(name))
        }
        return files
    }

    static func json(_ directory: URL, _ name: String) throws -> JSONObject {
        try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: directory.appendingPathComponent(name))) as? JSONObject)
    }

    /// `consentctl verify` and the FHIR validator of the signing tests over every FHIR file of the record.
    static func expectValid(_ directory: URL, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let verify = try Tools.run(Tools.consentctl, ["verify", directory.path])
        #expect(verify.status == 0, "\(verify.output)", sourceLocation: sourceLocation)
        let fhir = try Tools.validateFHIR(Tools.fhirFiles(of: directory))
        #expect(fhir.status == 0, "\(fhir.output)", sourceLocation: sourceLocation)
    }

    /// The sample study copied to a temporary folder, with `edit` applied to its files.
    static func sampleCopy(_ edit: (URL) throws -> Void) throws -> URL {
        let folder = URL(fileURLWithPath: "/tmp").appendingPathComponent("study-\(UUID().uuidString.prefix(8))")
        try FileManager.default.copyItem(at: Paths.root.appendingPathComponent("Sources/SampleStudy/sample"), to: folder)
        try edit(folder)
        return folder
    }

    static func linkRoles(_ provenance: JSONObject) -> [String] {
        (provenance["entity"] as? [JSONObject] ?? []).compactMap { entity in
            (entity[path: "what.identifier.system"] as? String) == "urn:consent-kiosk:record-id" ? entity["role"] as? String : nil
        }
    }
}

extension ConsentdIntegration {
    @Suite struct Withdrawal {
        @Test func withdrawARecordWithoutPasscode() throws {
            let agent = try ConsentdProcess("withdraw")
            let ui = try agent.client()
            ui.negotiate()
            ui.call("events.subscribe", ["topics": ["flow"]])
            let original = try LinkedRecords.consent(ui)
            let before = try LinkedRecords.contents(original.directory)

            #expect(ui.call("flow.start", ["withdraw": "00000000-0000-4000-8000-000000000000"]).errorType == "UnknownRecord")
            #expect(ui.call("flow.start", ["withdraw": "../../etc"]).errorType == "UnknownRecord")
            #expect(ui.call("flow.start", ["previous": original.id, "withdraw": original.id]).string("error.data.field") == "previous")
            #expect(ui.call("flow.start", ["passcode": "1234"]).string("error.data.field") == "passcode")
            #expect(ui.call("flow.start", ["withdraw": original.id, "study": "another"]).string("error.data.field") == "study")

            let started = ui.call("flow.start", ["withdraw": original.id])
            #expect(started.string("result.step") == "withdrawal")
            #expect(started.string("result.withdraws") == original.id)
            #expect(started.string("result.view.withdrawal.record") == original.id)
            #expect(started.string("result.view.withdrawal.signedOn")?.count == 10)
            #expect(started.string("result.view.withdrawal.studyTitle") != nil)
            let flow = FlowDriver(ui, flow: try #require(started.string("result.flow")))
            #expect(flow.call("review.agree").errorType == "StepMismatch")
            let confirmed = flow.call("withdrawal.confirm", ["reason": "Moving to Zanzibar"])
            #expect(confirmed.string("result.view.review.page") == "name")
            #expect(flow.call("participant.setName", ["given": "Ada", "family": "Lovelace"]).string("result.view.review.page") == "signature")
            let completed = flow.signAndComplete()
            let withdrawal = try #require(completed.string("result.record"))
            let directory = URL(fileURLWithPath: try #require(completed.string("result.directory")))
            #expect(completed.array("result.files")?.count == 10)  // the 19794-7 file of the signature

            // The new record: signed, valid FHIR, revoked and inactive, pointing at the original.
            try LinkedRecords.expectValid(directory)
            #expect(try LinkedRecords.json(directory, "contract.json")["status"] as? String == "revoked")
            #expect(try LinkedRecords.json(directory, "consent.json")["status"] as? String == "inactive")
            let provenance = try LinkedRecords.json(directory, "provenance.json")
            #expect(LinkedRecords.linkRoles(provenance) == ["removal", "removal"])
            #expect(provenance[path: "reason.0.text"] as? String == "Moving to Zanzibar")
            #expect(try LinkedRecords.json(directory, "manifest.json")["withdraws"] as? String == original.id)
            #expect(
                try LinkedRecords.json(directory, "patient.json")["id"] as? String
                    == LinkedRecords.json(original.directory, "patient.json")["id"] as? String)
            // The original is untouched, byte for byte.
            #expect(try LinkedRecords.contents(original.directory) == before)

            // Found later from either side.
            let fetched = ui.call("records.get", ["id": original.id])
            #expect(fetched.string("result.withdrawnBy") == withdrawal)
            #expect(fetched.string("result.kind") == "consent")
            let fetchedWithdrawal = ui.call("records.get", ["id": withdrawal])
            #expect(fetchedWithdrawal.string("result.withdraws") == original.id)
            #expect(fetchedWithdrawal.string("result.kind") == "withdrawal")

            // Neither twice nor a withdrawal itself.
            #expect(ui.call("flow.start", ["withdraw": original.id]).errorType == "AlreadyWithdrawn")
            #expect(ui.call("flow.start", ["withdraw": withdrawal]).errorType == "NotAConsent")
            #expect(ui.call("flow.start", ["previous": original.id]).errorType == "AlreadyWithdrawn")

            // The reason and the name reach neither the wire events nor the logs.
            ui.call("session.sync")
            #expect(!ui.events.contains { jsonLine($0).contains("Zanzibar") || jsonLine($0).contains("Lovelace") })
            #expect(!agent.log.contains("Zanzibar") && !agent.log.contains("Lovelace"))
            agent.finish(keepingState: true)
            defer { agent.removeFiles() }
            let audit = try String(contentsOf: agent.stateDirectory.appendingPathComponent("audit/audit.log"), encoding: .utf8)
            #expect(!audit.contains("Zanzibar") && !audit.contains("Lovelace"))
            let withdrawn = audit.split(separator: "\n").compactMap { parseJSON(String($0)) }.filter {
                $0["event"] as? String == "record.withdrawn"
            }
            #expect(withdrawn.count == 1)
            #expect(withdrawn.first?["record"] as? String == original.id)
        }

        @Test func withdrawARecordWithPasscode() throws {
            let study = try LinkedRecords.sampleCopy { folder in
                let url = folder.appendingPathComponent("options.json")
                var options = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: url)) as? JSONObject)
                options["askToCreatePasscode"] = true
                try JSONSerialization.data(withJSONObject: options).write(to: url)
            }
            defer { try? FileManager.default.removeItem(at: study) }
            let agent = try ConsentdProcess("withdraw-pin", arguments: ["--study", study.path])
            let ui = try agent.client()
            ui.negotiate()
            let original = try LinkedRecords.consent(ui, passcode: "2468")
            let tampered = try LinkedRecords.consent(ui, passcode: "1357")
            try Data("{}".utf8).write(to: tampered.directory.appendingPathComponent("signature.json"))
            #expect(ui.call("flow.start", ["withdraw": tampered.id, "passcode": "1357"]).errorType == "RecordInvalid")

            #expect(ui.call("flow.start", ["withdraw": original.id]).errorType == "PasscodeRequired")
            #expect(ui.call("flow.start", ["withdraw": original.id, "passcode": "1111"]).errorType == "WrongPasscode")
            let started = ui.call("flow.start", ["withdraw": original.id, "passcode": "2468"])
            #expect(started.string("result.step") == "withdrawal")
            // A success resets the count; five wrong ones in a row lock the record, even against the right PIN.
            for attempt in 1...5 {
                #expect(ui.call("flow.start", ["withdraw": original.id, "passcode": "000\(attempt)"]).errorType == "WrongPasscode")
            }
            #expect(ui.call("flow.start", ["withdraw": original.id, "passcode": "2468"]).errorType == "PasscodeLocked")
            #expect(!agent.logShows("2468") && !agent.logShows("0001"))

            // Tries sent at once from eight kiosk pages (each connection's requests go one at a time; the pages'
            // hashes run side by side on the disk pool) get no more than five between them: each try is counted
            // before its hash runs.
            let burst = try LinkedRecords.consent(ui, passcode: "9753")
            let pages = try (1...8).map { _ in try agent.client() }
            for page in pages { page.negotiate() }
            for (attempt, page) in pages.enumerated() {
                page.send(jsonLine([
                    "jsonrpc": "2.0", "id": "burst", "method": "flow.start",
                    "params": ["withdraw": burst.id, "passcode": "111\(attempt)"],
                ]))
            }
            let answers = pages.map { $0.reply(to: "burst").errorType }
            #expect(answers.filter { $0 == "WrongPasscode" }.count == 5)
            #expect(answers.filter { $0 == "PasscodeLocked" }.count == 3)
            for page in pages { page.close() }

            // The flow started before the lock still completes, and sets no new passcode.
            let flow = FlowDriver(ui, flow: try #require(started.string("result.flow")))
            flow.call("withdrawal.confirm")
            flow.call("participant.setName", ["given": "Ada", "family": "Lovelace"])
            let completed = flow.signAndComplete()
            let directory = URL(fileURLWithPath: try #require(completed.string("result.directory")))
            try LinkedRecords.expectValid(directory)
            #expect(try LinkedRecords.json(directory, "manifest.json")["passcode"] == nil)
            #expect(try LinkedRecords.json(original.directory, "manifest.json")["passcode"] != nil)
            agent.finish()
        }

        /// A PIN typed for a consent given without one is refused: the record number is likely not the
        /// participant's. Leaving it out starts the withdrawal.
        @Test func aPasscodeForARecordWithoutOneIsRefused() throws {
            let agent = try ConsentdProcess("passcode-not-set")
            let ui = try agent.client()
            ui.negotiate()
            let record = try LinkedRecords.consent(ui).id
            let refused = ui.call("flow.start", ["withdraw": record, "passcode": "1234"])
            #expect(refused.errorType == "PasscodeNotSet")
            #expect(refused.int("error.code") == -32000)
            #expect(refused.string("error.message")?.contains("1234") == false)
            // Every language's texts have a sentence for it.
            for language in ["en", "de", "fr"] {
                let texts = ui.call("study.get", ["language": language])
                #expect(texts.string("result.study.texts.errors.PasscodeNotSet")?.isEmpty == false)
            }
            #expect(ui.call("flow.start", ["withdraw": record]).string("result.step") == "withdrawal")
            agent.finish()
        }

        /// The study changes between two runs of consentd on the same state: the second shows what changed, then
        /// the whole consent, and the new record replaces the first.
        @Test func reconsentAfterTheStudyChanged() throws {
            let first = try ConsentdProcess("reconsent-1")
            let ui = try first.client()
            ui.negotiate()
            let previous = try LinkedRecords.consent(ui)
            #expect(ui.call("flow.start", ["previous": previous.id]).errorType == "StudyUnchanged")
            first.finish(keepingState: true)
            defer { first.removeFiles() }

            let study = try LinkedRecords.sampleCopy { folder in
                let url = folder.appendingPathComponent("withdrawing.html")
                let text = try String(contentsOf: url, encoding: .utf8)
                try (text + "<p>You may also ask us to delete your samples.</p>\n").write(to: url, atomically: true, encoding: .utf8)
            }
            defer { try? FileManager.default.removeItem(at: study) }
            let second = try ConsentdProcess(
                "reconsent-2", arguments: ["--state-dir", first.stateDirectory.path, "--study", study.path])
            let kiosk = try second.client()
            kiosk.negotiate()
            let started = kiosk.call("flow.start", ["previous": previous.id])
            #expect(started.string("result.step") == "changes")
            #expect(started.string("result.previous") == previous.id)
            #expect(started[path: "result.view.changes.detailed"] as? Bool == true)
            #expect(started.array("result.view.changes.edited")?.count == 1)
            #expect(started.array("result.view.changes.added")?.isEmpty == true)
            #expect(started.array("result.view.changes.removed")?.isEmpty == true)

            let flow = FlowDriver(kiosk, flow: try #require(started.string("result.flow")))
            #expect(flow.call("flow.next", ["step": "changes"]).string("result.step") == "eligibility")
            #expect(flow.call("flow.back", ["step": "eligibility"]).string("result.step") == "changes")
            #expect(flow.call("flow.next", ["step": "changes"]).string("result.step") == "eligibility")
            flow.toSignaturePage()
            let completed = flow.signAndComplete()
            let record = try #require(completed.string("result.record"))
            let directory = URL(fileURLWithPath: try #require(completed.string("result.directory")))
            try LinkedRecords.expectValid(directory)
            #expect(try LinkedRecords.json(directory, "manifest.json")["previousRecord"] as? String == previous.id)
            #expect(try LinkedRecords.json(directory, "consent.json")["status"] as? String == "active")
            #expect(LinkedRecords.linkRoles(try LinkedRecords.json(directory, "provenance.json")) == ["revision", "revision"])
            #expect(kiosk.call("records.get", ["id": previous.id]).array("result.replacedBy") as? [String] == [record])
            #expect(kiosk.call("records.get", ["id": record]).string("result.previousRecord") == previous.id)
            // The new record is current: consenting again to it is pointless.
            #expect(kiosk.call("flow.start", ["previous": record]).errorType == "StudyUnchanged")
            second.finish()
        }
    }
}
