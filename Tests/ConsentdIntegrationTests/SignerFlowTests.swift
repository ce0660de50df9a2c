import Foundation
import Testing

/// A study (Tests/ConsentdIntegrationTests/Fixtures/signers-study) that requires a witness and allows a
/// legally authorized representative: no eligibility questions, one scene, no sharing choice.
enum SignersStudy {
    static let folder = Paths.root.appendingPathComponent("Tests/ConsentdIntegrationTests/Fixtures/signers-study")
    static var arguments: [String] { ["--study", folder.path] }
}

extension FlowDriver {
    /// Eligibility (no questions) → the scene → the review document → Agree: the signer page.
    func toSignerPage() {
        #expect(call("eligibility.answer", ["answers": [Any]()]).string("result.view.eligibility.status") == "eligible")
        var reply = call("flow.next", ["step": "eligibility"])
        while reply.string("result.step") == "visual" { reply = call("flow.next", ["step": "visual"]) }
        #expect(reply.string("result.view.review.page") == "document")
        let agreed = call("review.agree")
        #expect(agreed.string("result.view.review.page") == "signer")
        #expect((agreed.array("result.view.review.signerChoices") as? [JSONObject])?.map { $0.string("role") } == ["participant", "representative"])
    }
}

extension ConsentdIntegration {
    @Suite struct SignerFlows {
        /// The participant signs, a witness attests: both in the record, the PDF and the audit trail, never in
        /// an event or a log line.
        @Test func witnessRequiredFlowEndToEnd() throws {
            let agent = try ConsentdProcess("witness", arguments: SignersStudy.arguments)
            let ui = try agent.client()
            ui.negotiate()
            ui.call("events.subscribe", ["topics": ["flow", "ink"]])
            let study = ui.call("study.get")
            #expect(study[path: "result.study.requireWitness"] as? Bool == true)
            #expect(study[path: "result.study.allowRepresentative"] as? Bool == true)
            let flow = FlowDriver(ui)
            flow.toSignerPage()
            #expect(flow.call("signer.choose", ["signer": "witness"]).string("error.data.field") == "signer")
            #expect(flow.call("participant.setName", ["given": "Ada", "family": "Lovelace"]).errorType == "StepMismatch")
            let chosen = flow.call("signer.choose", ["signer": "participant"])
            #expect(chosen.string("result.view.review.page") == "name")
            #expect(chosen.string("result.view.review.signedBy") == "participant")
            #expect(flow.call("participant.setName", ["given": "Ada", "family": "Lovelace"]).string("result.view.review.page") == "signature")
            // The consent signature page is the participant's; the witness may not sign there.
            #expect(flow.call("signature.submit", ["strokes": FlowDriver.signature, "role": "witness"]).errorType == "StepMismatch")
            #expect(flow.call("signature.submit", ["strokes": FlowDriver.signature, "role": "signer"]).string("error.data.field") == "role")
            let signed = flow.call("signature.submit", ["strokes": FlowDriver.signature])
            #expect(signed.string("result.step") == "reviewStep")
            #expect(signed.string("result.view.review.page") == "witness")
            #expect(signed.string("result.view.review.role") == "witness")
            #expect(signed[path: "result.view.review.hasWitnessName"] as? Bool == false)
            #expect(flow.call("flow.next", ["step": "reviewStep"]).errorType == "MissingName")
            #expect(flow.call("signer.setName", ["role": "witness", "given": "Grace", "family": ""]).errorType == "MissingName")
            let named = flow.call("signer.setName", ["role": "witness", "given": "Grace", "family": "Hopper"])
            #expect(named.string("result.view.review.page") == "witnessSignature")
            #expect(flow.call("signature.submit", ["strokes": FlowDriver.signature]).errorType == "StepMismatch")
            let witnessed = flow.call("signature.submit", ["strokes": FlowDriver.signature, "role": "witness"])
            #expect(witnessed.string("result.step") == "done")
            let completed = flow.call("flow.complete")
            #expect(completed.string("result.step") == "completed")
            let directory = try #require(completed.string("result.directory"))

            let contract = try Self.json(directory, "contract.json")
            let signers = contract["signer"] as? [JSONObject] ?? []
            #expect(signers.map { $0.string("type.code") } == ["CONSENTER", "CONSWIT"])
            #expect(signers.last?.string("signature.0.type.0.code") == "1.2.840.10065.1.12.1.11")
            #expect(signers.last?.string("signature.0.who.display") == "Grace Hopper")
            let saved = try Self.json(directory, "signature.json")
            #expect(saved.string("additionalSigners.0.role") == "witness")
            let pdf = try Self.pdfText(directory)
            for text in ["Ada Lovelace", "Participant's Signature", "Grace Hopper", "Witness's Signature"] {
                #expect(pdf.contains(text), "\(text)")
            }
            #expect(try Self.verify(directory) == 0)

            ui.call("session.sync")
            #expect(!ui.events.contains { jsonLine($0).contains("Hopper") || jsonLine($0).contains("Lovelace") })
            #expect(!agent.log.contains("Hopper") && !agent.log.contains("Lovelace"))
            agent.finish(keepingState: true)
            defer { agent.removeFiles() }
            let audit = try String(contentsOf: agent.stateDirectory.appendingPathComponent("audit/audit.log"), encoding: .utf8)
            let lines = audit.split(separator: "\n").compactMap { parseJSON(String($0)) }
            #expect(lines.contains { $0.string("step") == "review.witnessSignature" })
            #expect(lines.contains { $0.string("event") == "flow.signature" && $0.string("signer") == "witness" })
            #expect(!audit.contains("Hopper"))
        }

