import ConsentCore
import Foundation
import SampleStudy
import Testing

/// The comprehension check: reading the questions from the Contract (and what lint says about bad ones), and the
/// session's step between the review document and the name.
@Suite struct ComprehensionTests {
    static func question(
        _ text: String = "How long?", choices: [String] = ["A day", "A week"], answer: Int? = 1,
        explanation: String? = "It lasts a week.", section: Int? = 0
    ) -> JSONValue {
        var entries: [JSONValue] = [["url": "question", "valueString": .string(text)]]
        entries += choices.map { ["url": "choice", "valueString": .string($0)] }
        if let answer { entries.append(["url": "answer", "valueInteger": .integer(Int64(answer))]) }
        if let explanation { entries.append(["url": "explanation", "valueString": .string(explanation)]) }
        if let section { entries.append(["url": "section", "valueInteger": .integer(Int64(section))]) }
        return ["url": .string(ComprehensionQuestion.extensionURL), "extension": .array(entries)]
    }

    /// A study of two sections with HTML and one without, asking `questions`.
    static func study(_ questions: [JSONValue], options: JSONValue = ["askForSharing": false]) throws -> Study {
        var contract = ContractJSON.contract(terms: [
            ContractJSON.term("Overview", ext: [ContractJSON.html("<p>A week.</p>")]),
            ContractJSON.term("Privacy", ext: [ContractJSON.html("<p>Coded.</p>")]),
            ContractJSON.term("DataGathering"),
        ])
        contract.set("extension", .array(questions))
        return try TemporaryStudy(contract: contract, options: options).load()
    }

    static let strokes = ConsentSessionTests.strokes

    /// A session at the review document of `study`.
    static func atDocument(_ study: Study) throws -> ConsentSession {
        var s = ConsentSession(id: "f", study: study, now: .zero)
        try s.apply(.next(.eligibility), now: .seconds(1))
        while s.step == .visual { try s.apply(.next(.visual), now: .seconds(1)) }
        #expect(s.step == .reviewStep && s.reviewPage == .document)
        return s
    }

    // MARK: Reading and lint

