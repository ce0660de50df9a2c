import Foundation
import Testing

/// `staffCountersignature: required` against a real consentd: the staff step after the participant, the
/// credential file written by `consentctl staff add` (Tests/Fixtures/staff.json: jroe / 482913, mmax / 135790),
/// wrong PINs, the lock-out across a restart, and the countersigned record (FHIR validated).
enum StaffFixture {
    static let staffFile = Paths.root.appendingPathComponent("Tests/Fixtures/staff.json")

    /// A config with the countersignature required, in `directory`.
    static func config(in directory: URL, lockoutSeconds: Int = 600) throws -> URL {
        let url = directory.appendingPathComponent("staff-config.json")
        let text = """
            {"staffCountersignature": "required", "staffFile": "\(staffFile.path)", "staffLockoutSeconds": \(lockoutSeconds)}
            """
        try Data(text.utf8).write(to: url)
        return url
    }

    static func agent(_ name: String, stateDirectory: URL? = nil) throws -> ConsentdProcess {
        let directory = URL(fileURLWithPath: "/tmp").appendingPathComponent("staffcfg-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        return try ConsentdProcess(
            name, arguments: ["--config", try config(in: directory).path], stateDirectory: stateDirectory)
    }
}

extension ConsentdIntegration {
    @Suite struct StaffCountersign {
        @Test func countersignedConsentEndToEnd() throws {
            let agent = try StaffFixture.agent("staff-countersign")
            let ui = try agent.client()
            ui.negotiate()
            ui.call("events.subscribe", ["topics": ["flow"]])
            let flow = FlowDriver(ui)
            flow.toSignaturePage()
            let signed = flow.call("signature.submit", ["strokes": FlowDriver.signature])
            #expect(signed.string("result.step") == "staff")
            #expect(signed.string("result.view.staff.page") == "unlock")
            #expect(signed.array("result.view.actions") as? [String] == ["staffUnlock", "back", "cancel"])
            #expect(signed.string("result.view.labels.staffUnlock") == "Unlock")
            // No record without the person obtaining consent.
            #expect(flow.call("flow.complete").errorType == "InvalidAction")
            #expect(flow.call("staff.attestIdentity", ["method": "photoId"]).errorType == "StaffNotUnlocked")
            #expect(flow.call("signature.submit", ["strokes": FlowDriver.signature, "role": "personObtainingConsent"]).errorType == "StepMismatch")
            #expect(flow.call("staff.unlock", ["staffId": "jroe", "pin": "000000"]).errorType == "WrongStaffPin")
            #expect(flow.call("staff.unlock", ["staffId": "nobody", "pin": "482913"]).errorType == "WrongStaffPin")
            #expect(flow.call("staff.unlock", ["staffId": "jroe"]).string("error.data.field") == "pin")
            let unlocked = flow.call("staff.unlock", ["staffId": "jroe", "pin": "482913"])
            #expect(unlocked.string("result.view.staff.page") == "attest")
            #expect(unlocked.string("result.view.staff.staffName") == "Jane Roe")
            #expect((unlocked.array("result.view.staff.methods") as? [JSONObject])?.map { $0.string("method") }
                == ["photoId", "knownToStaff", "representativeDocuments", "other"])
            #expect(flow.call("staff.attestIdentity", ["method": "passport"]).string("error.data.field") == "method")
            #expect(flow.call("staff.attestIdentity", ["method": "other"]).errorType == "InvalidField")
            let attested = flow.call("staff.attestIdentity", ["method": "photoId"])
            #expect(attested.string("result.view.staff.page") == "signature")
            #expect(flow.call("signature.submit", ["strokes": FlowDriver.signature]).errorType == "StepMismatch")
            let countersigned = flow.call("signature.submit", ["strokes": FlowDriver.signature, "role": "personObtainingConsent"])
            #expect(countersigned.string("result.step") == "done")
            let completed = flow.call("flow.complete")
            #expect(completed.string("result.step") == "completed")
            let directory = try #require(completed.string("result.directory"))
            let record = URL(fileURLWithPath: directory)

