import ConsentCore
import Foundation
import SampleStudy
import Testing

/// What a page does not offer is refused before the action's arguments are read, with the error that says why, and
/// the refusal changes nothing. Written against the session's long-standing API only (step, pages, `apply`), so
/// the same expectations hold for the session before its position became one value.
@Suite struct NotOfferedRefusalTests {
    static let strokes = ConsentSessionTests.strokes
    static let target = WithdrawalTarget(recordID: "r-1", studyTitle: "Heartbeat", signedOn: "2026-09-14")

    /// Everything an action may change, to compare before and after a refusal.
    struct Seen: Equatable {
        var step: ConsentStep
        var scene: Int
        var page: ReviewPage
        var answers: [Bool?]
        var signers: [SigningRole: SignerEntry]
        var signedBy: SigningRole?
        var staff: StaffProgress
        var comprehension: ComprehensionProgress
        var lastActivity: Duration

        init(_ s: ConsentSession) {
            step = s.step
            scene = s.sceneIndex
            page = s.reviewPage
            answers = s.answers
            signers = s.signers
            signedBy = s.signedBy
            staff = s.staff
            comprehension = s.comprehension
            lastActivity = s.lastActivity
        }
    }

    func refuses(
        _ s: ConsentSession, _ action: ConsentAction, with code: ConsentCoreError.Code,
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        var copy = s
        do {
            try copy.apply(action, now: s.lastActivity + .seconds(1))
            Issue.record("\(action) was accepted at \(s.step)/\(s.reviewPage)", sourceLocation: sourceLocation)
        } catch let error as ConsentCoreError {
            #expect(error.code == code, "\(action) at \(s.step)/\(s.reviewPage): \(error)", sourceLocation: sourceLocation)
        } catch {
            Issue.record("a foreign error \(error)", sourceLocation: sourceLocation)
        }
        #expect(Seen(copy) == Seen(s), "\(action) changed the flow", sourceLocation: sourceLocation)
    }

