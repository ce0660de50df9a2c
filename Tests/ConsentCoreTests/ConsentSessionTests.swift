import ConsentCore
import Foundation
import SampleStudy
import Testing

@Suite struct ConsentSessionTests {
    static let strokes = SignatureStrokes(strokes: [[StrokePoint(x: 0.1, y: 0.5, t: 0, p: 0.4), StrokePoint(x: 0.6, y: 0.4, t: 120, p: 0.5)]])

    func sample() throws -> Study { try Study.load(from: try #require(SampleStudy.folder)) }

    /// Walks the sample study from the start to the review document.
    func toReview(_ s: inout ConsentSession) throws {
        try s.apply(.answerEligibility([true, true, false, true]), now: .seconds(1))
        try s.apply(.next(.eligibility), now: .seconds(2))
        try s.apply(.next(.keyInformation), now: .seconds(2))
        for _ in 0..<s.study.document.visualSections.count { try s.apply(.next(.visual), now: .seconds(3)) }
        try s.apply(.chooseSharing(shareWidely: true), now: .seconds(4))
        try s.apply(.answerOptional(["future-research": true, "contact-other-studies": false]), now: .seconds(4))
    }

    @Test func completeConsentCollectsTheOutcome() throws {
        var s = ConsentSession(id: "f1", study: try sample(), now: .zero)
        #expect(s.step == .eligibility)
        #expect(s.viewModel.eligibility?.questions.count == 4)
        try s.apply(.answerEligibility([true, true, false, true]), now: .seconds(1))
        #expect(s.eligibilityStatus == .eligible)
        #expect(s.viewModel.actions.contains(.next))
        try s.apply(.next(.eligibility), now: .seconds(2))
        // The sample study begins with its key information, then the scenes.
        #expect(s.step == .keyInformation)
        try s.apply(.next(.keyInformation), now: .seconds(2))
        #expect(s.step == .visual)
        let scenes = s.study.document.visualSections
        #expect(scenes.count == 7)
        var titles: [String?] = []
        for i in 0..<scenes.count {
            #expect(s.viewModel.scene?.index == i)
            titles.append(s.viewModel.scene?.title)
            try s.apply(.next(.visual), now: .seconds(3))
        }
        #expect(titles == scenes.map(\.title))
        #expect(s.step == .sharing)
        let sharing = try #require(s.viewModel.sharing)
        #expect(sharing.choices.map(\.shareWidely) == [true, false])
        #expect(sharing.choices[0].text == "Share my data with The Heartbeat & Sleep Study Team and qualified researchers worldwide")
        #expect(sharing.choices[1].text == "Only share my data with The Heartbeat & Sleep Study Team")
        try s.apply(.chooseSharing(shareWidely: false), now: .seconds(4))
        try s.apply(.answerOptional(["future-research": true, "contact-other-studies": false]), now: .seconds(4))
        #expect(s.step == .reviewStep && s.reviewPage == .document)
        let review = try #require(s.viewModel.review?.html)
        #expect(review.hasPrefix("<h1>Review</h1>"))
        #expect(review.contains("Study Tasks"))  // every section of the (lint-clean) sample has HTML
        #expect(review.contains("Compensation and Contacts"))
        try s.agreeAndUnderstand(now: .seconds(5))
        try s.apply(.setName(given: "  Zoë ", family: "Müller"), now: .seconds(6))
        #expect(s.reviewPage == .signature)
        #expect(s.viewModel.review?.hasName == true)
        try s.apply(.submitSignature(Self.strokes), now: .seconds(7))
        #expect(s.step == .done)
        let outcome = try s.outcome()
        #expect(outcome.givenName == "Zoë" && outcome.familyName == "Müller")
        #expect(outcome.friendlyName == "Zoë Müller")
        #expect(outcome.shareWidely == false)  // semantic: "only the team" is false, fixing C3's inversion
        #expect(outcome.signature == Self.strokes)
        #expect(outcome.studyVersion == s.study.version)
        try s.markCompleted()
        #expect(s.step == .completed)
        #expect(s.givenName == nil && s.signature == nil)
    }

    @Test func ineligibleEndsTheFlowWithTheMessage() throws {
        var s = ConsentSession(id: "f", study: try sample(), now: .zero)
        try s.apply(.answerEligibility([true, true, true, true]), now: .seconds(1))
        #expect(s.step == .ineligible)
        #expect(s.viewModel.end?.message == EligibilityMessages.defaults.ineligibleMessage)
        #expect(throws: ConsentCoreError(.flowFinished, "")) { var c = s; try c.apply(.next(.eligibility), now: .seconds(2)) }
    }

    @Test func incompleteAnswersStayAtEligibility() throws {
        var s = ConsentSession(id: "f", study: try sample(), now: .zero)
        try s.apply(.answerEligibility([true, nil]), now: .seconds(1))
        #expect(s.step == .eligibility && s.eligibilityStatus == .incomplete)
        #expect(throws: ConsentCoreError(.notEligible, "")) { var c = s; try c.apply(.next(.eligibility), now: .seconds(2)) }
        #expect(throws: ConsentCoreError(.invalidAnswers, "")) {
            try s.apply(.answerEligibility([true, true, false, true, true]), now: .seconds(2))
        }
    }

    @Test func disagreeDeclinesAndWipes() throws {
        var s = ConsentSession(id: "f", study: try sample(), now: .zero)
        try toReview(&s)
        try s.apply(.disagree, now: .seconds(5))
        #expect(s.step == .declined)
        #expect(s.shareWidely == nil && s.answers.allSatisfy { $0 == nil })
    }

    @Test func declineAfterSigningWipesNameSignatureAndPIN() throws {
        var options = try sample()
        options.options.askToCreatePasscode = true
        var s = ConsentSession(id: "f", study: options, now: .zero)
        try toReview(&s)
        try s.agreeAndUnderstand(now: .seconds(5))
        try s.apply(.setName(given: "A", family: "B"), now: .seconds(5))
        try s.apply(.submitSignature(Self.strokes), now: .seconds(5))
        #expect(s.step == .passcode)
        #expect(throws: ConsentCoreError(.invalidPasscode, "")) { var c = s; try c.apply(.setPasscode("12a4"), now: .seconds(6)) }
        try s.apply(.setPasscode("2468"), now: .seconds(6))
        #expect(s.step == .done)
        #expect(try s.outcome().passcodeHash?.matches("2468") == true)
        #expect(try s.outcome().passcodeHash?.matches("2469") == false)
        try s.apply(.decline, now: .seconds(7))
        #expect(s.step == .declined)
        #expect(s.givenName == nil && s.familyName == nil && s.signature == nil && s.passcodeHash == nil)
    }

    @Test func backAndNextMoveThroughScenesAndPages() throws {
        var s = ConsentSession(id: "f", study: try sample(), now: .zero)
        try s.apply(.answerEligibility([true, true, false, true]), now: .seconds(1))
        try s.apply(.next(.eligibility), now: .seconds(1))
        try s.apply(.next(.keyInformation), now: .seconds(1))
        try s.apply(.next(.visual), now: .seconds(1))
        try s.apply(.next(.visual), now: .seconds(1))
        #expect(s.sceneIndex == 2)
        try s.apply(.back(.visual), now: .seconds(1))
        try s.apply(.back(.visual), now: .seconds(1))
        #expect(s.step == .visual && s.sceneIndex == 0)
        try s.apply(.back(.visual), now: .seconds(1))
        #expect(s.step == .keyInformation)
        try s.apply(.back(.keyInformation), now: .seconds(1))
        #expect(s.step == .eligibility && s.eligibilityStatus == .eligible)
        try s.apply(.next(.eligibility), now: .seconds(1))
        try s.apply(.next(.keyInformation), now: .seconds(1))
        for _ in 0..<7 { try s.apply(.next(.visual), now: .seconds(1)) }
        try s.apply(.back(.sharing), now: .seconds(1))
        #expect(s.step == .visual && s.sceneIndex == 6)
        try s.apply(.next(.visual), now: .seconds(1))
        try s.apply(.chooseSharing(shareWidely: true), now: .seconds(1))
        try s.apply(.answerOptional(["future-research": true, "contact-other-studies": false]), now: .seconds(1))
        try s.agreeAndUnderstand(now: .seconds(1))
        try s.apply(.back(.reviewStep), now: .seconds(1))
        #expect(s.reviewPage == .document)
        try s.apply(.back(.reviewStep), now: .seconds(1))
        // The sample study's optional elements come between sharing and the review document, their answers kept.
        #expect(s.step == .optional && s.viewModel.optional?.elements.map(\.answer) == [true, false])
        try s.apply(.back(.optional), now: .seconds(1))
        #expect(s.step == .sharing && s.viewModel.sharing?.selected == true)
    }

    @Test func actionForAnotherStepIsATypedError() throws {
        var s = ConsentSession(id: "f", study: try sample(), now: .zero)
        for action: ConsentAction in [.next(.visual), .chooseSharing(shareWidely: true), .agree, .setPasscode("1234"), .submitSignature(Self.strokes)] {
            #expect(throws: ConsentCoreError(.stepMismatch, "")) { var c = s; try c.apply(action, now: .seconds(1)) }
        }
        try toReview(&s)
        #expect(throws: ConsentCoreError(.stepMismatch, "")) { var c = s; try c.apply(.submitSignature(Self.strokes), now: .seconds(5)) }
        #expect(throws: ConsentCoreError(.stepMismatch, "")) { try s.requireSignaturePage() }
        try s.agreeAndUnderstand(now: .seconds(5))
        #expect(throws: ConsentCoreError(.missingName, "")) { var c = s; try c.apply(.setName(given: " ", family: "B"), now: .seconds(5)) }
        #expect(throws: ConsentCoreError(.missingName, "")) { var c = s; try c.apply(.next(.reviewStep), now: .seconds(5)) }
        try s.apply(.setName(given: "A", family: "B"), now: .seconds(5))
        try s.requireSignaturePage()
        #expect(throws: ConsentCoreError(.missingSignature, "")) {
            try s.apply(.submitSignature(SignatureStrokes(strokes: [[]])), now: .seconds(5))
        }
        #expect(throws: ConsentCoreError(.invalidField, "")) {
            try s.apply(.submitSignature(SignatureStrokes(strokes: [[StrokePoint(x: 1.5, y: 0, t: 0)]])), now: .seconds(5))
        }
        #expect(throws: ConsentCoreError(.invalidAction, "")) { try s.outcome() }
    }

    @Test func inactivityExpiresAndWipes() throws {
        var s = ConsentSession(id: "f", study: try sample(), now: .zero, inactivityTimeout: .seconds(600))
        try s.apply(.answerEligibility([true, true, false, true]), now: .seconds(100))
        #expect(s.deadline == .seconds(700))
        let early = s.expireIfIdle(now: .seconds(699))
        #expect(!early && s.step == .eligibility)
        let due = s.expireIfIdle(now: .seconds(700))
        #expect(due)
        #expect(s.step == .expired && s.answers.allSatisfy { $0 == nil })
        var t = ConsentSession(id: "g", study: try sample(), now: .zero, inactivityTimeout: .seconds(10))
        do {
            try t.apply(.answerEligibility([true]), now: .seconds(11))
            Issue.record("an expired flow accepted an action")
        } catch let error as ConsentCoreError {
            #expect(error.code == .flowFinished)
        }
        #expect(t.step == .expired)
    }

    @Test func refusedActionDoesNotResetTheInactivityClock() throws {
        var s = ConsentSession(id: "f", study: try sample(), now: .zero, inactivityTimeout: .seconds(10))
        _ = try? s.apply(.agree, now: .seconds(9))
        #expect(s.deadline == .seconds(10))
    }

    @Test func studyWithoutSharingOrScenesGoesStraightToReview() throws {
        let contract = ContractJSON.contract(terms: [ContractJSON.term("OnlyInDocument", ext: [ContractJSON.html("<p>x</p>")])])
        let study = try TemporaryStudy(contract: contract).load()
        var s = ConsentSession(id: "f", study: study, now: .zero)
        #expect(s.eligibilityStatus == .eligible)  // no requirements
        try s.apply(.next(.eligibility), now: .seconds(1))
        #expect(s.step == .reviewStep)
        try s.apply(.back(.reviewStep), now: .seconds(1))
        #expect(s.step == .eligibility)
    }

    @Test func cancelEndsTheFlow() throws {
        var s = ConsentSession(id: "f", study: try sample(), now: .zero)
        try s.apply(.cancel, now: .seconds(1))
        #expect(s.step == .cancelled && s.viewModel.actions.isEmpty)
    }

    @Test func strokeFormatIsArraysOfPoints() throws {
        let json = #"{"strokes":[[[0.1,0.2,0,0.5],[0.3,0.4,16,null],[0.5,0.6,32]]],"widthMM":120}"#
        let decoded = try JSONDecoder().decode(SignatureStrokes.self, from: Data(json.utf8))
        #expect(decoded.strokes[0].map(\.p) == [0.5, nil, nil])
        #expect(decoded.widthMM == 120)
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        let again = String(decoding: try encoder.encode(decoded), as: UTF8.self)
        #expect(again == #"{"strokes":[[[0.1,0.2,0,0.5],[0.3,0.4,16,null],[0.5,0.6,32,null]]],"widthMM":120}"#)
        #expect(throws: (any Error).self) { try JSONDecoder().decode(SignatureStrokes.self, from: Data(#"{"strokes":[[[0.1,0.2,0,0.5,9]]]}"#.utf8)) }
    }
}
