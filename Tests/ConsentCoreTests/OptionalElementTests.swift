import ConsentCore
import Foundation
import SampleStudy
import Testing

/// Optional elements (docs/C3PRO.md, section 3c): the Contract extensions a participant answers Yes or No one by
/// one, what lint says about them, their step between sharing and the review document, and the review document.
@Suite struct OptionalElementTests {
    typealias C = ContractJSON

    static let system = "urn:test:optional"

    /// One `urn:consent-kiosk:optional-element` extension; a nil member is left out.
    static func element(
        _ id: String?, title: String? = "Future research", text: String? = "May we keep your data?",
        page: String? = nil, code: String? = "future"
    ) -> JSONValue {
        var members: [JSONValue] = []
        if let id { members.append(["url": "id", "valueString": .string(id)]) }
        if let title { members.append(["url": "title", "valueString": .string(title)]) }
        if let text { members.append(["url": "text", "valueString": .string(text)]) }
        if let page { members.append(["url": "htmlContentFile", "valueString": .string(page)]) }
        if let code {
            members.append(["url": "code", "valueCoding": ["system": .string(system), "code": .string(code), "display": "D"]])
        }
        return ["url": .string(OptionalElement.extensionURL), "extension": .array(members)]
    }

    static let two: [JSONValue] = [
        element("future-research", page: "future"),
        element("contact", title: "Contact", text: "May we call you about other studies?", code: "recontact"),
    ]

    /// A study of one scene and a section only in the document, with `extensions` on its Contract.
    static func study(
        extensions: [JSONValue] = two, files: [String: String] = ["future.html": "<p>Ten years, coded.</p>"],
        options: JSONValue = ["askForSharing": false]
    ) throws -> TemporaryStudy {
        var contract = C.contract(terms: [
            C.term("Overview", ext: [C.html("<p>Welcome.</p>")]),
            C.term("OnlyInDocument", ext: [C.entry("title", "Contacts"), C.html("<p>Call us.</p>")]),
        ])
        if !extensions.isEmpty { contract.set("extension", .array(extensions)) }
        return try TemporaryStudy(contract: contract, files: files, options: options)
    }

    /// A flow of `study` at the optional step (eligible, past the one scene).
    static func atOptional(_ study: Study) throws -> ConsentSession {
        var session = ConsentSession(id: "f", study: study, now: .zero)
        try session.apply(.answerEligibility([]), now: .seconds(1))
        try session.apply(.next(.eligibility), now: .seconds(2))
        try session.apply(.next(.visual), now: .seconds(3))
        return session
    }

    // MARK: Reading

    @Test func theElementsAreReadInOrderWithTheirCodesAndLearnMorePages() throws {
        let study = try Self.study().load()
        #expect(study.diagnostics.isEmpty)
        let elements = study.document.optionalElements
        #expect(elements.map(\.id) == ["future-research", "contact"])
        #expect(elements[0].title == "Future research" && elements[0].text == "May we keep your data?")
        #expect(elements[0].htmlContentFile == "future" && elements[0].htmlContent == "<p>Ten years, coded.</p>")
        #expect(elements[0].code == OptionalElementCode(system: Self.system, code: "future", display: "D"))
        #expect(elements[1].htmlContent == nil && elements[1].code.code == "recontact")
        // The Learn more page is one of the files the version covers.
        #expect(study.files.contains("future.html"))
    }

    @Test func anIDOutOfShapeOrUsedTwiceOrAnElementWithoutACodeIsAnErrorAndLeftOut() throws {
        for bad in ["Future", "future research", "", String(repeating: "a", count: 41), "zukünftig"] {
            let study = try Self.study(extensions: [Self.element(bad), Self.element("ok")]).load()
            #expect(study.document.optionalElements.map(\.id) == ["ok"], "\(bad)")
            #expect(study.diagnostics.map(\.code) == [.optionalElementInvalid], "\(bad)")
            #expect(study.diagnostics.first?.severity == .error)
            #expect(study.diagnostics.first?.location == "extension[0]")
        }
        #expect(OptionalElement.isValidID(String(repeating: "a", count: 40)))
        #expect(OptionalElement.isValidID("contact-2"))

        let twice = try Self.study(extensions: [Self.element("same"), Self.element("same", title: "Other")]).load()
        #expect(twice.document.optionalElements.map(\.title) == ["Future research"])
        #expect(twice.diagnostics.map(\.code) == [.optionalElementInvalid])
        #expect(twice.diagnostics.first?.location == "extension[1]")
        #expect(twice.diagnostics.first?.message.contains("used by an earlier element") == true)

        for missing in [Self.element("a", code: nil), Self.element("a", title: nil), Self.element("a", text: nil), Self.element(nil)] {
            let study = try Self.study(extensions: [missing]).load()
            #expect(study.document.optionalElements.isEmpty)
            #expect(study.diagnostics.map(\.code) == [.optionalElementInvalid])
        }
        // Lint reports what loading does.
        let folder = try Self.study(extensions: [Self.element("Bad")])
        #expect(StudyLint.check(folder.folder).first?.diagnostics.contains { $0.code == .optionalElementInvalid } == true)
    }