        /// A representative signs for the participant (whose name is still recorded), with a relationship the
        /// study offers; a witness attests.
        @Test func representativeFlowEndToEnd() throws {
            let agent = try ConsentdProcess("representative", arguments: SignersStudy.arguments)
            let ui = try agent.client()
            ui.negotiate()
            let flow = FlowDriver(ui)
            flow.toSignerPage()
            #expect(flow.call("signer.choose", ["signer": "representative"]).string("result.view.title") == "Participant's Name")
            #expect(flow.call("signer.setName", ["role": "participant", "given": "Ada", "family": "Lovelace"])
                .string("result.view.review.page") == "representative")
            let page = flow.call("flow.get")
            let relationships = page.array("result.view.review.relationships") as? [JSONObject] ?? []
            #expect(relationships.map { $0.string("code") } == ["PRN", "GUARD", "HPOWATT"])
            #expect(flow.call("signature.submit", ["strokes": FlowDriver.signature, "role": "representative"]).errorType == "StepMismatch")
            #expect(flow.call("signer.setName", ["role": "representative", "given": "Anne", "family": "Milbanke", "relationship": "SPS"])
                .errorType == "InvalidField")
            #expect(flow.call("signer.setName", ["role": "representative", "given": "Anne", "family": "Milbanke"]).errorType == "MissingName")
            let named = flow.call("signer.setName", ["role": "representative", "given": "Anne", "family": "Milbanke", "relationship": "GUARD"])
            #expect(named.string("result.view.review.page") == "signature")
            #expect(named.string("result.view.review.role") == "representative")
            #expect(named[path: "result.view.review.hasRepresentative"] as? Bool == true)
            // The default role is the participant's, who does not sign here.
            #expect(flow.call("signature.submit", ["strokes": FlowDriver.signature]).errorType == "StepMismatch")
            let signed = flow.call("signature.submit", ["strokes": FlowDriver.signature, "role": "representative"])
            #expect(signed.string("result.view.review.page") == "witness")
            flow.call("signer.setName", ["role": "witness", "given": "Grace", "family": "Hopper"])
            #expect(flow.call("signature.submit", ["strokes": FlowDriver.signature, "role": "witness"]).string("result.step") == "done")
            let completed = flow.call("flow.complete")
            let directory = try #require(completed.string("result.directory"))

