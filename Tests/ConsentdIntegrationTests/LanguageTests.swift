import Foundation
import Testing

extension ConsentdIntegration {
    /// The bundled sample study in English, German and French, over the socket.
    @Suite struct Languages {
        @Test func studyGetListsEveryLanguageWithItsVersion() throws {
            let agent = try ConsentdProcess("languages-list")
            let ui = try agent.client()
            ui.negotiate()
            let study = ui.call("study.get")
            #expect(study.string("result.study.language") == "en")
            let languages = study.array("result.study.languages") as? [JSONObject] ?? []
            #expect(languages.map { $0["tag"] as? String } == ["en", "de", "es", "fr"])
            #expect(languages.map { $0["name"] as? String } == ["English", "Deutsch", "Español", "Français"])
            #expect(languages.map { $0["default"] as? Bool } == [true, false, false, false])
            let versions = languages.compactMap { $0["version"] as? String }
            #expect(Set(versions).count == 4 && versions.allSatisfy { $0.count == 64 })
            #expect(versions.first == study.string("result.study.version"))
            agent.finish()
        }

        @Test func unknownLanguageIsATypedErrorAndTheAgentKeepsServing() throws {
            let agent = try ConsentdProcess("languages-unknown")
            let ui = try agent.client()
            ui.negotiate()
            let refused = ui.call("flow.start", ["language": "it"])
            #expect(refused.errorType == "UnknownLanguage")
            #expect(refused.int("error.code") == -32000)
            #expect(refused.string("error.message")?.contains("en, de, es, fr") == true)
            #expect(ui.call("flow.start", ["language": 7]).string("error.data.field") == "language")
            // Tags match case-insensitively; the flow then carries the study's own spelling.
            let french = ui.call("flow.start", ["language": "FR"])
            #expect(french.string("result.language") == "fr")
            #expect(french.string("result.view.title") == "Admissibilité")
            let english = ui.call("flow.start")
            #expect(english.string("result.language") == "en")
            #expect(english.string("result.view.language") == "en")
            agent.finish()
        }

