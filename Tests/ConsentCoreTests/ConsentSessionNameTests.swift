import ConsentCore
import Foundation
import SampleStudy
import Testing

/// `isBeforeTheName`: the agent lets a flow go sooner when its UI leaves before the name page, so the fact must be
/// right at every step of every kind of flow.
@Suite struct ConsentSessionNameTests {
    func sample() throws -> Study { try Study.load(from: try #require(SampleStudy.folder)) }

    @Test func aConsentIsBeforeTheNameUntilItsNamePage() throws {
        var s = ConsentSession(id: "f", study: try sample(), now: .zero)
        var seen: [ConsentStep: Bool] = [s.step: s.isBeforeTheName]
        try s.apply(.answerEligibility([true, true, false, true]), now: .seconds(1))
        try s.apply(.next(.eligibility), now: .seconds(1))
        seen[s.step] = s.isBeforeTheName
        try s.apply(.next(.keyInformation), now: .seconds(1))
        seen[s.step] = s.isBeforeTheName
        for _ in 0..<s.study.document.visualSections.count { try s.apply(.next(.visual), now: .seconds(1)) }
        seen[s.step] = s.isBeforeTheName
        try s.apply(.chooseSharing(shareWidely: true), now: .seconds(1))
        try s.apply(.answerOptional(["future-research": true, "contact-other-studies": false]), now: .seconds(1))
        #expect(s.step == .reviewStep && s.reviewPage == .document && s.isBeforeTheName)
        try s.apply(.agree, now: .seconds(1))
        seen[s.step] = s.isBeforeTheName
        for (question, choice) in [1, 1, 0].enumerated() {
            try s.apply(.answerComprehension(question: question, choice: choice), now: .seconds(1))
        }
        #expect(seen == [.eligibility: true, .keyInformation: true, .visual: true, .sharing: true, .comprehension: true])
        #expect(s.step == .reviewStep && s.reviewPage == .name)
        #expect(!s.isBeforeTheName, "on the name page")
        try s.apply(.setName(given: "Ada", family: "Lovelace"), now: .seconds(1))
        #expect(s.reviewPage == .signature && !s.isBeforeTheName)
        try s.apply(.cancel, now: .seconds(1))
        #expect(s.step.isFinished && !s.isBeforeTheName, "an ended flow is neither")
    }

    @Test func aWithdrawalIsBeforeTheNameUntilItIsConfirmed() throws {
        var s = ConsentSession(
            id: "w", study: try sample(), now: .zero,
            purpose: .withdrawal(WithdrawalTarget(recordID: "r", studyTitle: "T", signedOn: "2026-09-14")))
        #expect(s.step == .withdrawal && s.isBeforeTheName, "its review page is already the name's, its step is not")
        try s.apply(.confirmWithdrawal(reason: nil), now: .seconds(1))
        #expect(s.step == .reviewStep && s.reviewPage == .name && !s.isBeforeTheName)
    }
}
