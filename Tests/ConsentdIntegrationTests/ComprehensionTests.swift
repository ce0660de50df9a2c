import Foundation
import Testing

extension ConsentdIntegration {
    /// The comprehension check over the socket: a wrong answer's explanation, what a monitor sees of it, and the
    /// record that keeps every attempt (validated FHIR, verified by consentctl).
    @Suite struct Comprehension {
        @Test func aWrongAnswerIsExplainedAskedAgainAndRecorded() throws {
            let agent = try ConsentdProcess("comprehension")
            let ui = try agent.client()
            ui.negotiate()
            let monitor = try agent.client("monitor")
            monitor.negotiate()
            _ = monitor.call("events.subscribe", ["topics": ["flow"]])
            let flow = FlowDriver(ui, language: "de")
            flow.toSharing()
            flow.call("sharing.choose", ["shareWidely": true])
            flow.call("optional.answer", ["answers": ["future-research": true, "contact-other-studies": false]])
            let asked = flow.call("review.agree")
            #expect(asked.string("result.step") == "comprehension")
            #expect(asked.string("result.view.comprehension.question") == "Wie lange dauert die Studie?")
            #expect(asked.string("result.view.comprehension.progress") == "Frage 1 von 3")
            #expect(asked.array("result.view.actions") as? [String] == ["comprehensionAnswer", "back", "decline", "cancel", "askStaff"])
            #expect(asked[path: "result.view.comprehension.answer"] == nil)  // the correct choice is never sent

            #expect(flow.call("comprehension.answer", ["question": 0, "choice": 9]).errorType == "InvalidField")
            #expect(flow.call("comprehension.answer", ["question": 1, "choice": 1]).errorType == "StepMismatch")
            #expect(flow.call("comprehension.answer", ["question": 0, "choice": -1]).string("error.data.field") == "choice")
            let wrong = flow.call("comprehension.answer", ["question": 0, "choice": 2])
            #expect(wrong.string("result.view.comprehension.phase") == "explanation")
            #expect(wrong.int("result.view.comprehension.chosen") == 2)
            #expect(wrong.string("result.view.comprehension.explanation")?.hasPrefix("Die Studie dauert vier Wochen.") == true)
            #expect(wrong.string("result.view.comprehension.sectionHTML")?.contains("vier Wochen") == true)
            #expect(wrong.string("result.view.labels.next") == "Noch einmal versuchen")
            // A monitor sees the explanation screen, not the wrong choice.
            _ = monitor.call("session.sync")
            let seen = monitor.takeEvents("flow.changed").last { $0.string("params.data.step") == "comprehension" }
            #expect(seen?.string("params.data.view.comprehension.phase") == "explanation")
            #expect(seen?[path: "params.data.view.comprehension.chosen"] == nil)
            #expect(flow.call("flow.get")[path: "result.view.comprehension.chosen"] as? Int == 2)

            #expect(flow.call("flow.next", ["step": "comprehension"]).string("result.view.comprehension.phase") == "question")
            for (question, choice) in FlowDriver.comprehensionChoices.enumerated() {
                flow.call("comprehension.answer", ["question": question, "choice": choice])
            }
            flow.call("participant.setName", ["given": "Jürgen", "family": "Weiß"])
            #expect(flow.call("signature.submit", ["strokes": FlowDriver.signature]).string("result.step") == "done")
            let completed = flow.call("flow.complete")
            let directory = URL(fileURLWithPath: try #require(completed.string("result.directory")))
            agent.finish(keepingState: true)
            defer { agent.removeFiles() }

            let manifest = try JSONSerialization.jsonObject(with: Data(contentsOf: directory.appendingPathComponent("manifest.json"))) as? JSONObject
            let questions = manifest?[path: "comprehension.questions"] as? [JSONObject]
            #expect(questions?.map { $0["attempts"] as? [Int] ?? [] } == [[2, 1], [1], [0]])
            let response = try String(contentsOf: directory.appendingPathComponent("questionnaire-response.json"), encoding: .utf8)
            #expect(response.contains("Im 2. Versuch richtig beantwortet.") && response.contains("\"Ein Jahr\""))
            let fhir = try Tools.validateFHIR(Tools.fhirFiles(of: directory))
            #expect(fhir.status == 0, "\(fhir.output)")
            #expect(Tools.fhirFiles(of: directory).contains { $0.lastPathComponent == "questionnaire-response.json" })
            let verify = try Tools.run(Tools.consentctl, ["verify", directory.path])
            #expect(verify.status == 0, "\(verify.output)")
            // The audit log says the step was reached, never what was answered.
            let audit = try String(contentsOf: agent.stateDirectory.appendingPathComponent("audit/audit.log"), encoding: .utf8)
            #expect(audit.contains("comprehension"))
            #expect(!audit.contains("Ein Jahr") && !audit.contains("choice"))
        }
    }
}