    @Test func aMissingLearnMorePageIsAnErrorAndTheElementIsAskedWithoutIt() throws {
        let study = try Self.study(files: [:]).load()
        #expect(study.document.optionalElements.map(\.id) == ["future-research", "contact"])
        #expect(study.document.optionalElements[0].htmlContent == nil)
        let error = try #require(study.diagnostics.first)
        #expect(study.diagnostics.count == 1)
        #expect(error.severity == .error && error.code == .fileMissing && error.file == "future.html")
    }

    @Test func aTranslationWhoseElementsDifferInIDsOrCodesIsAnError() throws {
        let folder = try Self.study(files: ["future.html": "<p>Coded.</p>", "de/future.html": "<p>Codiert.</p>"])
        func translation(_ tag: String, _ extensions: [JSONValue]) throws {
            var contract = C.contract(terms: [
                C.term("Overview", ext: [C.html("<p>\(tag).</p>")]),
                C.term("OnlyInDocument", ext: [C.entry("title", "K"), C.html("<p>K.</p>")]),
            ])
            contract.set("language", .string(tag))
            contract.set("extension", .array(extensions))
            try folder.write("\(tag)/contract.json", data: contract.serialized())
        }
        // German: the same ids and codes, its own texts and page. French: another code. Spanish: one missing.
        try translation("de", [
            Self.element("future-research", title: "Forschung", text: "Dürfen wir?", page: "future"),
            Self.element("contact", title: "Kontakt", text: "Anrufen?", code: "recontact"),
        ])
        try translation("fr", [Self.element("future-research", page: "future"), Self.element("contact", code: "other")])
        try translation("es", [Self.element("future-research", page: "future")])

        let study = try folder.load()
        let german = try #require(study.inLanguage("de"))
        #expect(german.document.optionalElements.map(\.title) == ["Forschung", "Kontakt"])
        #expect(german.document.optionalElements[0].htmlContent == "<p>Codiert.</p>")
        let lint = StudyLint.check(folder.folder)
        #expect(lint.map(\.language) == ["en", "de", "es", "fr"] || lint.map(\.language) == ["en", "de", "fr", "es"])
        for result in lint where result.language == "en" || result.language == "de" {
            #expect(!result.diagnostics.contains { $0.severity == .error }, "\(result.language)")
        }
        for result in lint where result.language == "fr" || result.language == "es" {
            let codes = result.diagnostics.filter { $0.severity == .error }.map(\.code)
            #expect(codes == [.optionalElementUntranslated], "\(result.language)")
        }
        let spanish = try #require(lint.first { $0.language == "es" }?.diagnostics.first { $0.code == .optionalElementUntranslated })
        #expect(spanish.message.contains("missing contact"))
        #expect(spanish.file == "es/contract.json")
    }

    // MARK: The flow

