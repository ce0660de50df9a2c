import ConsentCore
import Foundation
import SampleStudy
import Testing

/// One position, one table of what it offers (`ConsentSession.position`, `ConsentSession.offer`): every position's
/// row, the view model listing exactly that row, and `apply` accepting an action without arguments exactly when the
/// row has it.
@Suite struct ConsentOfferTests {
    static let strokes = ConsentSessionTests.strokes
    static let jane = StaffMember(id: "jroe", name: "Jane Roe")
    static let target = WithdrawalTarget(recordID: "r-1", studyTitle: "Heartbeat", signedOn: "2026-09-14")

    static func study(
        witness: Bool = false, representative: Bool = false, passcode: Bool = false,
        comprehension: ComprehensionPolicy? = nil
    ) throws -> Study {
        var study = try Study.load(from: try #require(SampleStudy.folder))
        study.options.requireWitness = witness
        study.options.allowRepresentative = representative
        study.options.askToCreatePasscode = passcode
        if let comprehension { study.options.comprehension = comprehension }
        return study
    }

    /// Where the flow is, what it offers there (and, on every participant screen, `askStaff` last), and that the
    /// view lists it and `apply` agrees.
    func expect(
        _ s: ConsentSession, at position: ConsentPosition, offers actions: [ConsentActionName],
        signerName: SigningRole? = nil, sourceLocation: SourceLocation = #_sourceLocation
    ) {
        #expect(s.position == position, sourceLocation: sourceLocation)
        let participantScreen: Bool
        if case .staff = position { participantScreen = false } else { participantScreen = !s.step.isFinished }
        #expect(s.offer.actions == actions + (participantScreen ? [.askStaff] : []), sourceLocation: sourceLocation)
        #expect(s.offer.signerName == signerName, sourceLocation: sourceLocation)
        #expect(s.viewModel.actions == s.offer.actions, sourceLocation: sourceLocation)
        #expect(
            Set(s.viewModel.labels.keys) == StepViewModel.labelKeys(for: s.offer.actions), sourceLocation: sourceLocation)
        let probes: [ConsentAction] = [
            .next(s.step), .back(s.step), .agree, .disagree, .clearSignature, .decline, .cancel,
            .answerComprehension(question: s.comprehension.index, choice: 0),
        ]
        for action in probes {
            var copy = s
            let accepted = (try? copy.apply(action, now: s.lastActivity)) != nil
            #expect(accepted == s.offer.offers(action), "\(action) at \(s.position)", sourceLocation: sourceLocation)
            #expect((s.refusal(of: action) == nil) == s.offer.offers(action), sourceLocation: sourceLocation)
        }
    }