            let contract = try Self.json(directory, "contract.json")
            let signers = contract["signer"] as? [JSONObject] ?? []
            #expect(signers.map { $0.string("type.code") } == ["RESPRSN", "CONSWIT"])
            #expect(signers.first?.string("signature.0.type.0.code") == "1.2.840.10065.1.12.1.7")
            #expect(signers.first?.string("signature.0.onBehalfOf.reference")?.hasPrefix("Patient/") == true)
            let related = (contract["contained"] as? [JSONObject] ?? []).first { $0.string("resourceType") == "RelatedPerson" }
            #expect(related?.string("relationship.0.coding.0.code") == "GUARD")
            #expect(related?.string("relationship.0.coding.0.system") == "http://terminology.hl7.org/CodeSystem/v3-RoleCode")
            let patient = try Self.json(directory, "patient.json")
            #expect(patient.string("name.0.family") == "Lovelace")
            let pdf = try Self.pdfText(directory)
            for text in [
                "Anne Milbanke", "Legally Authorized Representative's Signature", "Relationship to the participant:",
                "Legal guardian (court-appointed)", "Signing on behalf of: Ada Lovelace", "Grace Hopper",
            ] {
                #expect(pdf.contains(text), "\(text)")
            }
            #expect(!pdf.contains("Participant's Signature"))
            #expect(try Self.verify(directory) == 0)
            #expect(!agent.log.contains("Milbanke"))
            agent.finish()
        }

        /// Going back from the witness's pages and declining wipes; the flow's view says so, the agent serves on.
        @Test func backAndDeclineInTheSignerPages() throws {
            let agent = try ConsentdProcess("signer-back", arguments: SignersStudy.arguments)
            let ui = try agent.client()
            ui.negotiate()
            let flow = FlowDriver(ui)
            flow.toSignerPage()
            flow.call("signer.choose", ["signer": "participant"])
            flow.call("participant.setName", ["given": "Ada", "family": "Lovelace"])
            flow.call("signature.submit", ["strokes": FlowDriver.signature])
            flow.call("signer.setName", ["role": "witness", "given": "Grace", "family": "Hopper"])
            #expect(flow.call("flow.back", ["step": "reviewStep"]).string("result.view.review.page") == "witness")
            let back = flow.call("flow.back", ["step": "reviewStep"])
            #expect(back.string("result.view.review.page") == "signature")
            #expect(back[path: "result.view.review.hasSignature"] as? Bool == true)
            let cleared = flow.call("signature.clear")
            #expect(cleared[path: "result.view.review.hasSignature"] as? Bool == false)
            #expect(flow.call("signature.clear", ["role": "witness"]).errorType == "StepMismatch")
            #expect(flow.call("flow.decline").string("result.step") == "declined")
            #expect(flow.call("signer.setName", ["role": "witness", "given": "G", "family": "H"]).errorType == "FlowFinished")
            // Another flow starts fine.
            #expect(FlowDriver(ui).flow.hasPrefix("f"))
            agent.finish()
        }

        static func json(_ directory: String, _ name: String) throws -> JSONObject {
            let data = try Data(contentsOf: URL(fileURLWithPath: directory + "/" + name))
            return try #require(try JSONSerialization.jsonObject(with: data) as? JSONObject)
        }

        /// pdftotext of the record's PDF, whitespace folded.
        static func pdfText(_ directory: String) throws -> String {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/usr/bin/pdftotext")
            process.arguments = [directory + "/consent.pdf", "-"]
            let pipe = Pipe()
            process.standardOutput = pipe
            try process.run()
            let data = pipe.fileHandleForReading.readDataToEndOfFile()
            process.waitUntilExit()
            return String(decoding: data, as: UTF8.self).split(whereSeparator: \.isWhitespace).joined(separator: " ")
        }

        /// `consentctl verify` of the record.
        static func verify(_ directory: String) throws -> Int32 {
            let verify = Process()
            verify.executableURL = Paths.consentd.deletingLastPathComponent().appendingPathComponent("consentctl")
            verify.arguments = ["verify", directory]
            verify.standardOutput = FileHandle.nullDevice
            try verify.run()
            verify.waitUntilExit()
            return verify.terminationStatus
        }
    }
}

extension ConsentdIntegration.PadCapture {
    /// The witness signs on the (mock) tablet: the ink events name the witness.
    @Test func witnessInkNamesTheWitness() throws {
        let agent = try ConsentdProcess(
            "pad-witness", arguments: SignersStudy.arguments + ["--pad-include-uninitialized"],
            wrapper: PenTablet.wrapper("signature"))
        let ui = try agent.client()
        ui.negotiate()
        ui.call("events.subscribe", ["topics": ["ink"]])
        let flow = FlowDriver(ui)
        flow.toSignerPage()
        flow.call("signer.choose", ["signer": "participant"])
        flow.call("participant.setName", ["given": "Ada", "family": "Lovelace"])
        #expect(flow.call("signature.begin", ["role": "witness"]).errorType == "StepMismatch")
        flow.call("signature.submit", ["strokes": FlowDriver.signature])
        flow.call("signer.setName", ["role": "witness", "given": "Grace", "family": "Hopper"])
        #expect(flow.call("signature.begin", ["role": "witness"]).string("result.pad.id") == PenTablet.node)
        let deadline = ContinuousClock.now + .seconds(15)
        while ui.events.filter({ $0.string("method") == "ink.strokeEnded" }).count < 2, ContinuousClock.now < deadline {
            usleep(50_000)
            ui.call("session.sync")
        }
        let ink = ui.takeEvents("ink.points")
        #expect(!ink.isEmpty)
        #expect(ink.allSatisfy { $0.string("params.data.role") == "witness" })
        #expect(ui.takeEvents("ink.strokeEnded").allSatisfy { $0.string("params.data.role") == "witness" })
        #expect(flow.call("signature.submit", ["role": "witness"]).string("result.step") == "done")
        agent.finish()
    }
}