    @Test func theStepComesAfterTheScenesOrSharingWithNothingChosen() throws {
        let study = try Self.study().load()
        var session = try Self.atOptional(study)
        #expect(session.step == .optional)
        #expect(session.offer.actions == [.optionalAnswer, .back, .decline, .cancel, .askStaff])

        let view = session.viewModel
        #expect(view.step == .optional && StepViewModel.part(for: .optional) == "optional")
        #expect(view.title == "Optional parts")
        let part = try #require(view.optional)
        #expect(part.text == BuiltInTexts.english.optionalText)
        #expect(part.elements.map(\.id) == ["future-research", "contact"])
        #expect(part.elements.allSatisfy { $0.answer == nil })
        #expect(part.elements[0].learnMoreHTML == "<p>Ten years, coded.</p>" && part.elements[0].learnMoreTitle == "Learn More")
        #expect(part.elements[1].learnMoreHTML == nil && part.elements[1].learnMoreTitle == nil)
        #expect(view.review == nil && view.sharing == nil)
        #expect(view.labels["optionalAnswer"] == "Next")
        #expect(view.labels["optionalAnswer.yes"] == "Yes" && view.labels["optionalAnswer.no"] == "No")
        #expect(Set(view.labels.keys) == StepViewModel.labelKeys(for: view.actions))

        // Going on needs every answer.
        #expect(throws: ConsentCoreError.self) { try session.apply(.next(.optional), now: .seconds(4)) }
        // Answers for some elements keep the flow here, and are shown.
        try session.apply(.answerOptional(["future-research": true]), now: .seconds(4))
        #expect(session.step == .optional)
        #expect(session.viewModel.optional?.elements.map(\.answer) == [true, nil])
        // An id the study does not have is a typed error, and nothing of that request is kept.
        let unknown = #expect(throws: ConsentCoreError.self) {
            try session.apply(.answerOptional(["contact": true, "genetic-testing": true]), now: .seconds(5))
        }
        #expect(unknown?.code == .invalidAnswers)
        #expect(unknown?.message.contains("genetic-testing") == true)
        #expect(session.optionalAnswers == ["future-research": true])
        // The last answer goes on to the review document.
        try session.apply(.answerOptional(["contact": false]), now: .seconds(6))
        #expect(session.step == .reviewStep && session.reviewPage == .document)

        // Back from the review document: the answers are shown again, and next goes on unchanged.
        try session.apply(.back(.reviewStep), now: .seconds(7))
        #expect(session.step == .optional)
        #expect(session.offer.actions == [.optionalAnswer, .next, .back, .decline, .cancel, .askStaff])
        #expect(session.viewModel.optional?.elements.map(\.answer) == [true, false])
        try session.apply(.next(.optional), now: .seconds(8))
        #expect(session.step == .reviewStep)
        // Changed on the way: one answer changed, the other kept.
        try session.apply(.back(.reviewStep), now: .seconds(9))
        try session.apply(.answerOptional(["future-research": false]), now: .seconds(10))
        #expect(session.step == .reviewStep && session.optionalAnswers == ["future-research": false, "contact": false])