            let consent = try SignerFlows.json(directory, "consent.json")
            #expect(consent[path: "verification.0.verified"] as? Bool == true)
            #expect(consent.string("verification.0.extension.0.valueCodeableConcept.coding.0.code") == "photoId")
            let provenance = try SignerFlows.json(directory, "provenance.json")
            let agents = provenance["agent"] as? [JSONObject] ?? []
            let verifier = try #require(agents.first { $0.string("type.coding.0.code") == "verifier" })
            #expect(verifier.string("who.type") == "Practitioner" && verifier.string("who.display") == "Jane Roe")
            #expect(verifier.string("who.identifier.value") == "jroe")
            let manifest = try SignerFlows.json(directory, "manifest.json")
            let bindings = manifest["signatures"] as? [JSONObject] ?? []
            #expect(bindings.contains { $0.string("role") == "personObtainingConsent" })
            #expect(FileManager.default.fileExists(atPath: directory + "/signature-personObtainingConsent.iso19794-7"))
            let pdf = try SignerFlows.pdfText(directory)
            for text in ["Person Obtaining Consent", "Jane Roe", "Identity verified by: Photo ID checked", "Staff ID: jroe"] {
                #expect(pdf.contains(text), "\(text)")
            }
            #expect(try SignerFlows.verify(directory) == 0)
            let fhir = try Tools.validateFHIR(Tools.fhirFiles(of: record))
            #expect(fhir.status == 0, "\(fhir.output)")

            // The PIN is nowhere: not in events, the log or the audit trail; the audit has the staff id.
            ui.call("session.sync")
            #expect(!ui.events.contains { jsonLine($0).contains("482913") })
            #expect(!agent.log.contains("482913"))
            agent.finish(keepingState: true)
            defer { agent.removeFiles() }
            let audit = try String(contentsOf: agent.stateDirectory.appendingPathComponent("audit/audit.log"), encoding: .utf8)
            let lines = audit.split(separator: "\n").compactMap { parseJSON(String($0)) }
            #expect(lines.contains { $0.string("event") == "staff.unlocked" && $0.string("staff") == "jroe" })
            #expect(lines.contains { $0.string("event") == "staff.attested" && $0.string("method") == "photoId" })
            #expect(lines.contains { $0.string("event") == "flow.signature" && $0.string("signer") == "staff" })
            #expect(!audit.contains("482913") && !audit.contains("Lovelace"))
        }

        /// Five wrong PINs lock that staff id, also after a restart; another staff member may still unlock.
        @Test func fiveWrongPinsLockTheStaffIdAcrossARestart() throws {
            let first = try StaffFixture.agent("staff-lockout")
            let ui = try first.client()
            ui.negotiate()
            let flow = FlowDriver(ui)
            flow.toSignaturePage()
            #expect(flow.call("signature.submit", ["strokes": FlowDriver.signature]).string("result.step") == "staff")
            for _ in 1...4 {
                #expect(flow.call("staff.unlock", ["staffId": "jroe", "pin": "111111"]).errorType == "WrongStaffPin")
            }
            #expect(flow.call("staff.unlock", ["staffId": "jroe", "pin": "111111"]).errorType == "StaffLocked")
            // Locked: the right PIN is refused too.
            let locked = flow.call("staff.unlock", ["staffId": "jroe", "pin": "482913"])
            #expect(locked.errorType == "StaffLocked")
            #expect(locked.string("error.data.until") != nil)
            first.finish(keepingState: true)

            let second = try StaffFixture.agent("staff-lockout-2", stateDirectory: first.stateDirectory)
            defer { first.removeFiles() }
            let again = try second.client()
            again.negotiate()
            let next = FlowDriver(again)
            next.toSignaturePage()
            #expect(next.call("signature.submit", ["strokes": FlowDriver.signature]).string("result.step") == "staff")
            #expect(next.call("staff.unlock", ["staffId": "jroe", "pin": "482913"]).errorType == "StaffLocked")
            #expect(next.call("staff.unlock", ["staffId": "mmax", "pin": "135790"]).string("result.view.staff.staffName") == "Max Muster")
            second.finish()
        }

        /// Wrong PINs sent at once from eight kiosk pages (their hashes run side by side on the disk pool) lock the
        /// id after five between them: each try is counted before its hash runs.
        @Test func pinsTriedAtOnceFromManyPagesStillLockAfterFive() throws {
            let agent = try StaffFixture.agent("staff-burst")
            let pages = try (1...8).map { _ in try agent.client() }
            let flows = pages.map { page in
                page.negotiate()
                let flow = FlowDriver(page)
                flow.toSignaturePage()
                #expect(flow.call("signature.submit", ["strokes": FlowDriver.signature]).string("result.step") == "staff")
                return flow
            }
            for (attempt, flow) in flows.enumerated() {
                flow.client.send(jsonLine([
                    "jsonrpc": "2.0", "id": "burst", "method": "staff.unlock",
                    "params": ["flow": flow.flow, "staffId": "mmax", "pin": "11111\(attempt)"],
                ]))
            }
            let answers = pages.map { $0.reply(to: "burst").errorType }
            #expect(answers.filter { $0 == "WrongStaffPin" }.count == 4)
            #expect(answers.filter { $0 == "StaffLocked" }.count == 4)
            #expect(flows[0].call("staff.unlock", ["staffId": "mmax", "pin": "135790"]).errorType == "StaffLocked")
            for page in pages { page.close() }
            agent.finish()
        }
    }
}
