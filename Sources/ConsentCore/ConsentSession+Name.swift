extension ConsentSession {
    /// Whether the flow has not yet reached the page that asks for a name (`ReviewPage.name`): it is at eligibility,
    /// a scene, sharing, the review document, who signs, the comprehension check, or a withdrawal's or re-consent's
    /// first step. What it holds is answers and choices; nothing typed or drawn. The agent lets such a flow go
    /// sooner once its UI has gone (`closedConnectionFlowBeforeNameGraceSeconds`). False once the flow has ended.
    public var isBeforeTheName: Bool {
        switch step {
        case .withdrawal, .changes, .eligibility, .keyInformation, .visual, .sharing, .optional, .comprehension:
            return true
        case .reviewStep: return reviewPage == .document || reviewPage == .signer
        case .passcode, .staff, .done, .completed, .ineligible, .declined, .expired, .cancelled, .paused: return false
        }
    }
}
