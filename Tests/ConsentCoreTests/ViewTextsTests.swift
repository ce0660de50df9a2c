import ConsentCore
import Foundation
import SampleStudy
import Testing

/// Every text a screen shows is in the view model, in the flow's language: the controls'
/// labels, the closing screens, the eligibility button, the signing area, the study's title and its images.
@Suite struct ViewTextsTests {
    static let strokes = SignatureStrokes(strokes: [[StrokePoint(x: 0.1, y: 0.5, t: 0, p: 0.4), StrokePoint(x: 0.6, y: 0.4, t: 120, p: 0.5)]])

    func sample(_ language: String = "en") throws -> Study {
        let study = try Study.load(from: try #require(SampleStudy.folder))
        return try #require(study.inLanguage(language))
    }

    /// Every view of a whole consent, from the start to `completed`.
    func consentViews(_ study: Study) throws -> [StepViewModel] {
        var s = ConsentSession(id: "f", study: study, now: .zero)
        var views = [s.viewModel]
        func step(_ action: ConsentAction) throws {
            try s.apply(action, now: .seconds(1))
            views.append(s.viewModel)
        }
        try step(.answerEligibility([true, true, false, true]))
        try step(.next(.eligibility))
        try step(.next(.keyInformation))
        for _ in study.document.visualSections { try step(.next(.visual)) }
        try step(.chooseSharing(shareWidely: true))
        try step(.answerOptional(["future-research": true, "contact-other-studies": false]))
        try step(.agree)
        for question in s.comprehension.questions { try step(.answerComprehension(question: question.index, choice: question.answer)) }
        try step(.setName(given: "Ada", family: "Lovelace"))
        try step(.submitSignature(Self.strokes))
        try s.markCompleted()
        views.append(s.viewModel)
        return views
    }

    @Test(arguments: ["en", "de", "fr"])
    func everyOfferedActionHasALabelInTheFlowsLanguage(_ language: String) throws {
        let views = try consentViews(try sample(language))
        #expect(views.map(\.step).last == .completed)
        for view in views {
            #expect(view.language == language)
            #expect(Set(view.labels.keys) == StepViewModel.labelKeys(for: view.actions), "\(view.step)")
            #expect(view.labels.values.allSatisfy { !$0.isEmpty })
        }
        let screens = ScreenTexts(language: language)
        let texts = BuiltInTexts(language: language)
        let first = try #require(views.first)
        #expect(first.labels["answer.yes"] == screens.yes && first.labels["answer.no"] == screens.no)
        #expect(first.labels["answer"] == screens.confirmAnswers)
        #expect(first.labels["decline"] == screens.declineConsent && first.labels["cancel"] == screens.cancel)
        let eligible = views[1]
        #expect(eligible.labels["next"] == texts.startConsent)
        let document = try #require(views.first { $0.review?.page == .document })
        #expect(document.labels["agree"] == texts.agree && document.labels["disagree"] == texts.disagree)
        #expect(document.labels["back"] == screens.back)
        let name = try #require(views.first { $0.review?.page == .name })
        #expect(name.labels["setName"] == screens.next)
        let signature = try #require(views.first { $0.review?.page == .signature })
        #expect(signature.labels["clearSignature"] == screens.clearSignature)
        #expect(signature.labels["submitSignature"] == screens.confirmSignature)
        #expect(signature.labels["beginSignature"] == screens.signOnPad)
        #expect(signature.labels["setName"] == screens.changeName)
        let done = try #require(views.first { $0.step == .done })
        #expect(done.labels["complete"] == screens.finish)
        #expect(try #require(views.first { $0.step == .sharing }).labels["chooseSharing"] == screens.next)
        let optional = try #require(views.first { $0.step == .optional })
        #expect(optional.labels["optionalAnswer.yes"] == screens.yes && optional.labels["optionalAnswer.no"] == screens.no)
        #expect(optional.labels["optionalAnswer"] == screens.next)
    }

    @Test func labelsAreTranslatedNotEnglishLeftBehind() {
        let en = ScreenTexts.english
        for screens in [ScreenTexts.german, ScreenTexts.french] {
            let pairs: [(String, String)] = [
                (screens.next, en.next), (screens.back, en.back), (screens.yes, en.yes), (screens.no, en.no),
                (screens.confirmAnswers, en.confirmAnswers), (screens.declineConsent, en.declineConsent),
                (screens.cancel, en.cancel), (screens.clearSignature, en.clearSignature),
                (screens.confirmSignature, en.confirmSignature), (screens.finish, en.finish),
                (screens.confirmWithdrawal, en.confirmWithdrawal), (screens.completedMessage, en.completedMessage),
                (screens.declinedMessage, en.declinedMessage), (screens.expiredMessage, en.expiredMessage),
                (screens.cancelledMessage, en.cancelledMessage), (screens.doneTitle, en.doneTitle),
            ]
            for (translated, english) in pairs { #expect(translated != english, "\(screens.language): \(translated)") }
            #expect(screens.doneMessageTemplate.contains("{button}") && screens.withdrawalDoneMessageTemplate.contains("{button}"))
        }
        #expect(ScreenTexts(language: "de-CH").language == "de" && ScreenTexts(language: "it").language == "en")
    }

    @Test(arguments: ["en", "de", "fr"])
    func everyEndStateHasATitleAndAMessage(_ language: String) throws {
        let study = try sample(language)
        let screens = ScreenTexts(language: language)
        var ended: [ConsentStep: StepViewModel.EndView] = [:]
        let done = try #require(try consentViews(study).first { $0.step == .done })
        #expect(done.end?.title == screens.doneTitle)
        // The message names the button that finishes, and that button is offered.
        #expect(done.end?.message.contains(done.labels["complete"] ?? "?") == true)
        for action in [ConsentAction.decline, .cancel] {
            var s = ConsentSession(id: "f", study: study, now: .zero)
            try s.apply(action, now: .seconds(1))
            ended[s.step] = s.viewModel.end
        }
        var ineligible = ConsentSession(id: "f", study: study, now: .zero)
        try ineligible.apply(.answerEligibility([true, true, true, true]), now: .seconds(1))
        ended[ineligible.step] = ineligible.viewModel.end
        var expired = ConsentSession(id: "f", study: study, now: .zero)
        let didExpire = expired.expireIfIdle(now: .seconds(100_000))
        #expect(didExpire)
        ended[expired.step] = expired.viewModel.end
        ended[.completed] = try consentViews(study).last?.end

        #expect(ended[.completed]?.title == screens.completedTitle && ended[.completed]?.message == screens.completedMessage)
        #expect(ended[.declined]?.title == screens.declinedTitle && ended[.declined]?.message == screens.declinedMessage)
        #expect(ended[.cancelled]?.title == screens.cancelledTitle && ended[.cancelled]?.message == screens.cancelledMessage)
        #expect(ended[.expired]?.title == screens.expiredTitle && ended[.expired]?.message == screens.expiredMessage)
        #expect(ended[.ineligible]?.message == study.eligibilityMessages.ineligibleMessage)
        #expect(ended[.ineligible]?.title == BuiltInTexts(language: language).eligibilityTitle)
        for (step, end) in ended {
            #expect(!end.title.isEmpty && !end.message.isEmpty, "\(step)")
        }
    }

    @Test func aWithdrawalsClosingScreensSpeakOfTheWithdrawal() throws {
        let target = WithdrawalTarget(recordID: "r-1", studyTitle: "Heartbeat", signedOn: "2026-09-14")
        var s = ConsentSession(id: "f", study: try sample(), now: .zero, purpose: .withdrawal(target))
        #expect(s.viewModel.labels["confirmWithdrawal"] == ScreenTexts.english.confirmWithdrawal)
        try s.apply(.confirmWithdrawal(reason: nil), now: .seconds(1))
        #expect(s.viewModel.labels["decline"] == ScreenTexts.english.declineWithdrawal)
        var declined = s
        try declined.apply(.decline, now: .seconds(2))
        #expect(declined.viewModel.end?.title == ScreenTexts.english.withdrawalDeclinedTitle)
        try s.apply(.setName(given: "Ada", family: "Lovelace"), now: .seconds(2))
        try s.apply(.submitSignature(Self.strokes), now: .seconds(3))
        #expect(s.viewModel.end?.message == ScreenTexts.english.doneMessage(button: "Finish", saving: .withdrawal))
        try s.markCompleted()
        #expect(s.viewModel.end?.message == ScreenTexts.english.withdrawalCompletedMessage)
    }

    @Test(arguments: ["en", "de", "fr"])
    func theEligibilityViewNamesItsButtonAndItsMessageSaysWhichItIs(_ language: String) throws {
        var s = ConsentSession(id: "f", study: try sample(language), now: .zero)
        let first = try #require(s.viewModel.eligibility)
        #expect(first.button == s.viewModel.labels["answer"])
        #expect(first.heading != nil)
        // The message names the button it asks for (no "button below" that the screen lacks).
        #expect(first.message?.contains(try #require(first.button)) == true)
        try s.apply(.answerEligibility([true, true, false, true]), now: .seconds(1))
        let eligible = try #require(s.viewModel.eligibility)
        #expect(eligible.button == s.viewModel.labels["next"])
        #expect(eligible.button == BuiltInTexts(language: language).startConsent)
        // The eligible screen's message names its button too (the sample study's own message, via {button}).
        let button = try #require(eligible.button)
        #expect(eligible.message?.contains(button) == true, "\(eligible.message ?? "")")
        #expect(eligible.message?.contains("{button}") == false)
    }

    @Test(arguments: ["en", "de", "fr"])
    func theEligibleMessageNamesItsButtonWhateverTheStudyWrote(_ language: String) {
        let texts = BuiltInTexts(language: language)
        let button = texts.startConsent
        // The built-in message names it.
        let builtIn = EligibilityMessages.defaults(in: texts).eligibleMessage(button: button, texts: texts)
        #expect(builtIn.contains(button) && !builtIn.contains("{button}"), "\(builtIn)")
        // A study's message that names it with {button} is filled in.
        var own = EligibilityMessages.defaults(in: texts)
        own.eligibleMessage = "Go: {button}!"
        #expect(own.eligibleMessage(button: button, texts: texts) == "Go: \(button)!")
        // One that does not (C3-PRO's "the button below") gives way to the built-in message.
        own.eligibleMessage = "Tap the button below to begin the consent process"
        #expect(own.eligibleMessage(button: button, texts: texts) == builtIn)
        #expect(!EligibilityMessages.namesButton(own.eligibleMessage, button: button))
    }

    @Test func aStudyMessageThatDoesNotNameTheButtonIsReportedWhenTheStudyLoads() throws {
        let study = try TemporaryStudy(
            contract: ["resourceType": "Contract", "term": [ContractJSON.term("Overview", text: "Hi")]],
            files: ["intro.json": #"{"items": [], "eligibility": {"eligibleMessage": "Tap the button below"}}"#])
        let loaded = try study.load()
        #expect(loaded.diagnostics.contains { $0.location == "eligibility.eligibleMessage" })
    }

    @Test func signaturePagesCarryTheDefaultSigningArea() throws {
        let views = try consentViews(try sample())
        let signature = try #require(views.first { $0.review?.page == .signature }?.review?.signingArea)
        #expect(signature == StepViewModel.SigningArea.uiDefault)
        #expect(signature.widthMM == 120 && signature.heightMM == 40 && signature.aspect == 3 && signature.source == .default)
        #expect(views.filter { $0.review?.signingArea != nil }.allSatisfy { $0.review?.page == .signature })
        let pad = StepViewModel.SigningArea.pad("/dev/input/event7", widthMM: 108, heightMM: 65)
        #expect(pad.aspect == 1.662 && pad.source == .pad && pad.pad == "/dev/input/event7")
        let unknownSize = StepViewModel.SigningArea.pad("/dev/input/event9", widthMM: nil, heightMM: nil)
        #expect(unknownSize.widthMM == 120 && unknownSize.source == .pad)
    }

    @Test func everyViewHasExactlyItsStepsPart() throws {
        for view in try consentViews(try sample()) {
            let parts: [String: Bool] = [
                "withdrawal": view.withdrawal != nil, "changes": view.changes != nil, "eligibility": view.eligibility != nil,
                "keyInformation": view.keyInformation != nil,
                "scene": view.scene != nil, "sharing": view.sharing != nil, "optional": view.optional != nil,
                "review": view.review != nil,
                "passcode": view.passcode != nil, "end": view.end != nil, "comprehension": view.comprehension != nil,
            ]
            #expect(parts.filter(\.value).map(\.key) == [StepViewModel.part(for: view.step)], "\(view.step)")
        }
    }

    @Test func theStudyTitleIsTheContractsTitleInEachLanguage() throws {
        #expect(try sample("en").title == "Heartbeat & Sleep Study")
        #expect(try sample("de").title == "Studie Heartbeat & Sleep")
        #expect(try sample("fr").title == "Étude Heartbeat & Sleep")
        #expect(try consentViews(try sample("de")).allSatisfy { $0.studyTitle == "Studie Heartbeat & Sleep" })
        // Without a title the Contract's documents keep the built-in one.
        let untitled = try TemporaryStudy(contract: ["resourceType": "Contract", "term": [ContractJSON.term("Overview", text: "Hi")]])
        #expect(try untitled.load().title == "Consent")
        let blank = try TemporaryStudy(contract: ["resourceType": "Contract", "title": "  ", "term": [ContractJSON.term("Overview", text: "Hi")]])
        #expect(try blank.load().title == "Consent")
    }

    @Test func theReviewDocumentNeverNestsBlocksInAParagraph() throws {
        let html = ReviewDocument.html(for: try sample())
        for malformed in ["<p><p>", "<p><h4>", "<p><ul>", "<p><ol>"] {
            #expect(!html.contains(malformed), "\(malformed)")
        }
        #expect(html.contains("<div><p><strong>Heartbeat &amp; Sleep</strong>"))
    }
}

/// The images a study shows, read when it loads (`study.asset`).
@Suite struct StudyAssetTests {
    static let png = Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 13])
    static let jpeg = Data([0xFF, 0xD8, 0xFF, 0xE0, 0, 16])

    static func contract(image: String?, html: String, language: String? = nil) -> JSONValue {
        var entries: [JSONValue] = [ContractJSON.entry("htmlContent", html)]
        if let image { entries.append(ContractJSON.entry("image", image)) }
        var contract: [String: JSONValue] = [
            "resourceType": "Contract", "term": [ContractJSON.term("Custom", text: "Sensor", ext: entries)],
        ]
        if let language { contract["language"] = .string(language) }
        return .object(contract)
    }

    @Test func theSampleStudysSceneImageIsDeliverable() throws {
        let study = try Study.load(from: try #require(SampleStudy.folder))
        for language in ["en", "de", "fr"] {
            let translated = try #require(study.inLanguage(language))
            let asset = try #require(translated.asset(named: "consent_wrist_sensor"))
            #expect(asset.mediaType == "image/png" && asset.file == "consent_wrist_sensor.png")
            #expect(asset.bytes.count == asset.size && asset.isDeliverable)
        }
        #expect(study.files.contains("consent_wrist_sensor.png"))  // in the version: a record pins the picture
    }

    @Test func imagesAreFoundByNameAndByHTMLSourceAndPerLanguage() throws {
        let folder = try TemporaryStudy(
            contract: Self.contract(image: "sensor", html: #"<p><img src="images/band.png" alt="Band"></p>"#, language: "en"))
        try folder.write("images/sensor.jpg", data: Self.jpeg)
        try folder.write("images/band.png", data: Self.png)
        try folder.write("de/contract.json", data: Self.contract(image: "sensor", html: #"<img src="images/band.png">"#, language: "de").serialized())
        try folder.write("de/sensor.png", data: Self.png)
        let study = try folder.load()
        #expect(study.asset(named: "sensor")?.mediaType == "image/jpeg")
        #expect(study.asset(named: "sensor")?.file == "images/sensor.jpg")
        #expect(study.asset(named: "images/band.png")?.mediaType == "image/png")
        // The German translation has its own picture of the sensor and inherits the band's.
        let german = try #require(study.inLanguage("de"))
        #expect(german.asset(named: "sensor")?.file == "de/sensor.png")
        #expect(german.asset(named: "images/band.png")?.file == "images/band.png")
        #expect(german.version != study.version)
        #expect(study.asset(named: "contract") == nil && study.asset(named: "../etc/passwd") == nil)
    }

    @Test func nothingOutsideTheStudyFolderNorAnythingButAnImageIsAnAsset() throws {
        let outside = FileManager.default.temporaryDirectory.appendingPathComponent("outside-\(UUID().uuidString).png")
        try Self.png.write(to: outside)
        defer { try? FileManager.default.removeItem(at: outside) }
        let html = #"<img src="../secret.png"><img src="/etc/hosts"><img src="https://example.org/x.png"><img src="link.png"><img src="notes.png">"#
        let folder = try TemporaryStudy(contract: Self.contract(image: "../secret", html: html))
        try FileManager.default.createSymbolicLink(
            at: folder.folder.appendingPathComponent("link.png"), withDestinationURL: outside)
        try folder.write("notes.png", data: Data("not an image".utf8))
        let study = try folder.load()
        #expect(study.assets.isEmpty)
        #expect(study.diagnostics.contains { $0.code == .assetUnavailable && $0.message.contains("notes.png") })
    }

    /// An image over what a UI can be sent is still read at load, so its bytes are in the version and the PDF
    /// prints those bytes (`DocumentComposer`); `study.asset` refuses it (`isDeliverable`).
    @Test func anImageTooLargeForAUIIsStillReadAndInTheVersion() throws {
        let folder = try TemporaryStudy(contract: Self.contract(image: "huge", html: #"<p><img src="huge.png"></p>"#))
        var big = Self.png
        big.append(Data(count: StudyAsset.maximumBytes))
        try folder.write("huge.png", data: big)
        let study = try folder.load()
        let asset = try #require(study.asset(named: "huge"))
        #expect(asset.bytes == big && asset.size == big.count && !asset.isDeliverable)
        #expect(study.asset(named: "huge.png")?.bytes == big, "the <img src> is the same file, read once")
        #expect(study.files.contains("huge.png"))
        #expect(study.diagnostics.contains { $0.code == .assetUnavailable && $0.message.contains("shrink it") })
        // Another picture under the same name is another version: an approval of the first does not cover it.
        var other = big
        other[other.count - 1] = 1
        try folder.write("huge.png", data: other)
        #expect(try folder.load().version != study.version)
    }

    /// An image the reader will not hold (over the file cap) stops the load, naming it, rather than being left on
    /// disk for something to read later.
    @Test func anImageOverTheFileCapStopsTheLoadNamingIt() throws {
        let folder = try TemporaryStudy(contract: Self.contract(image: nil, html: #"<p><img src="images/poster.png"></p>"#))
        try folder.write("images/poster.png", data: Self.png + Data(count: 2 << 20))
        let error = try #require(throws: ConsentCoreError.self) { try Study.load(from: folder.folder, maximumFileBytes: 1 << 20) }
        #expect(error.code == .fileTooLarge)
        #expect(error.file?.hasSuffix("images/poster.png") == true, "\(error)")
        #expect(try folder.load().asset(named: "images/poster.png")?.size == Self.png.count + (2 << 20))
    }

    /// The whole study is capped, every language's files counted once: a file two languages use is read once and
    /// they hold the same bytes.
    @Test func theStudysTotalIsCappedAndSharedFilesCountOnce() throws {
        let folder = try TemporaryStudy(
            contract: Self.contract(image: "sensor", html: #"<p><img src="band.png"></p>"#, language: "en"))
        let image = Self.png + Data(count: 300 << 10)
        try folder.write("sensor.png", data: image)
        try folder.write("band.png", data: image)
        for tag in ["de", "fr"] {
            try folder.write("\(tag)/contract.json", data: Self.contract(image: "sensor", html: #"<img src="band.png">"#, language: tag).serialized())
        }
        // Both images once (600 KiB and a few hundred bytes of JSON), not once per language (1.8 MiB).
        let study = try Study.load(from: folder.folder, maximumStudyBytes: 700 << 10)
        let german = try #require(study.inLanguage("de"))
        #expect(german.asset(named: "sensor")?.bytes == image && german.asset(named: "band.png")?.bytes == image)
        let error = try #require(throws: ConsentCoreError.self) { try Study.load(from: folder.folder, maximumStudyBytes: 400 << 10) }
        #expect(error.code == .fileTooLarge && error.message.contains("a study may hold"), "\(error)")
        #expect(error.file?.hasSuffix(".png") == true, "the file that would pass the cap is named: \(error)")
    }

    /// `translations` loads only the languages named (a kiosk checking approvals: the ones its approval covers).
    @Test func onlyTheTranslationsAskedForAreLoaded() throws {
        let folder = try TemporaryStudy(contract: Self.contract(image: nil, html: "<p>x</p>", language: "en"))
        for tag in ["de", "es"] {
            try folder.write("\(tag)/contract.json", data: Self.contract(image: nil, html: "<p>y</p>", language: tag).serialized())
        }
        #expect(try folder.load().languages.map(\.tag) == ["en", "de", "es"])
        #expect(try Study.load(from: folder.folder, translations: ["DE"]).languages.map(\.tag) == ["en", "de"])
        #expect(try Study.load(from: folder.folder, translations: []).languages.map(\.tag) == ["en"])
    }

    @Test func mediaTypesComeFromTheBytes() {
        #expect(StudyAsset.mediaType(of: Self.png) == "image/png")
        #expect(StudyAsset.mediaType(of: Self.jpeg) == "image/jpeg")
        #expect(StudyAsset.mediaType(of: Data("GIF89a....".utf8)) == "image/gif")
        #expect(StudyAsset.mediaType(of: Data("RIFF\0\0\0\0WEBPVP8 ".utf8)) == "image/webp")
        #expect(StudyAsset.mediaType(of: Data("<svg xmlns=\"http://www.w3.org/2000/svg\"/>".utf8)) == nil)
        #expect(StudyAsset.mediaType(of: Data()) == nil)
    }
}