    @Test func theSampleStudyAsksThreeQuestionsInEveryLanguage() throws {
        let study = try Study.load(from: try #require(SampleStudy.folder))
        for language in ["en", "de", "fr"] {
            let translated = try #require(study.inLanguage(language))
            #expect(translated.document.comprehension.count == 3, "\(language)")
            #expect(translated.document.comprehension.map(\.answer) == [1, 1, 0])
            #expect(translated.document.comprehension.map(\.termIndex) == [3, 4, 6])
            #expect(!translated.diagnostics.contains { $0.code.rawValue.hasPrefix("comprehension") }, "\(language)")
        }
        #expect(study.inLanguage("de")?.document.comprehension.first?.question == "Wie lange dauert die Studie?")
        #expect(study.options.comprehension == ComprehensionPolicy(attempts: 2, onRepeatedMiss: .continue))
    }

    @Test func aQuestionIsReadWithItsChoicesAnswerExplanationAndSection() throws {
        let study = try Self.study([Self.question(choices: ["A", "B", "C"], answer: 2, section: 1)])
        let question = try #require(study.document.comprehension.first)
        #expect(question == ComprehensionQuestion(
            index: 0, question: "How long?", choices: ["A", "B", "C"], answer: 2, explanation: "It lasts a week.", subject: .term(1)))
        #expect(!study.diagnostics.contains { $0.code.rawValue.hasPrefix("comprehension") })
    }

    /// A question about the key information (`"section": "keyInformation"`): read, and after a wrong answer the key
    /// information is shown again under its heading; a study without key information leaves it out with an error.
    @Test func aQuestionMayBeAboutTheKeyInformation() throws {
        var question = Self.question(section: nil)
        if case .array(var entries)? = question["extension"] {
            entries.append(["url": "section", "valueString": "keyInformation"])
            question.set("extension", .array(entries))
        }
        let folder = try KeyInformationTests.study(extensions: [KeyInformationTests.keyExtension("key"), question])
        let study = try folder.load()
        let read = try #require(study.document.comprehension.first)
        #expect(read.subject == .keyInformation && read.termIndex == nil)
        #expect(!study.diagnostics.contains { $0.code.rawValue.hasPrefix("comprehension") }, "\(study.diagnostics)")

        var s = ConsentSession(id: "f", study: study, now: .zero)
        try s.apply(.answerEligibility([]), now: .seconds(1))
        try s.apply(.next(.eligibility), now: .seconds(1))
        try s.apply(.next(.keyInformation), now: .seconds(1))
        while s.step == .visual { try s.apply(.next(.visual), now: .seconds(1)) }
        try s.apply(.agree, now: .seconds(2))
        try s.apply(.answerComprehension(question: 0, choice: 0), now: .seconds(3))
        let explained = try #require(s.viewModel.comprehension)
        #expect(explained.phase == .explanation)
        #expect(explained.sectionHTML == KeyInformationTests.page)
        #expect(explained.sectionTitle == study.texts.keyInformationTitle)

        let without = try Self.study([question])
        #expect(without.document.comprehension.isEmpty)
        let error = try #require(without.diagnostics.first { $0.code == .comprehensionInvalid })
        #expect(error.message.contains("about the key information, which the study does not have"), "\(error.message)")
        var misspelt = Self.question(section: nil)
        if case .array(var entries)? = misspelt["extension"] {
            entries.append(["url": "section", "valueString": "key"])
            misspelt.set("extension", .array(entries))
        }
        #expect(try Self.study([misspelt]).diagnostics.contains { $0.message.contains("may only be \"keyInformation\"") })
    }

    @Test(arguments: [
        (ComprehensionTests.question(answer: 2), "its answer 2 is not the index of one of its 2 choices"),
        (ComprehensionTests.question(answer: nil), "it has no \"answer\""),
        (ComprehensionTests.question(explanation: nil), "it has no \"explanation\""),
        (ComprehensionTests.question(section: nil), "it has no \"section\""),
        (ComprehensionTests.question(section: 7), "its section 7 names no section"),
        (ComprehensionTests.question(section: 2), "its section 2 has no HTML"),
        (ComprehensionTests.question(choices: ["Only one"], answer: 0), "it needs at least two \"choice\" entries, found 1"),
    ])
    func aBadQuestionIsLeftOutWithAnError(_ question: JSONValue, _ message: String) throws {
        let study = try Self.study([Self.question(), question])
        #expect(study.document.comprehension.count == 1)
        let diagnostic = try #require(study.diagnostics.first { $0.code == .comprehensionInvalid })
        #expect(diagnostic.severity == .error)
        #expect(diagnostic.file == "contract.json" && diagnostic.location == "extension[1]")
        #expect(diagnostic.message.contains("comprehension question 2 is left out: \(message)"), "\(diagnostic.message)")
    }

    @Test func lintNamesAMissingAndAMismatchedTranslation() throws {
        var contract = ContractJSON.contract(terms: [ContractJSON.term("Overview", ext: [ContractJSON.html("<p>x</p>")])])
        contract.set("extension", [Self.question(section: 0)])
        let temporary = try TemporaryStudy(contract: contract)
        var german = contract
        german.set("language", "de")
        german.set("extension", nil)
        try temporary.write("de/contract.json", data: german.serialized())
        var french = contract
        french.set("language", "fr")
        french.set("extension", [Self.question(choices: ["Un jour", "Une semaine"], answer: 0, section: 0)])
        try temporary.write("fr/contract.json", data: french.serialized())
        let results = StudyLint.check(temporary.folder)
        #expect(results.map(\.language) == ["en", "de", "fr"])
        // This study has no key information: lint's warning for it, and nothing else.
        #expect(results[0].diagnostics.map(\.code) == [.keyInformationMissing])
        let missing = try #require(results[1].diagnostics.first { $0.code == .comprehensionUntranslated })
        #expect(missing.severity == .error && missing.file == "de/contract.json")
        #expect(missing.message.contains("de: the comprehension questions are not translated"))
        let mismatch = try #require(results[2].diagnostics.first { $0.code == .comprehensionUntranslated })
        #expect(mismatch.message.contains("fr: comprehension question 1 differs"))
    }

    @Test func thePolicyIsReadFromOptionsAndBadOnesAreRefused() throws {
        let study = try Self.study(
            [Self.question()], options: ["askForSharing": false, "comprehension": ["attempts": 3, "onRepeatedMiss": "stop"]])
        #expect(study.options.comprehension == ComprehensionPolicy(attempts: 3, onRepeatedMiss: .stop))
        for bad: JSONValue in [["attempts": 0], ["attempts": 6], ["onRepeatedMiss": "skip"], ["tries": 2], "stop"] {
            #expect(throws: ConsentCoreError(.invalidConfiguration, "")) {
                try Self.study([Self.question()], options: ["askForSharing": false, "comprehension": bad])
            }
        }
    }

    // MARK: The session

    @Test func aRightAnswerGoesOnAndTheLastOneToTheName() throws {
        var s = try Self.atDocument(try Self.study([Self.question(), Self.question("Coded?", choices: ["Yes", "No"], answer: 0, section: 1)]))
        try s.apply(.agree, now: .seconds(2))
        #expect(s.step == .comprehension)
        let first = try #require(s.viewModel.comprehension)
        #expect(first.index == 0 && first.count == 2 && first.phase == .question && first.choices == ["A day", "A week"])
        #expect(first.progress == "Question 1 of 2" && first.attempt == 0 && first.attempts == 2)
        #expect(first.explanation == nil && first.sectionHTML == nil && first.chosen == nil)
        #expect(s.viewModel.actions == [.comprehensionAnswer, .back, .decline, .cancel, .askStaff])
        #expect(s.viewModel.labels["comprehensionAnswer"] == "Answer")
        try s.apply(.answerComprehension(question: 0, choice: 1), now: .seconds(3))
        #expect(s.step == .comprehension && s.viewModel.comprehension?.index == 1)
        try s.apply(.answerComprehension(question: 1, choice: 0), now: .seconds(4))
        #expect(s.step == .reviewStep && s.reviewPage == .name && s.viewModel.comprehensionFlagged == nil)
        try s.apply(.setName(given: "Ada", family: "Lovelace"), now: .seconds(5))
        try s.apply(.submitSignature(Self.strokes), now: .seconds(6))
        let outcome = try #require(try s.outcome().comprehension)
        #expect(outcome.results.map(\.attempts) == [[1], [0]])
        #expect(outcome.results.allSatisfy(\.understood) && !outcome.flaggedForStaff)
    }

    @Test func aWrongAnswerShowsTheExplanationAndTheSectionThenAsksAgain() throws {
        let study = try Self.study([Self.question()])
        var s = try Self.atDocument(study)
        try s.apply(.agree, now: .seconds(2))
        try s.apply(.answerComprehension(question: 0, choice: 0), now: .seconds(3))
        let explained = try #require(s.viewModel.comprehension)
        #expect(explained.phase == .explanation && explained.chosen == 0 && explained.attempt == 1)
        #expect(explained.explanation == "It lasts a week." && explained.sectionHTML == "<p>A week.</p>")
        #expect(explained.sectionTitle == study.document.sections[0].title && explained.text.hasPrefix("That is not quite right."))
        #expect(s.viewModel.actions == [.next, .back, .decline, .cancel, .askStaff])
        #expect(s.viewModel.labels["next"] == "Try Again")
        // The screen shows the explanation: an answer now is a stale tap.
        #expect(throws: ConsentCoreError(.stepMismatch, "")) { try s.apply(.answerComprehension(question: 0, choice: 1), now: .seconds(4)) }
        try s.apply(.next(.comprehension), now: .seconds(4))
        #expect(s.viewModel.comprehension?.phase == .question && s.viewModel.comprehension?.attempt == 1)
        try s.apply(.answerComprehension(question: 0, choice: 1), now: .seconds(5))
        #expect(s.step == .reviewStep && s.reviewPage == .name)
        #expect(s.comprehension.attempts == [[0, 1]])
    }

    @Test func repeatedMissesContinueAndFlagTheRecord() throws {
        var s = try Self.atDocument(try Self.study([Self.question(), Self.question("Coded?", choices: ["Yes", "No"], answer: 0, section: 1)]))
        try s.apply(.agree, now: .seconds(2))
        try s.apply(.answerComprehension(question: 0, choice: 0), now: .seconds(3))
        try s.apply(.next(.comprehension), now: .seconds(3))
        try s.apply(.answerComprehension(question: 0, choice: 0), now: .seconds(3))
        let last = try #require(s.viewModel.comprehension)
        #expect(last.phase == .explanation && last.attempt == 2)
        #expect(last.text == ComprehensionTexts.english.continueMessage)
        #expect(s.viewModel.labels["next"] == "Continue")
        #expect(s.viewModel.comprehensionFlagged == nil)  // not before the flow went on
        try s.apply(.next(.comprehension), now: .seconds(4))
        #expect(s.viewModel.comprehension?.index == 1 && s.viewModel.comprehension?.phase == .question)
        #expect(s.viewModel.comprehensionFlagged == true)
        try s.apply(.answerComprehension(question: 1, choice: 0), now: .seconds(5))
        #expect(s.reviewPage == .name && s.viewModel.comprehensionFlagged == true)
        try s.apply(.setName(given: "Ada", family: "Lovelace"), now: .seconds(5))
        try s.apply(.submitSignature(Self.strokes), now: .seconds(6))
        let outcome = try #require(try s.outcome().comprehension)
        #expect(outcome.results.map(\.attempts) == [[0, 0], [0]])
        #expect(outcome.results.map(\.understood) == [false, true])
        #expect(outcome.flaggedForStaff && outcome.policy.onRepeatedMiss == .continue)
    }

    @Test func repeatedMissesStopAndOnlyTheStaffGoOn() throws {
        let study = try Self.study(
            [Self.question()], options: ["askForSharing": false, "comprehension": ["attempts": 1, "onRepeatedMiss": "stop"]])
        var s = try Self.atDocument(study)
        try s.apply(.agree, now: .seconds(2))
        try s.apply(.answerComprehension(question: 0, choice: 0), now: .seconds(3))
        let stopped = try #require(s.viewModel.comprehension)
        #expect(stopped.phase == .stopped && stopped.text == ComprehensionTexts.english.stoppedMessage)
        #expect(stopped.explanation == "It lasts a week." && stopped.sectionHTML == "<p>A week.</p>")
        #expect(s.viewModel.actions == [.decline, .cancel, .askStaff])
        // A member of staff is called at once (ConsentSession+StaffCall.swift).
        #expect(s.staffCall == StaffCall(since: .seconds(3), reason: .comprehensionStopped))
        #expect(s.viewModel.staffCall?.reason == "comprehensionStopped")
        for action: ConsentAction in [.next(.comprehension), .back(.comprehension), .answerComprehension(question: 0, choice: 1)] {
            #expect(throws: (any Error).self) { var c = s; try c.apply(action, now: .seconds(4)) }
        }
        try s.apply(.cancel, now: .seconds(5))
        #expect(s.step == .cancelled && s.comprehension.attempts == [[]])
    }

    @Test func badAnswersAreTypedErrorsAndChangeNothing() throws {
        var s = try Self.atDocument(try Self.study([Self.question()]))
        #expect(throws: ConsentCoreError(.stepMismatch, "")) { var c = s; try c.apply(.answerComprehension(question: 0, choice: 1), now: .seconds(1)) }
        try s.apply(.agree, now: .seconds(2))
        #expect(throws: ConsentCoreError(.invalidField, "")) { var c = s; try c.apply(.answerComprehension(question: 0, choice: 2), now: .seconds(3)) }
        #expect(throws: ConsentCoreError(.stepMismatch, "")) { var c = s; try c.apply(.answerComprehension(question: 1, choice: 0), now: .seconds(3)) }
        #expect(throws: ConsentCoreError(.invalidAction, "")) { var c = s; try c.apply(.next(.comprehension), now: .seconds(3)) }
        #expect(s.comprehension.attempts == [[]] && s.deadline == .seconds(2) + s.inactivityTimeout)
    }

    @Test func backReturnsToTheDocumentAndAgreeResumesTheCheck() throws {
        var s = try Self.atDocument(try Self.study([Self.question(), Self.question(section: 1)]))
        try s.apply(.agree, now: .seconds(2))
        try s.apply(.answerComprehension(question: 0, choice: 1), now: .seconds(3))
        try s.apply(.back(.comprehension), now: .seconds(4))
        #expect(s.step == .reviewStep && s.reviewPage == .document)
        try s.apply(.agree, now: .seconds(5))
        #expect(s.step == .comprehension && s.viewModel.comprehension?.index == 1)
        try s.apply(.answerComprehension(question: 1, choice: 1), now: .seconds(6))
        // Once understood, going back to the document and agreeing again does not ask again.
        try s.apply(.back(.reviewStep), now: .seconds(7))
        try s.apply(.agree, now: .seconds(8))
        #expect(s.step == .reviewStep && s.reviewPage == .name)
    }

    @Test func endingTheFlowForgetsTheAnswers() throws {
        var s = try Self.atDocument(try Self.study([Self.question()]))
        try s.apply(.agree, now: .seconds(2))
        try s.apply(.answerComprehension(question: 0, choice: 0), now: .seconds(3))
        try s.apply(.decline, now: .seconds(4))
        #expect(s.step == .declined && s.comprehension.attempts == [[]])
    }

    @Test(arguments: ["en", "de", "fr"])
    func theScreenSpeaksTheFlowsLanguage(_ language: String) throws {
        let sample = try Study.load(from: try #require(SampleStudy.folder))
        let study = try #require(sample.inLanguage(language))
        var s = ConsentSession(id: "f", study: study, now: .zero)
        try s.apply(.answerEligibility([true, true, false, true]), now: .seconds(1))
        try s.apply(.next(.eligibility), now: .seconds(1))
        try s.apply(.next(.keyInformation), now: .seconds(1))
        while s.step == .visual { try s.apply(.next(.visual), now: .seconds(1)) }
        try s.apply(.chooseSharing(shareWidely: true), now: .seconds(1))
        try s.apply(.answerOptional(["future-research": true, "contact-other-studies": false]), now: .seconds(1))
        try s.apply(.agree, now: .seconds(1))
        let texts = ComprehensionTexts(language: language)
        #expect(s.viewModel.title == texts.title && s.viewModel.comprehension?.text == texts.instruction)
        try s.apply(.answerComprehension(question: 0, choice: 0), now: .seconds(2))
        let view = try #require(s.viewModel.comprehension)
        #expect(view.explanation == study.document.comprehension[0].explanation)
        #expect(view.sectionHeading == texts.sectionHeading && view.text == texts.tryAgainMessage)
        #expect(s.viewModel.labels["next"] == texts.tryAgain)
        #expect(Set(s.viewModel.labels.keys) == StepViewModel.labelKeys(for: s.viewModel.actions))
    }

    @Test func aWithdrawalAsksNoQuestions() throws {
        let study = try Study.load(from: try #require(SampleStudy.folder))
        let s = ConsentSession(
            id: "w", study: study, now: .zero,
            purpose: .withdrawal(WithdrawalTarget(recordID: "r", studyTitle: "T", signedOn: "2026-09-14")))
        #expect(s.comprehension.questions.isEmpty && s.comprehension.isComplete)
    }
}
