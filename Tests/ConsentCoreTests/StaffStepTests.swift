import ConsentCore
import Foundation
import SampleStudy
import Testing

/// The `staff` step (`staffCountersignature: required`): after the participant's part, the person obtaining consent
/// unlocks, attests how identity was verified and countersigns; without that no outcome exists.
@Suite struct StaffStepTests {
    static let strokes = ConsentSessionTests.strokes
    static let staffStrokes = SignatureStrokes(strokes: [[StrokePoint(x: 0.1, y: 0.5, t: 0, p: nil), StrokePoint(x: 0.9, y: 0.4, t: 120, p: nil)]])
    static let jane = StaffMember(id: "jroe", name: "Jane Roe")

    func session(witness: Bool = false, passcode: Bool = false, language: String? = nil) throws -> ConsentSession {
        var study = try Study.load(from: try #require(SampleStudy.folder))
        if let language { study = try #require(study.inLanguage(language)) }
        study.options.requireWitness = witness
        study.options.askToCreatePasscode = passcode
        var s = ConsentSession(id: "f", study: study, now: .zero, staffCountersignature: true)
        try ConsentSessionTests().toReview(&s)
        try s.agreeAndUnderstand(now: .seconds(5))
        try s.apply(.setName(given: "Ada", family: "Lovelace"), now: .seconds(6))
        try s.apply(.submitSignature(Self.strokes), now: .seconds(7))
        if witness {
            try s.apply(.setSignerName(.witness, given: "Grace", family: "Hopper", relationship: nil), now: .seconds(8))
            try s.apply(.submitSignature(Self.strokes), now: .seconds(9))
        }
        if passcode { try s.apply(.setPasscode("1234"), now: .seconds(10)) }
        return s
    }

    @Test func staffStepFollowsTheParticipantAndWitnessAndPasscode() throws {
        var s = try session(witness: true, passcode: true)
        #expect(s.step == .staff)
        var view = s.viewModel
        #expect(view.staff?.page == .unlock && view.title == StaffTexts.english.title)
        #expect(view.actions == [.staffUnlock, .back, .cancel])
        #expect(view.labels["staffUnlock"] == "Unlock")
        #expect(view.staff?.staffIdLabel == "Staff ID" && view.staff?.pinLabel == "PIN")
        #expect(StepViewModel.part(for: .staff) == "staff")
        // No outcome, no signature and no attestation before the unlock.
        #expect(throws: ConsentCoreError(.invalidAction, "")) { try s.outcome() }
        #expect(throws: ConsentCoreError(.staffNotUnlocked, "")) {
            var c = s; try c.apply(.attestIdentity(.photoId, note: nil), now: .seconds(11))
        }
        #expect(throws: ConsentCoreError(.stepMismatch, "")) { try s.requireSignaturePage(role: .personObtainingConsent) }
        #expect(throws: ConsentCoreError(.stepMismatch, "")) { var c = s; try c.apply(.submitSignature(Self.staffStrokes), now: .seconds(11)) }
        #expect(throws: ConsentCoreError(.invalidAction, "")) { var c = s; try c.apply(.next(.staff), now: .seconds(11)) }
        // What the view offers is what the session takes: no decline on the staff step (the participant's own act).
        #expect(throws: ConsentCoreError(.invalidAction, "")) { var c = s; try c.apply(.decline, now: .seconds(11)) }

        try s.apply(.unlockStaff(Self.jane), now: .seconds(11))
        view = s.viewModel
        #expect(view.staff?.page == .attest && view.staff?.staffName == "Jane Roe" && view.staff?.staffId == "jroe")
        #expect(view.staff?.methods?.map(\.method) == [.photoId, .knownToStaff, .representativeDocuments, .other])
        #expect(view.actions == [.attestIdentity, .back, .cancel])
        #expect(view.staff?.attestLabel == "Confirm" && view.labels["attestIdentity"] == "Confirm")
        // `other` needs a note; a note has at most 200 characters.
        #expect(throws: ConsentCoreError(.invalidField, "")) { var c = s; try c.apply(.attestIdentity(.other, note: "  "), now: .seconds(12)) }
        #expect(throws: ConsentCoreError(.invalidField, "")) {
            var c = s; try c.apply(.attestIdentity(.photoId, note: String(repeating: "x", count: 201)), now: .seconds(12))
        }
        try s.apply(.attestIdentity(.photoId, note: nil), now: .seconds(12))
        #expect(s.signingRole == .personObtainingConsent)
        try s.requireSignaturePage(role: .personObtainingConsent)
        #expect(throws: ConsentCoreError(.stepMismatch, "")) { try s.requireSignaturePage(role: .participant) }
        view = s.viewModel
        #expect(view.staff?.page == .signature && view.staff?.signingArea == .uiDefault && view.staff?.method == .photoId)
        #expect(view.staff?.text == "Identity verified by: Photo ID checked")
        #expect(view.actions == [.beginSignature, .clearSignature, .submitSignature, .attestIdentity, .back, .cancel])
        #expect(view.labels["attestIdentity"] == "Change Identity Check")
        try s.apply(.submitSignature(Self.staffStrokes), now: .seconds(13))
        #expect(s.step == .done)
        let outcome = try s.outcome()
        #expect(outcome.personObtainingConsent == StaffAttestation(staff: Self.jane, method: .photoId, note: nil, signature: Self.staffStrokes))
        #expect(outcome.signature == Self.strokes && outcome.witness != nil && outcome.passcodeHash != nil)
        // Back from done returns to the staff step; completing forgets it.
        try s.apply(.back(.done), now: .seconds(14))
        #expect(s.step == .staff && s.staff.page == .signature)
        try s.apply(.submitSignature(Self.staffStrokes), now: .seconds(15))
        try s.markCompleted()
        #expect(s.staff == StaffProgress())
    }