    func study(witness: Bool = false, representative: Bool = false, stop: Bool = false) throws -> Study {
        var study = try Study.load(from: try #require(SampleStudy.folder))
        study.options.requireWitness = witness
        study.options.allowRepresentative = representative
        if stop { study.options.comprehension = ComprehensionPolicy(attempts: 1, onRepeatedMiss: .stop) }
        return study
    }

    @Test func theFirstStepsAndTheDocument() throws {
        let withdrawal = ConsentSession(id: "w", study: try study(), now: .zero, purpose: .withdrawal(Self.target))
        refuses(withdrawal, .decline, with: .invalidAction)
        refuses(withdrawal, .next(.withdrawal), with: .invalidAction)
        refuses(withdrawal, .back(.withdrawal), with: .invalidAction)
        refuses(withdrawal, .setName(given: "Ada", family: "Lovelace"), with: .stepMismatch)

        var s = ConsentSession(id: "f", study: try study(), now: .zero)
        refuses(s, .next(.eligibility), with: .notEligible)
        refuses(s, .back(.eligibility), with: .invalidAction)
        refuses(s, .agree, with: .stepMismatch)
        refuses(s, .next(.visual), with: .stepMismatch)
        try ConsentSessionTests().toReview(&s)
        #expect(s.step == .reviewStep && s.reviewPage == .document)
        refuses(s, .next(.reviewStep), with: .invalidAction)
        refuses(s, .setName(given: "Ada", family: "Lovelace"), with: .stepMismatch)
        // The page is checked before the strokes (empty, which would be missingSignature on a signature page).
        refuses(s, .submitSignature(SignatureStrokes(strokes: [])), with: .stepMismatch)
        refuses(s, .clearSignature, with: .stepMismatch)
        refuses(s, .chooseSigner(.representative), with: .invalidAction)
        refuses(s, .setSignerName(.witness, given: "Grace", family: "Hopper", relationship: nil), with: .invalidAction)
        refuses(s, .setSignerName(.participant, given: "Ada", family: "Lovelace", relationship: "PRN"), with: .invalidField)
        refuses(s, .setSignerName(.personObtainingConsent, given: "A", family: "B", relationship: nil), with: .invalidField)
        refuses(s, .unlockStaff(StaffMember(id: "jroe", name: "Jane Roe")), with: .stepMismatch)
    }

    @Test func theSignerPages() throws {
        var s = ConsentSession(id: "f", study: try study(witness: true, representative: true), now: .zero)
        try ConsentSessionTests().toReview(&s)
        try s.agreeAndUnderstand(now: .seconds(5))
        #expect(s.reviewPage == .signer)
        refuses(s, .next(.reviewStep), with: .invalidAction)
        refuses(s, .setSignerName(.representative, given: "Anne", family: "Milbanke", relationship: "PRN"), with: .invalidAction)
        try s.apply(.chooseSigner(.participant), now: .seconds(6))
        #expect(s.reviewPage == .name)
        refuses(s, .next(.reviewStep), with: .missingName)
        refuses(s, .agree, with: .stepMismatch)
        refuses(s, .chooseSigner(.participant), with: .stepMismatch)
        refuses(s, .setSignerName(.witness, given: "Grace", family: "Hopper", relationship: nil), with: .stepMismatch)
        try s.apply(.setName(given: "Ada", family: "Lovelace"), now: .seconds(7))
        #expect(s.reviewPage == .signature)
        refuses(s, .next(.reviewStep), with: .missingSignature)
        refuses(s, .setSignerName(.witness, given: "Grace", family: "Hopper", relationship: nil), with: .stepMismatch)
        try s.apply(.submitSignature(Self.strokes), now: .seconds(8))
        #expect(s.reviewPage == .witness)
        refuses(s, .next(.reviewStep), with: .missingName)
        refuses(s, .submitSignature(Self.strokes), with: .stepMismatch)
        try s.apply(.setSignerName(.witness, given: "Grace", family: "Hopper", relationship: nil), now: .seconds(9))
        #expect(s.reviewPage == .witnessSignature)
        refuses(s, .next(.reviewStep), with: .missingSignature)
        refuses(s, .setName(given: "Ada", family: "Lovelace"), with: .stepMismatch)
        try s.apply(.submitSignature(Self.strokes), now: .seconds(10))
        #expect(s.step == .done)
        refuses(s, .next(.done), with: .invalidAction)
        try s.markCompleted()
        refuses(s, .cancel, with: .flowFinished)
    }

    @Test func theComprehensionCheckAndTheStaffStep() throws {
        var s = ConsentSession(id: "f", study: try study(stop: true), now: .zero)
        try ConsentSessionTests().toReview(&s)
        try s.apply(.agree, now: .seconds(5))
        #expect(s.step == .comprehension)
        refuses(s, .next(.comprehension), with: .invalidAction)
        let question = try #require(s.comprehension.current)
        try s.apply(
            .answerComprehension(question: question.index, choice: (question.answer + 1) % question.choices.count),
            now: .seconds(6))
        #expect(s.comprehension.phase == .stopped)
        refuses(s, .back(.comprehension), with: .invalidAction)
        refuses(s, .next(.comprehension), with: .invalidAction)
        // Refused because the screen asks nothing now, before the question and the choice (neither exists) are read.
        refuses(s, .answerComprehension(question: 99, choice: 99), with: .stepMismatch)

        let staff = try StaffStepTests().session()
        #expect(staff.step == .staff && staff.staff.page == .unlock)
        // Not unlocked: that is the refusal, before the missing note of `other` is looked at.
        refuses(staff, .attestIdentity(.other, note: nil), with: .staffNotUnlocked)
        refuses(staff, .decline, with: .invalidAction)
        refuses(staff, .next(.staff), with: .invalidAction)
        refuses(staff, .submitSignature(SignatureStrokes(strokes: [])), with: .stepMismatch)
        refuses(staff, .clearSignature, with: .stepMismatch)
    }
}
