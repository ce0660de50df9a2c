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

    static func agent(_ name: String, stateDirectory: URL? = nil, lockoutSeconds: Int = 600) throws -> ConsentdProcess {
        let directory = URL(fileURLWithPath: "/tmp").appendingPathComponent("staffcfg-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        return try ConsentdProcess(
            name, arguments: ["--config", try config(in: directory, lockoutSeconds: lockoutSeconds).path],
            stateDirectory: stateDirectory)
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
            #expect(!agent.logShows("482913"))
            agent.finish(keepingState: true)
            defer { agent.removeFiles() }
            let audit = try String(contentsOf: agent.stateDirectory.appendingPathComponent("audit/audit.log"), encoding: .utf8)
            let lines = audit.split(separator: "\n").compactMap { parseJSON(String($0)) }
            #expect(lines.contains { $0.string("event") == "staff.unlocked" && $0.string("staff") == "jroe" })
            #expect(lines.contains { $0.string("event") == "staff.attested" && $0.string("method") == "photoId" })
            #expect(lines.contains { $0.string("event") == "flow.signature" && $0.string("signer") == "staff" })
            #expect(!audit.contains("482913") && !audit.contains("Lovelace"))
        }

        /// A page of its own at the staff step of a flow of its own.
        static func atStaffStep(_ agent: ConsentdProcess, _ name: String = "ui") throws -> FlowDriver {
            let page = try agent.client(name)
            page.negotiate()
            let flow = FlowDriver(page)
            flow.toSignaturePage()
            #expect(flow.call("signature.submit", ["strokes": FlowDriver.signature]).string("result.step") == "staff")
            return flow
        }

        /// What a refusal tells a client: its type, message and data members, without the time a lock ends.
        static func answer(_ reply: JSONObject) -> String {
            let data = (reply[path: "error.data"] as? JSONObject ?? [:]).keys.sorted().joined(separator: ",")
            let message = (reply.string("error.message") ?? "").replacingOccurrences(
                of: #"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ"#, with: "<time>", options: .regularExpression)
            return "\(reply.errorType ?? "none") \(message) [\(data)]"
        }

        /// Made-up staff ids are counted as real ones are, and a made-up id and a real one get the very same
        /// answers after the same tries, so the answers never say which ids exist.
        @Test func madeUpIdsAreCountedAndAnswerAsRealOnesDo() throws {
            let agent = try StaffFixture.agent("staff-made-up")
            let real = try Self.atStaffStep(agent, "real")
            let madeUp = try Self.atStaffStep(agent, "made-up")
            let realAnswers = (1...7).map { _ in Self.answer(real.call("staff.unlock", ["staffId": "jroe", "pin": "111111"])) }
            let madeUpAnswers = (1...7).map { _ in Self.answer(madeUp.call("staff.unlock", ["staffId": "nobody", "pin": "111111"])) }
            #expect(realAnswers == madeUpAnswers)
            #expect(madeUpAnswers.prefix(4).allSatisfy { $0.hasPrefix("WrongStaffPin ") }, "\(madeUpAnswers)")
            #expect(madeUpAnswers.dropFirst(4).allSatisfy { $0.hasPrefix("StaffLocked ") && $0.hasSuffix("[type,until]") }, "\(madeUpAnswers)")
            // Made-up ids are not named in the log; the log has one line per try that was hashed, none per refusal.
            #expect(!agent.log.contains("nobody"))
            #expect(agent.log.components(separatedBy: "wrong staff PIN").count - 1 == 10, "\(agent.log)")
            agent.finish()
        }

        /// A page that tries a new made-up id each time is stopped after ten: the flow's unlock is locked, the right
        /// PIN of a real id too, and nothing is hashed for it any more; other flows unlock.
        @Test func aFlowSprayingMadeUpIdsIsLocked() throws {
            let agent = try StaffFixture.agent("staff-spray")
            let spray = try Self.atStaffStep(agent, "spray")
            let answers = (1...12).map { n in spray.call("staff.unlock", ["staffId": "made-up-\(n)", "pin": "111111"]).errorType ?? "none" }
            #expect(answers == Array(repeating: "WrongStaffPin", count: 9) + Array(repeating: "StaffLocked", count: 3), "\(answers)")
            #expect(spray.call("staff.unlock", ["staffId": "jroe", "pin": "482913"]).errorType == "StaffLocked")
            let other = try Self.atStaffStep(agent, "colleague")
            #expect(other.call("staff.unlock", ["staffId": "jroe", "pin": "482913"]).string("result.view.staff.staffName") == "Jane Roe")
            #expect(agent.log.components(separatedBy: "wrong staff PIN").count - 1 == 10, "\(agent.log)")
            agent.finish()
        }

        /// Five wrong PINs for a real id from one page lock that id on that page's flow, not the staff member:
        /// another flow unlocks with the same id at once, and another staff member on the same flow.
        @Test func oneClientCannotLockAKnownIdForEverybody() throws {
            let agent = try StaffFixture.agent("staff-lock-one")
            let guesser = try Self.atStaffStep(agent, "guesser")
            for _ in 1...4 {
                #expect(guesser.call("staff.unlock", ["staffId": "jroe", "pin": "111111"]).errorType == "WrongStaffPin")
            }
            #expect(guesser.call("staff.unlock", ["staffId": "jroe", "pin": "111111"]).errorType == "StaffLocked")
            let locked = guesser.call("staff.unlock", ["staffId": "jroe", "pin": "482913"])
            #expect(locked.errorType == "StaffLocked")
            #expect(locked.string("error.data.until") != nil)
            let other = try Self.atStaffStep(agent, "colleague")
            #expect(other.call("staff.unlock", ["staffId": "jroe", "pin": "482913"]).string("result.view.staff.staffName") == "Jane Roe")
            #expect(guesser.call("staff.unlock", ["staffId": "mmax", "pin": "135790"]).string("result.view.staff.staffName") == "Max Muster")
            agent.finish()
        }

        /// Twenty wrong PINs on the kiosk, from flows that each stop at four, pause every flow's unlock (the kiosk's
        /// budget: one try more every staffLockoutSeconds / 20), and a restart does not hand out a fresh budget.
        @Test func theKioskBudgetPausesEveryFlowAcrossARestart() throws {
            // A day: the kiosk's budget comes back one try every 72 minutes, none during the test however slow the
            // machine (twenty PBKDF2 hashes and a restart under ThreadSanitizer).
            let first = try StaffFixture.agent("staff-kiosk", lockoutSeconds: 86400)
            for page in 1...5 {
                let flow = try Self.atStaffStep(first, "guesser-\(page)")
                for attempt in 1...4 {
                    let reply = flow.call("staff.unlock", ["staffId": "x\(page)-\(attempt)", "pin": "111111"])
                    #expect(reply.errorType == (page == 5 && attempt == 4 ? "StaffLocked" : "WrongStaffPin"), "\(page)/\(attempt): \(reply)")
                }
            }
            let paused = try Self.atStaffStep(first, "colleague")
            let refused = paused.call("staff.unlock", ["staffId": "mmax", "pin": "135790"])
            #expect(refused.errorType == "StaffLocked")
            #expect(refused.string("error.data.until") != nil)
            first.finish(keepingState: true)

            let second = try StaffFixture.agent("staff-kiosk-2", stateDirectory: first.stateDirectory, lockoutSeconds: 86400)
            defer { first.removeFiles() }
            let next = try Self.atStaffStep(second, "after-restart")
            #expect(next.call("staff.unlock", ["staffId": "mmax", "pin": "135790"]).errorType == "StaffLocked")
            second.finish()
        }
    }
}
