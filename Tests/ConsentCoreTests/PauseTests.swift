import ConsentCore
import Foundation
import SampleStudy
import Testing

/// "I want to think about it": where a flow may be paused, what is kept of it (its place and answers, never a name),
/// and how a new flow goes on from there.
@Suite struct PauseTests {
    typealias Sample = StaffCallTests

    /// The sample study walked to its review document: eligible, past the key information and scenes, sharing chosen
    /// and both optional elements answered.
    static func atReviewDocument(_ study: Study) throws -> ConsentSession {
        var s = ConsentSession(id: "f", study: study, now: .zero, pause: true)
        try s.apply(.answerEligibility([true, true, false, true]), now: .seconds(1))
        while !(s.step == .reviewStep && s.reviewPage == .document) {
            switch s.step {
            case .sharing: try s.apply(.chooseSharing(shareWidely: false), now: .seconds(1))
            case .optional:
                let ids = s.study.document.optionalElements.map(\.id)
                try s.apply(.answerOptional(Dictionary(uniqueKeysWithValues: ids.enumerated().map { ($1, $0 == 0) })), now: .seconds(1))
            default: try s.apply(.next(s.step), now: .seconds(1))
            }
        }
        return s
    }

    @Test func pausingIsOfferedBeforeTheSignatureOnlyAndOnlyWhereAllowed() throws {
        let study = try Sample.sample()
        var s = ConsentSession(id: "f", study: study, now: .zero, pause: true)
        #expect(s.viewModel.actions.contains(.pause))
        #expect(s.viewModel.labels["pause"] == "I Want to Think About It")
        #expect(!ConsentSession(id: "g", study: study, now: .zero).viewModel.actions.contains(.pause), "off unless the agent allows it")
        s = try Self.atReviewDocument(study)
        #expect(s.viewModel.actions.contains(.pause))
        try s.apply(.agree, now: .seconds(2))
        #expect(s.step == .comprehension && !s.viewModel.actions.contains(.pause))
        #expect(throws: ConsentCoreError.self) { try s.pausePoint(now: .seconds(3)) }
        // While a member of staff is on the way, the participant waits for them.
        var t = ConsentSession(id: "h", study: study, now: .zero, pause: true)
        _ = try t.callStaff(now: .seconds(1))
        #expect(!t.viewModel.actions.contains(.pause))
    }

    @Test func aPausedFlowEndsWipedAndItsPlaceResumesWithItsAnswers() throws {
        let study = try Sample.sample(language: "fr")
        var s = try Self.atReviewDocument(study)
        let point = try s.pausePoint(now: .seconds(5))
        #expect(point.place == .review(.document))
        #expect(point.answers == [true, true, false, true] && point.shareWidely == false)
        #expect(point.optionalAnswers.count == study.document.optionalElements.count)
        // The flow moved on: the point is stale and refused.
        var moved = s
        try moved.apply(.agree, now: .seconds(6))
        #expect(throws: ConsentCoreError.self) { try moved.pause(at: point, now: .seconds(7)) }
        try s.pause(at: point, now: .seconds(6))
        #expect(s.step == .paused && s.step.isFinished)
        #expect(s.shareWidely == nil && s.optionalAnswers.isEmpty && s.answers.allSatisfy { $0 == nil })
        #expect(s.viewModel.end?.title == ScreenTexts(language: "fr").pausedTitle)

        // The sealed form round-trips, and a new flow goes on at the document with every answer.
        let sealed = try JSONDecoder().decode(PausedConsent.self, from: JSONEncoder().encode(point))
        let resumed = ConsentSession.resuming(sealed, sameVersion: true, id: "f2", study: study, now: .seconds(100))
        #expect(resumed.resumption == .continued)
        #expect(resumed.step == .reviewStep && resumed.reviewPage == .document)
        #expect(resumed.shareWidely == false && resumed.optionalAnswers == point.optionalAnswers)
        #expect(resumed.viewModel.resumed?.text == ScreenTexts(language: "fr").resumedContinued)
        #expect(resumed.viewModel.actions.contains(.pause), "a resumed flow may be paused again")
        // Its first accepted action drops the welcome.
        var next = resumed
        try next.apply(.agree, now: .seconds(101))
        #expect(next.viewModel.resumed == nil)
    }

    @Test func aChangedVersionOrAPlaceTheStudyNoLongerHasStartsOver() throws {
        let study = try Sample.sample()
        let point = PausedConsent(
            place: .visual(scene: 1), answers: [true, true, false, true], shareWidely: nil, optionalAnswers: [:], signedBy: nil)
        let changed = ConsentSession.resuming(point, sameVersion: false, id: "f", study: study, now: .zero)
        #expect(changed.resumption == .startedOver && changed.step == .eligibility)
        #expect(changed.answers.allSatisfy { $0 == nil })
        #expect(changed.viewModel.resumed?.outcome == .startedOver)
        let same = ConsentSession.resuming(point, sameVersion: true, id: "f", study: study, now: .zero)
        #expect(same.resumption == .continued && same.step == .visual && same.sceneIndex == 1)
        for bad in [
            PausedConsent(place: .visual(scene: 99), answers: [true, true, false, true], shareWidely: nil, optionalAnswers: [:], signedBy: nil),
            PausedConsent(place: .visual(scene: 0), answers: [true], shareWidely: nil, optionalAnswers: [:], signedBy: nil),
            // Ineligible answers never pass the eligibility step.
            PausedConsent(place: .sharing, answers: [false, false, false, false], shareWidely: nil, optionalAnswers: [:], signedBy: nil),
            PausedConsent(place: .review(.document), answers: [true, true, false, true], shareWidely: true, optionalAnswers: ["no-such-element": true], signedBy: nil),
            PausedConsent(place: .review(.document), answers: [true, true, false, true], shareWidely: nil, optionalAnswers: [:], signedBy: nil),
        ] {
            let s = ConsentSession.resuming(bad, sameVersion: true, id: "f", study: study, now: .zero)
            #expect(s.resumption == .startedOver && s.step == .eligibility, "\(bad.place)")
        }
    }

    @Test func aWithdrawalIsNeverPaused() throws {
        let study = try Sample.sample()
        let target = WithdrawalTarget(recordID: "r", studyTitle: "t", signedOn: "2026-01-01", signedOnText: nil)
        var s = ConsentSession(id: "f", study: study, now: .zero, purpose: .withdrawal(target), pause: true)
        #expect(!s.allowsPause && !s.viewModel.actions.contains(.pause))
        #expect(throws: ConsentCoreError.self) { try s.pausePoint(now: .seconds(1)) }
    }
}