    @Test func backHandsTheKioskToTheParticipantAndLocksTheStaffStep() throws {
        var s = try session()
        try s.apply(.unlockStaff(Self.jane), now: .seconds(11))
        try s.apply(.attestIdentity(.other, note: " birth certificate "), now: .seconds(12))
        #expect(s.staff.note == "birth certificate")
        try s.apply(.back(.staff), now: .seconds(13))
        #expect(s.step == .reviewStep && s.reviewPage == .signature)
        #expect(s.staff == StaffProgress())
        try s.apply(.submitSignature(Self.strokes), now: .seconds(14))
        #expect(s.step == .staff && s.staff.page == .unlock)
    }

    @Test func anotherStaffMemberOrMethodStartsTheSignatureAgain() throws {
        var s = try session()
        try s.apply(.unlockStaff(Self.jane), now: .seconds(11))
        try s.apply(.attestIdentity(.knownToStaff, note: nil), now: .seconds(12))
        try s.apply(.clearSignature, now: .seconds(13))
        #expect(s.staff.signature == nil)
        try s.apply(.unlockStaff(StaffMember(id: "mmax", name: "Max Muster")), now: .seconds(14))
        #expect(s.staff.page == .attest && s.staff.member?.id == "mmax")
        // The staff member is named by their credential, never typed.
        #expect(throws: ConsentCoreError(.stepMismatch, "")) {
            var c = s; try c.apply(.setSignerName(.personObtainingConsent, given: "A", family: "B", relationship: nil), now: .seconds(15))
        }
    }

    @Test func cancelWipesTheStaffStep() throws {
        var s = try session()
        try s.apply(.unlockStaff(Self.jane), now: .seconds(11))
        try s.apply(.cancel, now: .seconds(12))
        #expect(s.step == .cancelled && s.staff == StaffProgress())
    }

    @Test func offByDefaultAndNeverForAWithdrawal() throws {
        let study = try Study.load(from: try #require(SampleStudy.folder))
        var plain = ConsentSession(id: "f", study: study, now: .zero)
        try ConsentSessionTests().toReview(&plain)
        try plain.agreeAndUnderstand(now: .seconds(5))
        try plain.apply(.setName(given: "Ada", family: "Lovelace"), now: .seconds(6))
        try plain.apply(.submitSignature(Self.strokes), now: .seconds(7))
        #expect(plain.step == .done && !plain.asksForStaff)
        #expect(try plain.outcome().personObtainingConsent == nil)
        #expect(throws: ConsentCoreError(.stepMismatch, "")) { try plain.apply(.unlockStaff(Self.jane), now: .seconds(8)) }
    }

    @Test func textsInGermanAndFrench() throws {
        for (language, texts) in [("de", StaffTexts.german), ("fr", StaffTexts.french)] {
            var s = try session(language: language)
            #expect(s.viewModel.title == texts.title && s.viewModel.labels["staffUnlock"] == texts.unlock)
            try s.apply(.unlockStaff(Self.jane), now: .seconds(11))
            #expect(s.viewModel.staff?.methods?.first?.text == texts.photoId)
            #expect(s.viewModel.staff?.text.contains("Jane Roe") == true)
        }
    }
}