        @Test func germanFlowCompletesAndTheRecordSaysDeAndIsValidFHIR() throws {
            let agent = try ConsentdProcess("languages-german")
            let ui = try agent.client()
            ui.negotiate()
            let languages = ui.call("study.get").array("result.study.languages") as? [JSONObject] ?? []
            let germanVersion = try #require(languages.first { $0["tag"] as? String == "de" }?["version"] as? String)

            let flow = FlowDriver(ui, language: "de")
            let started = flow.call("flow.get")
            #expect(started.string("result.language") == "de")
            #expect(started.string("result.version") == germanVersion)
            #expect(started.string("result.view.title") == "Teilnahmevoraussetzungen")
            #expect((started.array("result.view.eligibility.questions") as? [String])?.first == "Sind Sie 18 Jahre alt oder älter?")
            #expect(started.string("result.view.eligibility.heading") == "Prüfen wir, ob Sie an Heartbeat & Sleep teilnehmen können")

            flow.toSharing()
            let sharing = flow.call("flow.get")
            #expect(sharing.string("result.view.title") == "Weitergabe von Daten")
            #expect(sharing.string("result.view.sharing.team") == "das Team von Heartbeat & Sleep")
            #expect((sharing.array("result.view.sharing.choices") as? [JSONObject])?.first?["text"] as? String
                == "Meine Daten an das Team von Heartbeat & Sleep und an qualifizierte Forschende weltweit weitergeben")
            #expect(sharing.string("result.view.sharing.learnMoreHTML")?.contains("Weitergabe Ihrer codierten Daten") == true)
            let optional = flow.call("sharing.choose", ["shareWidely": false])
            // The optional elements in German: the title, the words of the answers, the study's own texts.
            #expect(optional.string("result.view.title") == "Freiwillige Zusatzteile")
            #expect(optional.object("result.view.labels")?["optionalAnswer.yes"] as? String == "Ja")
            #expect((optional.array("result.view.optional.elements") as? [JSONObject])?.first?["title"] as? String
                == "Künftige Forschung mit Ihren Daten")
            let review = flow.call("optional.answer", ["answers": ["future-research": false, "contact-other-studies": true]])
            #expect(review.string("result.view.review.html")?.contains("<h3>Freiwillige Zusatzteile</h3>") == true)
            #expect(review.string("result.view.review.html")?.contains("\u{2610} Ja   \u{2612} Nein") == true)
            #expect(review.string("result.view.title") == "Überprüfen")
            #expect(review.string("result.view.review.html")?.contains("<h3>Einwilligungserklärung</h3>") == true)
            #expect(review.string("result.view.review.html")?.contains("Schutz Ihrer Privatsphäre") == true)
            #expect(flow.agree().string("result.view.review.givenNameLabel") == "Vorname")
            let named = flow.call("participant.setName", ["given": "Jürgen", "family": "Weiß"])
            #expect(named.string("result.view.review.signatureInstruction") == "Bitte unterschreiben Sie mit dem Finger auf der Linie unten.")
            #expect(flow.call("signature.submit", ["strokes": FlowDriver.signature]).string("result.step") == "done")
            let completed = flow.call("flow.complete")
            #expect(completed.string("result.step") == "completed")
            #expect(completed.string("result.language") == "de")
            let directory = URL(fileURLWithPath: try #require(completed.string("result.directory")))
            agent.finish(keepingState: true)
            defer { agent.removeFiles() }

            func json(_ name: String) throws -> JSONObject {
                try #require(
                    try JSONSerialization.jsonObject(with: Data(contentsOf: directory.appendingPathComponent(name))) as? JSONObject)
            }
            #expect(try json("contract.json")["language"] as? String == "de")
            #expect(try json("consent.json")["language"] as? String == "de")
            let manifest = try json("manifest.json")
            #expect(manifest["language"] as? String == "de")
            #expect(manifest["studyVersion"] as? String == germanVersion)
            #expect(try json("consent.json").string("policyRule.coding.0.code") == germanVersion)
            #expect(try json("consent.json").string("provision.provision.0.type") == "deny", "shared with the team only")
            #expect(try json("consent.json").string("provision.provision.0.code.0.text")
                == "Codierte Studiendaten an das Team von Heartbeat & Sleep und an qualifizierte Forschende weltweit weitergeben")

            // The PDF is the German one.
            let pdfText = try Self.pdftotext(directory.appendingPathComponent("consent.pdf"))
            for expected in ["Einwilligungserklärung", "Unterschrift (Teilnehmer/in)", "Seite 1 von", "Studienversion"] {
                #expect(pdfText.contains(expected), "\(expected)")
            }
            #expect(!pdfText.contains("Participant's Signature"))

            // The independent FHIR validator the signing tests use.
            let names = ["contract.json", "consent.json", "provenance.json", "patient.json", "bundle.json"]
            let result = try Tools.validateFHIR(names.map { directory.appendingPathComponent($0) })
            #expect(result.status == 0, "\(result.output)")

            // The auditor's tool verifies the German record like any other.
            let verify = Process()
            verify.executableURL = Paths.consentd.deletingLastPathComponent().appendingPathComponent("consentctl")
            verify.arguments = ["verify", directory.path]
            verify.standardOutput = FileHandle.nullDevice
            try verify.run()
            verify.waitUntilExit()
            #expect(verify.terminationStatus == 0)
        }

        static func pdftotext(_ file: URL) throws -> String {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/usr/bin/pdftotext")
            process.arguments = [file.path, "-"]
            let pipe = Pipe()
            process.standardOutput = pipe
            try process.run()
            let output = pipe.fileHandleForReading.readDataToEndOfFile()
            process.waitUntilExit()
            return String(decoding: output, as: UTF8.self)
        }
    }
}
