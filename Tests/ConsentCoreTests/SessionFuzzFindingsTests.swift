import ConsentCore
import Foundation
import SampleStudy
import Testing

/// Findings of the FuzzConsentSession fuzz target (docs/RELIABILITY.md, "FuzzConsentSession"): the session accepted
/// an action its view model does not offer. Each input is inlined as the walk it encodes.
@Suite struct SessionFuzzFindingsTests {
    static let target = WithdrawalTarget(recordID: "r-1", studyTitle: "Heartbeat", signedOn: "2026-09-14")

    /// crash-8554bd7a57134585: a withdrawal flow at its first step accepted `decline` (ending "declined", "Consent
    /// Kept") though that step's view offers only confirmWithdrawal and cancel; a UI that shows what the view
    /// offers never sends it, so only a client going around the view reached that end.
    @Test func theWithdrawalStepRefusesDeclineAsItsViewDoesNotOfferIt() throws {
        var s = ConsentSession(
            id: "f", study: try Study.load(from: try #require(SampleStudy.folder)), now: .zero,
            purpose: .withdrawal(Self.target))
        #expect(s.viewModel.actions == [.confirmWithdrawal, .cancel, .askStaff])
        #expect(throws: ConsentCoreError(.invalidAction, "")) { try s.apply(.decline, now: .seconds(1)) }
        // Refused, so nothing changed, not even the inactivity clock.
        #expect(s.step == .withdrawal && s.lastActivity == .zero)
        // Once confirmed, keeping the consent is offered, and accepted.
        try s.apply(.confirmWithdrawal(reason: nil), now: .seconds(2))
        #expect(s.viewModel.actions.contains(.decline))
        try s.apply(.decline, now: .seconds(3))
        #expect(s.step == .declined)
        // Cancel stays accepted at the withdrawal step.
        var cancelled = ConsentSession(
            id: "g", study: s.study, now: .zero, purpose: .withdrawal(Self.target))
        try cancelled.apply(.cancel, now: .seconds(1))
        #expect(cancelled.step == .cancelled)
    }
}
