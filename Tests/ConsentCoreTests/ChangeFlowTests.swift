import ConsentCore
import Foundation
import Testing

/// A change of a record's answers to the optional elements (`FlowPurpose.change`): the flow starts at `optional`
/// with the record's answers, goes on only once one differs, asks the name and signature alone, and its outcome
/// amends the record with every answer as it now stands.
@Suite struct ChangeFlowTests {
    static func basis(passcode: PasscodeHash? = nil) -> ChangeBasis {
        ChangeBasis(
            recordID: "r-1", studyTitle: "Heartbeat", signedOn: "2026-01-01", signedOnText: "1 January 2026",
            answers: ["future-research": true, "contact": false], passcode: passcode)
    }

    static func change(options: JSONValue = ["askForSharing": false, "askToCreatePasscode": true]) throws -> ConsentSession {
        let study = try OptionalElementTests.study(options: options).load()
        return ConsentSession(id: "c", study: study, now: .zero, purpose: .change(basis()), staffCountersignature: true)
    }

    @Test func itStartsAtTheOptionalStepWithTheRecordsAnswers() throws {
        let session = try Self.change()
        #expect(session.step == .optional)
        #expect(session.optionalAnswers == ["future-research": true, "contact": false])
        #expect(!session.changesAnswers)
        #expect(session.offer.actions.filter { $0 != .askStaff } == [.optionalAnswer, .cancel])
        let view = session.viewModel
        #expect(view.title == "Change Your Answers")
        #expect(view.optional?.amends == "r-1")
        #expect(view.optional?.text.contains("1 January 2026") == true && view.optional?.text.contains("Heartbeat") == true)
        #expect(view.optional?.elements.map(\.answer) == [true, false])
    }

    @Test func theSameAnswersAgainAreRefusedAndChangeNothing() throws {
        var session = try Self.change()
        #expect(throws: ConsentCoreError(.invalidAnswers, "")) {
            try session.apply(.answerOptional(["future-research": true]), now: .seconds(1))
        }
        #expect(throws: ConsentCoreError(.invalidAction, "")) { try session.apply(.next(.optional), now: .seconds(1)) }
        #expect(throws: ConsentCoreError(.invalidAction, "")) { try session.apply(.decline, now: .seconds(1)) }
        #expect(session.step == .optional && session.lastActivity == .zero)
    }

    @Test func oneChangedAnswerLeadsToTheNameAndSignatureAloneAndTheOutcomeAmendsTheRecord() throws {
        var session = try Self.change()
        try session.apply(.answerOptional(["contact": true]), now: .seconds(1))
        #expect(session.step == .reviewStep && session.reviewPage == .name)
        #expect(session.reviewPages == [.name, .signature])
        #expect(!session.offer.actions.contains(.decline))
        try session.apply(.back(.reviewStep), now: .seconds(2))
        #expect(session.step == .optional && session.optionalAnswers["contact"] == true)
        #expect(session.offer.actions.contains(.next))
        try session.apply(.next(.optional), now: .seconds(3))
        try session.apply(.setName(given: "Ada", family: "Lovelace"), now: .seconds(4))
        try session.apply(.submitSignature(ConsentSessionTests.strokes), now: .seconds(5))
        // No passcode step and no staff step, though the study asks for both in a consent.
        #expect(session.step == .done)
        // The closing screens speak of the changed choices, not of a consent.
        #expect(session.viewModel.end?.message == ScreenTexts.english.doneMessage(button: "Finish", saving: .change))
        #expect(session.viewModel.end?.message.contains("changed choices") == true)
        let outcome = try session.outcome()
        #expect(outcome.link?.kind == .change && outcome.link?.recordID == "r-1")
        #expect(outcome.optionalAnswers.map(\.element.id) == ["future-research", "contact"])
        #expect(outcome.optionalAnswers.map(\.accepted) == [true, true])
        #expect(outcome.comprehension == nil && outcome.personObtainingConsent == nil)
        try session.markCompleted()
        #expect(session.viewModel.end?.message == ScreenTexts.english.changeCompletedMessage)
    }

    @Test func theRecordsPasscodeIsCarriedIntoTheOutcome() throws {
        let study = try OptionalElementTests.study().load()
        let hash = try PasscodeHash(passcode: "2468")
        var session = ConsentSession(id: "c", study: study, now: .zero, purpose: .change(Self.basis(passcode: hash)))
        try session.apply(.answerOptional(["future-research": false]), now: .seconds(1))
        try session.apply(.setName(given: "Ada", family: "Lovelace"), now: .seconds(2))
        try session.apply(.submitSignature(ConsentSessionTests.strokes), now: .seconds(3))
        #expect(try session.outcome().passcodeHash == hash)
    }

    @Test(arguments: ["en", "de", "fr", "es"])
    func theChangeTextsAreInEveryLanguage(_ language: String) {
        let texts = BuiltInTexts(language: language)
        let text = texts.changeText(studyTitle: "S", signedOn: "D")
        #expect(text.contains("S") && text.contains("D") && !text.contains("{"))
        let document = texts.changeDocumentText(studyTitle: "S", signedOn: "D", record: "R")
        #expect(document.contains("R") && !document.contains("{"))
        #expect(!texts.changeTitle.isEmpty && !texts.changeDocumentTitle.isEmpty && !texts.changeSignaturePageContent.isEmpty)
        if language != "en" { #expect(texts.changeTitle != BuiltInTexts(language: "en").changeTitle) }
    }
}
