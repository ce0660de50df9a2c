import ConsentCore
import Foundation
import SampleStudy
import Testing

/// "Ask a staff member": the call a participant makes from any screen, which stops the inactivity clock until a
/// member of staff answers it.
@Suite struct StaffCallTests {
    static func sample(language: String = "en") throws -> Study {
        let study = try Study.load(from: try #require(SampleStudy.folder))
        return try #require(study.inLanguage(language))
    }

    @Test func everyParticipantScreenOffersIt() throws {
        var s = ConsentSession(id: "f", study: try Self.sample(), now: .zero, inactivityTimeout: .seconds(600))
        var seen: [ConsentStep] = []
        try s.apply(.answerEligibility([true, true, false, true]), now: .seconds(1))
        while !s.step.isFinished, s.step != .done {
            #expect(s.viewModel.actions.last == .askStaff, "\(s.step) \(s.reviewPage)")
            #expect(s.viewModel.labels["askStaff"] == "Ask a Staff Member")
            seen.append(s.step)
            switch s.step {
            case .sharing: try s.apply(.chooseSharing(shareWidely: true), now: .seconds(1))
            case .optional:
                let answers = Dictionary(uniqueKeysWithValues: s.study.document.optionalElements.map { ($0.id, true) })
                try s.apply(.answerOptional(answers), now: .seconds(1))
            case .reviewStep where s.reviewPage == .document: try s.apply(.agree, now: .seconds(1))
            case .comprehension:
                let question = try #require(s.viewModel.comprehension)
                try s.apply(.answerComprehension(question: question.index, choice: s.study.document.comprehension[question.index].answer), now: .seconds(1))
            case .reviewStep where s.reviewPage == .name: try s.apply(.setName(given: "Ada", family: "Lovelace"), now: .seconds(1))
            case .reviewStep where s.reviewPage == .signature:
                try s.apply(.submitSignature(ConsentSessionTests.strokes), now: .seconds(1))
            case .passcode: try s.apply(.setPasscode("2468"), now: .seconds(1))
            default: try s.apply(.next(s.step), now: .seconds(1))
            }
        }
        #expect(s.viewModel.actions.last == .askStaff, "done")
        #expect(Set(seen).isSuperset(of: [.eligibility, .keyInformation, .visual, .sharing, .optional, .reviewStep, .comprehension]))
        try s.apply(.cancel, now: .seconds(2))
        #expect(!s.viewModel.actions.contains(.askStaff), "an ended flow offers nothing")
    }

    @Test func aWaitingParticipantIsNeverWipedAndAnAnswerRestartsTheClock() throws {
        var s = ConsentSession(id: "f", study: try Self.sample(language: "de"), now: .zero, inactivityTimeout: .seconds(60))
        let first = try s.callStaff(now: .seconds(10))
        let second = try s.callStaff(now: .seconds(20))
        #expect(first && !second, "a second call while one is open changes nothing")
        #expect(s.staffCall == StaffCall(since: .seconds(10), reason: .participant))
        let view = try #require(s.viewModel.staffCall)
        #expect(view.text == ScreenTexts(language: "de").staffCalled && view.reason == "participant")
        // Long past the deadline: still waiting, still running.
        let expiredWhileWaiting = s.expireIfIdle(now: .seconds(3600))
        #expect(!expiredWhileWaiting && s.step == .eligibility)
        let answered = try #require(try s.answerStaff(now: .seconds(3600)))
        #expect(answered.since == .seconds(10))
        #expect(s.staffCall == nil && s.viewModel.staffCall == nil)
        let again = try s.answerStaff(now: .seconds(3601))
        #expect(again == nil, "answering twice changes nothing")
        // The whole timeout from the answer on.
        let early = s.expireIfIdle(now: .seconds(3659))
        let late = s.expireIfIdle(now: .seconds(3660))
        #expect(!early && late)
        var ended = s
        #expect(throws: ConsentCoreError.self) { _ = try ended.callStaff(now: .seconds(3700)) }
    }

    @Test func anExpiredFlowCannotCall() throws {
        var s = ConsentSession(id: "f", study: try Self.sample(), now: .zero, inactivityTimeout: .seconds(60))
        do {
            _ = try s.callStaff(now: .seconds(61))
            Issue.record("expected the expiry")
        } catch let error as ConsentCoreError {
            #expect(error.code == .flowFinished)
        }
        #expect(s.step == .expired)
    }
}
