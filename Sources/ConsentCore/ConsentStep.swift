/// The steps of a consent flow. The raw values are the step identifiers of C3-PRO's consent task where one
/// exists (`visual`, `sharing`, `reviewStep`, `passcode`), and are the names the protocol uses.
public enum ConsentStep: String, Sendable, Hashable, Codable, CaseIterable {
    /// A withdrawal flow's first step: what is withdrawn, and the optional reason.
    case withdrawal
    /// A re-consent's first step: what changed since the participant's previous consent.
    case changes
    case eligibility
    /// After eligibility, before the scenes: the key information the consent begins with (`KeyInformation`,
    /// 45 CFR 46.116(a)(5)(i)); only when the study has some.
    case keyInformation
    case visual
    case sharing
    /// After sharing, before the review document: the study's optional elements (`OptionalElement`), each
    /// answered Yes or No; only when the study has some.
    case optional
    case reviewStep
    /// Between the review document and the name: the study's questions about what the participant read
    /// (`ComprehensionProgress`); only when the study has some.
    case comprehension
    case passcode
    /// The person obtaining consent unlocks with their staff credential, attests how the signer's identity was
    /// verified and countersigns (`staffCountersignature: required`); after the participant's part, before `done`.
    case staff
    /// Everything is collected; the flow waits for the agent to sign and write the record.
    case done
    /// The record is written; the flow is over.
    case completed
    case ineligible
    case declined
    case expired
    case cancelled
    /// The participant paused to think it over (`flow.pause`): the flow's place and answers are sealed on the kiosk
    /// under a resume code, and a new flow goes on from there (`flow.start {resume}`).
    case paused

    /// Whether the flow has ended; no action is accepted any more.
    public var isFinished: Bool {
        switch self {
        case .completed, .ineligible, .declined, .expired, .cancelled, .paused: return true
        case .withdrawal, .changes, .eligibility, .keyInformation, .visual, .sharing, .optional, .reviewStep, .comprehension,
            .passcode, .staff,
            .done:
            return false
        }
    }
}

/// The pages of the review step, in order (docs/C3PRO.md, section 3). `signer`, `representative`, `witness` and
/// `witnessSignature` appear only when the study's options ask for them.
public enum ReviewPage: String, Sendable, Hashable, Codable {
    /// The review document with Agree / Disagree.
    case document
    /// Who signs: the participant, or a legally authorized representative (`allowRepresentative`).
    case signer
    /// The participant's printed given and family name (also when a representative signs).
    case name
    /// The representative's printed name and relationship to the participant.
    case representative
    /// The consent signature: the participant's, or the representative's.
    case signature
    /// The witness's printed name (`requireWitness`).
    case witness
    /// The witness's signature.
    case witnessSignature
}

/// What a participant (through the UI) asks the flow to do. Each action belongs to one step.
public enum ConsentAction: Sendable, Hashable {
    /// Answers to the eligibility questions, by position; nil is unanswered.
    case answerEligibility([Bool?])
    /// Go forward from the named step (a scene, the eligible screen, the passcode's skip when it is optional).
    case next(ConsentStep)
    /// Go back from the named step.
    case back(ConsentStep)
    case chooseSharing(shareWidely: Bool)
    case agree
    case disagree
    case setName(given: String, family: String)
    /// Who signs the consent: `.participant` or `.representative` (only where the study allows one).
    case chooseSigner(SigningRole)
    /// The printed name of the participant, the representative (with the code of one of the study's
    /// relationships) or the witness.
    case setSignerName(SigningRole, given: String, family: String, relationship: String?)
    /// The signature the current page asks for (the consent signature, or the witness's).
    case submitSignature(SignatureStrokes)
    case clearSignature
    case setPasscode(String)
    /// Answers to optional elements, by element id (true: Yes); those given before and not named stay.
    case answerOptional([String: Bool])
    /// The choice (0-based) for comprehension question `question` (0-based), which must be the one on screen.
    case answerComprehension(question: Int, choice: Int)
    /// The agent checked the staff member's id and PIN (`staff.unlock`): they act on the `staff` step now.
    case unlockStaff(StaffMember)
    /// How the person obtaining consent verified the signer's identity (`staff.attestIdentity`).
    case attestIdentity(IdentityVerification, note: String?)
    /// Confirms what a withdrawal flow withdraws, with the participant's reason when they give one.
    case confirmWithdrawal(reason: String?)
    case decline
    case cancel

    /// The step the action is valid at; nil when it is valid at any step of a running flow.
    public var expectedStep: ConsentStep? {
        switch self {
        case .answerEligibility: return .eligibility
        case .next(let step), .back(let step): return step
        case .chooseSharing: return .sharing
        case .agree, .disagree, .setName, .chooseSigner, .setSignerName:
            return .reviewStep
        // Taken on the review's signature pages and on the staff step's: the session checks which.
        case .submitSignature, .clearSignature: return nil
        case .unlockStaff, .attestIdentity: return .staff
        case .setPasscode: return .passcode
        case .answerComprehension: return .comprehension
        case .answerOptional: return .optional
        case .confirmWithdrawal: return .withdrawal
        case .decline, .cancel: return nil
        }
    }

    /// The name the view model lists the action by (`ConsentOffer.actions`).
    public var name: ConsentActionName {
        switch self {
        case .answerEligibility: .answer
        case .next: .next
        case .back: .back
        case .chooseSharing: .chooseSharing
        case .agree: .agree
        case .disagree: .disagree
        case .setName: .setName
        case .chooseSigner: .chooseSigner
        case .setSignerName: .setSignerName
        case .submitSignature: .submitSignature
        case .clearSignature: .clearSignature
        case .setPasscode: .setPasscode
        case .answerComprehension: .comprehensionAnswer
        case .answerOptional: .optionalAnswer
        case .unlockStaff: .staffUnlock
        case .attestIdentity: .attestIdentity
        case .confirmWithdrawal: .confirmWithdrawal
        case .decline: .decline
        case .cancel: .cancel
        }
    }
}

/// The names of the actions a step offers, for the view model (the agent maps them to protocol methods).
public enum ConsentActionName: String, Sendable, Hashable, Codable {
    case answer, next, back, chooseSharing, agree, disagree, setName, beginSignature, clearSignature
    case submitSignature, setPasscode, complete, decline, cancel, confirmWithdrawal
    case chooseSigner, setSignerName
    /// Answers the comprehension question on screen (`comprehension.answer`).
    case comprehensionAnswer
    /// Answers optional elements Yes or No (`optional.answer`).
    case optionalAnswer
    /// Prints the participant's copy of the record (`copy.print`); the agent offers it on `done` and `completed`
    /// when a printer is set, and no `ConsentSession` action stands behind it.
    case printCopy
    /// The staff step's unlock (`staff.unlock`) and identity attestation (`staff.attestIdentity`).
    case staffUnlock, attestIdentity
    /// Calls a member of staff to the kiosk (`staff.call`), on every participant screen of a running flow
    /// (`ConsentSession.offersStaffCall`); no `ConsentSession` action stands behind it: the call is the session's
    /// `staffCall`.
    case askStaff
    /// Prints the form to take home, not signed, for reading only (`copy.printBlank`); the agent offers it on the
    /// review document when a printer is set, and no `ConsentSession` action stands behind it.
    case printBlank
    /// "I want to think about it" (`flow.pause`): on the steps before the signature (`ConsentSession.offersPause`);
    /// no `ConsentSession` action stands behind it: the session ends `paused` and the agent seals its place.
    case pause
}
