import Foundation
import IntegrationSupport
import Testing

extension ConsentdIntegration {
    /// Time to decide (21 CFR 50.20; stop and continue later): a participant pauses at the review document
    /// (`flow.pause`), consentd restarts, and the code resumes the flow at the same page (`flow.start {resume}`), where
    /// the consent completes. Nothing of the paused flow is readable on disk without the kiosk's key.
    @Suite struct PauseResume {
        @Test func aFlowPausedAtTheReviewDocumentResumesThereAfterARestartAndCompletes() throws {
            let first = try ConsentdProcess("pause")
            defer { first.removeFiles() }
            let ui = try first.client()
            ui.negotiate()
            let flow = FlowDriver(ui, language: "de")
            flow.toSharing()
            #expect(flow.call("sharing.choose", ["shareWidely": false]).string("result.step") == "optional")
            let answered = flow.call("optional.answer", ["answers": ["future-research": true, "contact-other-studies": false]])
            #expect(answered.string("result.view.review.page") == "document")
            #expect((answered.array("result.view.actions") as? [String])?.contains("pause") == true)
            #expect(answered.string("result.view.labels.pause") == "Ich möchte es mir überlegen")

            let paused = flow.call("flow.pause")
            #expect(paused.string("result.step") == "paused", "\(paused)")
            let code = try #require(paused.string("result.resumeCode"))
            #expect(code.range(of: "^[ACDEFHJKMNPRTUVWXY3479]{4}-[ACDEFHJKMNPRTUVWXY3479]{4}$", options: .regularExpression) != nil)
            #expect(paused.string("result.view.paused.code") == code)
            #expect(paused.string("result.expires") != nil)

            // One sealed file, 0600, naming neither the code nor anything the participant answered.
            let folder = first.stateDirectory.appendingPathComponent("paused")
            let files = try FileManager.default.contentsOfDirectory(atPath: folder.path)
            #expect(files.count == 1)
            let file = folder.appendingPathComponent(try #require(files.first))
            let mode = try FileManager.default.attributesOfItem(atPath: file.path)[.posixPermissions] as? NSNumber
            #expect(mode?.intValue == 0o600)
            let sealed = String(decoding: try Data(contentsOf: file), as: UTF8.self)
            for secret in ["future-research", "contact-other-studies", "heartbeat", "reviewStep", "document", code, code.replacingOccurrences(of: "-", with: "")] {
                #expect(!sealed.contains(secret), "\(secret)")
            }
            let audit = try String(contentsOf: first.stateDirectory.appendingPathComponent("audit/audit.log"), encoding: .utf8)
            let line = try #require(audit.split(separator: "\n").first { $0.contains("\"flow.paused\"") })
            #expect(line.contains("\"step\":\"review.document\"") && !line.contains(code))
            first.finish(keepingState: true)

            let second = try ConsentdProcess("resume", stateDirectory: first.stateDirectory)
            let kiosk = try second.client()
            kiosk.negotiate()
            #expect(kiosk.call("flow.start", ["resume": "ACDE-FH34"]).errorType == "UnknownResumeCode")
            #expect(kiosk.call("flow.start", ["resume": code, "study": "x"]).errorType == "InvalidParams")
            let resumed = kiosk.call("flow.start", ["resume": code.lowercased()])
            #expect(resumed.string("result.step") == "reviewStep", "\(resumed)\n\(second.log)")
            #expect(resumed.string("result.view.review.page") == "document")
            #expect(resumed.string("result.language") == "de")
            #expect(resumed.string("result.view.resumed.outcome") == "continued")
            #expect(kiosk.call("flow.start", ["resume": code]).errorType == "UnknownResumeCode", "a code works once")
            #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).isEmpty)

            let again = FlowDriver(kiosk, flow: try #require(resumed.string("result.flow")))
            #expect(again.agree().string("result.view.review.page") == "name")
            #expect(again.call("participant.setName", ["given": "Ada", "family": "Lovelace"]).string("result.view.review.page") == "signature")
            #expect(again.call("signature.submit", ["strokes": FlowDriver.signature]).string("result.step") == "done")
            let completed = again.call("flow.complete")
            #expect(completed.string("result.step") == "completed", "\(completed)")
            // The answers given before the pause are the record's.
            let directory = try #require(completed.string("result.directory"))
            let consent = try String(contentsOf: URL(fileURLWithPath: directory + "/consent.json"), encoding: .utf8)
            #expect(consent.contains("future-research") && consent.contains("contact-other-studies"))
            second.finish()
        }
    }
}
