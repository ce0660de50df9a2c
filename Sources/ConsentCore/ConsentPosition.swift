/// Where a flow is: one value with the data that place needs, so a place no flow can be in cannot be written (a
/// scene index off the visual step, a review page at the passcode, a staff member's progress before the staff step).
///
/// `ConsentSession.position` is the only record of it; `step`, `sceneIndex`, `reviewPage` and `staff` are read
/// from it. What each position offers is `ConsentSession.offer` (ConsentSession+Offer.swift).
///
/// The comprehension check's phase (question, explanation, stopped) is the check's own (`ComprehensionProgress`),
/// not the position's: a participant who goes back to the document at an explanation resumes at that explanation.
public enum ConsentPosition: Sendable, Hashable {
    /// A withdrawal's first page: what is withdrawn, and the optional reason.
    case withdrawal
    /// A re-consent's first page: what changed since the previous consent.
    case changes
    case eligibility
    /// The key information the consent begins with (`KeyInformation`), after eligibility and before the scenes;
    /// only when the study has some.
    case keyInformation
    /// A visual scene: an index into `study.document.visualSections`.
    case visual(scene: Int)
    case sharing
    /// The optional elements, after sharing and before the review document; only when the study has some. The
    /// answers are the session's (`ConsentSession.optionalAnswers`): they outlive the step, for the review
    /// document and the record.
    case optional
    /// One of the flow's `reviewPages`.
    case review(ReviewPage)
    /// The comprehension check between the review document and the name.
    case comprehension
    case passcode
    /// The person obtaining consent's step and what they gave so far; its page follows from that
    /// (`StaffProgress.page`).
    case staff(StaffProgress)
    /// Everything is collected: with the staff step's attestation and signature when the flow has that step.
    case done(staff: StaffProgress?)
    case completed
    case ineligible
    case declined
    case expired
    case cancelled
    /// Paused to think it over (`ConsentSession.pause`); its place lives on in the sealed `PausedConsent`.
    case paused

    /// The protocol's name for the position's step.
    public var step: ConsentStep {
        switch self {
        case .withdrawal: .withdrawal
        case .changes: .changes
        case .eligibility: .eligibility
        case .keyInformation: .keyInformation
        case .visual: .visual
        case .sharing: .sharing
        case .optional: .optional
        case .review: .reviewStep
        case .comprehension: .comprehension
        case .passcode: .passcode
        case .staff: .staff
        case .done: .done
        case .completed: .completed
        case .ineligible: .ineligible
        case .declined: .declined
        case .expired: .expired
        case .cancelled: .cancelled
        case .paused: .paused
        }
    }
}