    @Test func everyPositionOfAConsentWithEveryOptionOffersItsRow() throws {
        let leave: [ConsentActionName] = [.back, .decline, .cancel]
        let signing: [ConsentActionName] = [.beginSignature, .clearSignature, .submitSignature]
        let study = try Self.study(witness: true, representative: true, passcode: true)
        var s = ConsentSession(id: "f", study: study, now: .zero, staffCountersignature: true)
        expect(s, at: .eligibility, offers: [.answer, .decline, .cancel])
        try s.apply(.answerEligibility([true, true, false, true]), now: .seconds(1))
        expect(s, at: .eligibility, offers: [.answer, .next, .decline, .cancel])
        try s.apply(.next(.eligibility), now: .seconds(1))
        expect(s, at: .keyInformation, offers: [.next] + leave)
        try s.apply(.next(.keyInformation), now: .seconds(1))
        for scene in 0..<study.document.visualSectionCount {
            expect(s, at: .visual(scene: scene), offers: [.next] + leave)
            try s.apply(.next(.visual), now: .seconds(2))
        }
        expect(s, at: .sharing, offers: [.chooseSharing] + leave)
        try s.apply(.chooseSharing(shareWidely: true), now: .seconds(3))
        expect(s, at: .optional, offers: [.optionalAnswer] + leave)
        try s.apply(.answerOptional(["future-research": true, "contact-other-studies": false]), now: .seconds(3))
        expect(s, at: .review(.document), offers: [.agree, .disagree] + leave)
        try s.apply(.agree, now: .seconds(4))
        expect(s, at: .comprehension, offers: [.comprehensionAnswer] + leave)
        let first = try #require(s.comprehension.current)
        try s.apply(.answerComprehension(question: first.index, choice: (first.answer + 1) % first.choices.count), now: .seconds(4))
        #expect(s.comprehension.phase == .explanation)
        expect(s, at: .comprehension, offers: [.next] + leave)
        try s.apply(.next(.comprehension), now: .seconds(4))
        for question in s.comprehension.questions where s.step == .comprehension {
            try s.apply(.answerComprehension(question: question.index, choice: question.answer), now: .seconds(4))
        }
        expect(s, at: .review(.signer), offers: [.chooseSigner] + leave)
        try s.apply(.chooseSigner(.representative), now: .seconds(5))
        expect(s, at: .review(.name), offers: [.setName] + leave)
        try s.apply(.back(.reviewStep), now: .seconds(5))
        expect(s, at: .review(.signer), offers: [.chooseSigner, .next] + leave)
        try s.apply(.next(.reviewStep), now: .seconds(5))
        try s.apply(.setName(given: "Ada", family: "Lovelace"), now: .seconds(6))
        expect(s, at: .review(.representative), offers: [.setSignerName] + leave, signerName: .representative)
        try s.apply(.setSignerName(.representative, given: "Anne", family: "Milbanke", relationship: "PRN"), now: .seconds(7))
        expect(
            s, at: .review(.signature), offers: signing + [.setName, .setSignerName] + leave, signerName: .representative)
        try s.apply(.submitSignature(Self.strokes), now: .seconds(8))
        expect(s, at: .review(.witness), offers: [.setSignerName] + leave, signerName: .witness)
        try s.apply(.back(.reviewStep), now: .seconds(8))
        // Back at a signature already given, with the witness's pages still to come: next is offered.
        expect(
            s, at: .review(.signature), offers: signing + [.setName, .setSignerName, .next] + leave,
            signerName: .representative)
        try s.apply(.next(.reviewStep), now: .seconds(8))
        try s.apply(.setSignerName(.witness, given: "Grace", family: "Hopper", relationship: nil), now: .seconds(9))
        expect(s, at: .review(.witnessSignature), offers: signing + [.setSignerName] + leave, signerName: .witness)
        try s.apply(.submitSignature(Self.strokes), now: .seconds(10))
        expect(s, at: .passcode, offers: [.setPasscode] + leave)
        try s.apply(.setPasscode("1234"), now: .seconds(11))
        expect(s, at: .staff(StaffProgress()), offers: [.staffUnlock, .back, .cancel])
        try s.apply(.unlockStaff(Self.jane), now: .seconds(12))
        var progress = StaffProgress()
        progress.member = Self.jane
        expect(s, at: .staff(progress), offers: [.attestIdentity, .back, .cancel])
        #expect(s.offer.unlisted == [.staffUnlock])
        try s.apply(.attestIdentity(.photoId, note: nil), now: .seconds(13))
        progress.method = .photoId
        expect(s, at: .staff(progress), offers: signing + [.attestIdentity, .back, .cancel])
        try s.apply(.submitSignature(Self.strokes), now: .seconds(14))
        progress.signature = Self.strokes
        expect(s, at: .done(staff: progress), offers: [.complete] + leave)
        try s.markCompleted()
        expect(s, at: .completed, offers: [])
    }

    @Test func theFirstPagesOfAWithdrawalAndAReconsentAndAStoppedCheck() throws {
        let withdrawal = ConsentSession(
            id: "w", study: try Self.study(), now: .zero, purpose: .withdrawal(Self.target))
        expect(withdrawal, at: .withdrawal, offers: [.confirmWithdrawal, .cancel])
        var confirmed = withdrawal
        try confirmed.apply(.confirmWithdrawal(reason: nil), now: .seconds(1))
        expect(confirmed, at: .review(.name), offers: [.setName, .back, .decline, .cancel])

        var reconsent = ConsentSession(
            id: "r", study: try Self.study(), now: .zero, purpose: .reconsent(ReconsentBasis(previousRecordID: "r-0", changes: nil)))
        expect(reconsent, at: .changes, offers: [.next, .decline, .cancel])
        try reconsent.apply(.next(.changes), now: .seconds(1))
        expect(reconsent, at: .eligibility, offers: [.answer, .back, .decline, .cancel])

        var stopped = ConsentSession(
            id: "s", study: try Self.study(comprehension: ComprehensionPolicy(attempts: 1, onRepeatedMiss: .stop)),
            now: .zero)
        try ConsentSessionTests().toReview(&stopped)
        try stopped.apply(.agree, now: .seconds(5))
        let question = try #require(stopped.comprehension.current)
        try stopped.apply(
            .answerComprehension(question: question.index, choice: (question.answer + 1) % question.choices.count),
            now: .seconds(6))
        #expect(stopped.comprehension.phase == .stopped)
        expect(stopped, at: .comprehension, offers: [.decline, .cancel])
    }

    /// Another member of staff may take over on the staff step's later pages, though only the unlock page shows
    /// the form: the one action a position accepts without listing it.
    @Test func anotherStaffMemberMayUnlockOnTheLaterStaffPages() throws {
        var s = try StaffStepTests().session()
        try s.apply(.unlockStaff(Self.jane), now: .seconds(11))
        #expect(!s.offer.actions.contains(.staffUnlock) && s.offer.offers(.unlockStaff(Self.jane)))
        let max = StaffMember(id: "mmax", name: "Max Muster")
        try s.apply(.unlockStaff(max), now: .seconds(12))
        #expect(s.staff.member == max && s.staff.page == .attest)
    }
}