        // Back from the step itself: the last scene (no sharing in this study).
        try session.apply(.back(.reviewStep), now: .seconds(11))
        try session.apply(.back(.optional), now: .seconds(12))
        #expect(session.step == .visual)
    }

    @Test func withSharingItComesAfterTheChoiceAndBackReturnsToIt() throws {
        let study = try Self.study(
            files: ["future.html": "<p>Coded.</p>", "Consent_sharing.html": "<p>Sharing.</p>"],
            options: ["askForSharing": true]
        ).load()
        var session = try Self.atOptional(study)
        #expect(session.step == .sharing)
        try session.apply(.chooseSharing(shareWidely: false), now: .seconds(4))
        #expect(session.step == .optional)
        try session.apply(.back(.optional), now: .seconds(5))
        #expect(session.step == .sharing)
    }

    @Test func anActionOfTheStepElsewhereIsAStepMismatch() throws {
        let study = try Self.study().load()
        var session = ConsentSession(id: "f", study: study, now: .zero)
        let error = #expect(throws: ConsentCoreError.self) {
            try session.apply(.answerOptional(["contact": true]), now: .seconds(1))
        }
        #expect(error?.code == .stepMismatch)
        #expect(session.optionalAnswers.isEmpty)
    }

    @Test func aStudyWithoutTheExtensionGoesFromTheScenesToTheReviewAsBefore() throws {
        let study = try Self.study(extensions: [], files: [:]).load()
        #expect(study.document.optionalElements.isEmpty && study.diagnostics.isEmpty)
        var session = try Self.atOptional(study)
        #expect(session.step == .reviewStep && session.reviewPage == .document)
        try session.apply(.back(.reviewStep), now: .seconds(4))
        #expect(session.step == .visual)
        #expect(!ReviewDocument.html(for: study).contains("Optional parts"))
    }

    @Test func aWithdrawalNeverAsksThem() throws {
        let study = try Self.study().load()
        let target = WithdrawalTarget(recordID: "r-1", studyTitle: "T", signedOn: "2026-01-01")
        var withdrawal = ConsentSession(id: "w", study: study, now: .zero, purpose: .withdrawal(target))
        #expect(withdrawal.optionalElements.isEmpty)
        try withdrawal.apply(.confirmWithdrawal(reason: nil), now: .seconds(1))
        #expect(withdrawal.step == .reviewStep && withdrawal.reviewPage == .name)
    }

    @Test func theOutcomeCarriesEveryAnswerInTheStudysOrderAndAnEndedFlowForgetsThem() throws {
        let study = try Self.study().load()
        var session = try Self.atOptional(study)
        try session.apply(.answerOptional(["contact": true, "future-research": false]), now: .seconds(4))
        try session.apply(.agree, now: .seconds(5))
        try session.apply(.setName(given: "Ada", family: "Lovelace"), now: .seconds(6))
        try session.apply(.submitSignature(ConsentSessionTests.strokes), now: .seconds(7))
        if session.step == .passcode { try session.apply(.setPasscode("1234"), now: .seconds(8)) }
        #expect(session.step == .done)
        let outcome = try session.outcome()
        #expect(outcome.optionalAnswers.map(\.element.id) == ["future-research", "contact"])
        #expect(outcome.optionalAnswers.map(\.accepted) == [false, true])

        var declined = try Self.atOptional(study)
        try declined.apply(.answerOptional(["contact": true]), now: .seconds(4))
        try declined.apply(.decline, now: .seconds(5))
        #expect(declined.optionalAnswers.isEmpty)
    }

    // MARK: The review document

    @Test func theReviewDocumentListsEveryElementWithItsAnswerAsCheckboxes() throws {
        let study = try Self.study().load()
        var session = try Self.atOptional(study)
        try session.apply(.answerOptional(["future-research": true, "contact": false]), now: .seconds(4))
        let html = try #require(session.viewModel.review?.html)
        let heading = try #require(html.range(of: "<h3>Optional parts</h3>"))
        let document = try #require(html.range(of: "Call us."))
        #expect(document.upperBound < heading.lowerBound)
        #expect(html.contains("<p><b>Future research</b><br>May we keep your data?<br>\u{2612} Yes   \u{2610} No</p>"))
        #expect(html.contains("<p><b>Contact</b><br>May we call you about other studies?<br>\u{2610} Yes   \u{2612} No</p>"))
        // Study texts are text, not markup.
        let marked = try Self.study(extensions: [Self.element("a", title: "<script>x</script>")]).load()
        let answers = [OptionalElementAnswer(element: try #require(marked.document.optionalElements.first), accepted: true)]
        #expect(ReviewDocument.optionalAnswersHTML(answers, study: marked).contains("&lt;script&gt;"))
    }

    @Test func theWordsAreInTheConsentsLanguage() {
        #expect(ReviewDocument.checkboxes(true, language: "de") == "\u{2612} Ja   \u{2610} Nein")
        #expect(ReviewDocument.checkboxes(false, language: "fr") == "\u{2610} Oui   \u{2612} Non")
        #expect(ReviewDocument.checkboxes(true, language: "es") == "\u{2612} Sí   \u{2610} No")
        #expect(BuiltInTexts(language: "de").optionalTitle == "Freiwillige Zusatzteile")
        #expect(BuiltInTexts(language: "fr").optionalTitle == "Volets facultatifs")
        #expect(BuiltInTexts(language: "es").optionalTitle == "Partes opcionales")
        for language in BuiltInTexts.supportedLanguages {
            #expect(!BuiltInTexts(language: language).optionalText.isEmpty, "\(language)")
        }
    }

    // MARK: The sample study

    @Test func theSampleStudyHasTwoOptionalElementsInEveryLanguageWithTheSameIDsAndCodes() throws {
        let folder = try #require(SampleStudy.folder)
        let study = try Study.load(from: folder)
        var titles: Set<String> = []
        for language in ["en", "de", "fr", "es"] {
            let translated = try #require(study.inLanguage(language))
            let elements = translated.document.optionalElements
            #expect(elements.map(\.id) == ["future-research", "contact-other-studies"], "\(language)")
            #expect(elements.map(\.code.code) == ["future-research", "recontact"], "\(language)")
            #expect(elements[0].htmlContent != nil, "\(language)")
            titles.insert(elements[0].title)
            #expect(!translated.diagnostics.contains { $0.code == .untranslated || $0.severity == .error }, "\(language)")
        }
        #expect(titles.count == 4)
        #expect(StudyLint.check(folder).allSatisfy { $0.diagnostics.isEmpty })
    }
}
