/// What a flow's position offers: the one table `ConsentSession.apply` checks before anything else, and the
/// actions the view model lists (`StepViewModel.actions` is `actions`).
public struct ConsentOffer: Sendable, Hashable {
    /// The actions, in the order the page's view lists them.
    public var actions: [ConsentActionName]
    /// Whose printed name `setSignerName` takes here: the representative's or the witness's; nil where it is not
    /// offered. The participant's name is `setName` (and `setSignerName` with the role `participant`, the same
    /// action) wherever `setName` is offered.
    public var signerName: SigningRole?
    /// Accepted though the view does not list them: `staffUnlock` on the staff step's attest and signature pages,
    /// where another member of staff may take over and start the step again (the unlock form is on its first page).
    public var unlisted: [ConsentActionName]

    init(_ actions: [ConsentActionName], signerName: SigningRole? = nil, unlisted: [ConsentActionName] = []) {
        self.actions = actions
        self.signerName = signerName
        self.unlisted = unlisted
    }

    /// An ended flow's: nothing.
    public static let nothing = ConsentOffer([])

    /// Whether the position takes `action` (its arguments are the action's own to check).
    public func offers(_ action: ConsentAction) -> Bool {
        switch action {
        case .setName: return actions.contains(.setName)
        case .setSignerName(let role, _, _, _):
            return role == .participant ? actions.contains(.setName) : signerName == role
        default: return actions.contains(action.name) || unlisted.contains(action.name)
        }
    }
}

extension ConsentSession {
    /// What the flow offers where it is: its position's row, "I want to think about it" (`pause`) before the
    /// signature, and on every participant screen the call for a member of staff (`askStaff`, last).
    public var offer: ConsentOffer {
        var offer = positionOffer
        if offersPause { offer.actions.append(.pause) }
        if offersStaffCall { offer.actions.append(.askStaff) }
        return offer
    }

    /// One row per position. A new page is a new `ConsentPosition` or `ReviewPage` case and its row here.
    private var positionOffer: ConsentOffer {
        // A change of answers has nothing to decline: cancelling keeps the record's answers as they are.
        let leave: [ConsentActionName] = isChange ? [.back, .cancel] : [.back, .decline, .cancel]
        switch position {
        case .withdrawal:
            // Keeping the consent (decline) belongs to the withdrawal's review pages, once the participant
            // confirmed what it withdraws.
            return ConsentOffer([.confirmWithdrawal, .cancel])
        case .changes: return ConsentOffer([.next, .decline, .cancel])
        case .eligibility:
            var actions: [ConsentActionName] = eligibilityStatus == .eligible ? [.answer, .next] : [.answer]
            if case .reconsent = purpose { actions.append(.back) }
            return ConsentOffer(actions + [.decline, .cancel])
        case .keyInformation, .visual: return ConsentOffer([.next] + leave)
        case .sharing: return ConsentOffer([.chooseSharing] + leave)
        case .optional where isChange:
            // The first step of a change: nothing before it; `next` once an answer differs (back from the name).
            return ConsentOffer([.optionalAnswer] + (changesAnswers ? [.next] : []) + [.cancel])
        case .optional:
            // `next` once every element has its answer: back from the review document, to go on unchanged.
            return ConsentOffer([.optionalAnswer] + (hasAnsweredEveryOptionalElement ? [.next] : []) + leave)
        case .review(let page): return offer(on: page, leave: leave)
        case .comprehension:
            switch comprehension.phase {
            case .question: return ConsentOffer([.comprehensionAnswer] + leave)
            case .explanation: return ConsentOffer([.next] + leave)
            // Only the staff go on from here: they end the flow, or the participant declines.
            case .stopped: return ConsentOffer([.decline, .cancel])
            }
        case .passcode: return ConsentOffer([.setPasscode] + leave)
        case .staff(let progress):
            // The staff member does not decline for the participant: `back` hands the kiosk back, where they may.
            switch progress.page {
            case .unlock: return ConsentOffer([.staffUnlock, .back, .cancel])
            case .attest: return ConsentOffer([.attestIdentity, .back, .cancel], unlisted: [.staffUnlock])
            case .signature:
                return ConsentOffer(
                    [.beginSignature, .clearSignature, .submitSignature, .attestIdentity, .back, .cancel],
                    unlisted: [.staffUnlock])
            }
        case .done: return ConsentOffer([.complete] + leave)
        case .completed, .ineligible, .declined, .expired, .cancelled, .paused: return .nothing
        }
    }

    /// The review pages' rows: `next` once the page has what it asks for and a page follows.
    private func offer(on page: ReviewPage, leave: [ConsentActionName]) -> ConsentOffer {
        let signing: [ConsentActionName] = [.beginSignature, .clearSignature, .submitSignature]
        switch page {
        case .document: return ConsentOffer([.agree, .disagree] + leave)
        case .signer: return ConsentOffer([.chooseSigner] + (signedBy != nil ? [.next] : []) + leave)
        case .name: return ConsentOffer([.setName] + (givenName != nil ? [.next] : []) + leave)
        case .representative:
            return ConsentOffer(
                [.setSignerName] + (representativeRelationship != nil ? [.next] : []) + leave, signerName: .representative)
        case .signature:
            // The names may be corrected beside the signature; `next` only when the witness's pages follow.
            let representative = signedBy == .representative
            return ConsentOffer(
                signing + [.setName] + (representative ? [.setSignerName] : [])
                    + (asksForWitness && signature != nil ? [.next] : []) + leave,
                signerName: representative ? .representative : nil)
        case .witness:
            return ConsentOffer([.setSignerName] + (witnessGivenName != nil ? [.next] : []) + leave, signerName: .witness)
        case .witnessSignature: return ConsentOffer(signing + [.setSignerName] + leave, signerName: .witness)
        }
    }

    /// Why `apply` refuses `action` here, or nil when the position offers it: the ended flow, the action naming
    /// another step, or (for what the step has but the position does not offer) the reason, as specific as
    /// today's protocol errors are (`.notEligible`, `.missingName`, `.missingSignature`, `.staffNotUnlocked`, …).
    public func refusal(of action: ConsentAction) -> ConsentCoreError? {
        guard !step.isFinished else {
            return ConsentCoreError(.flowFinished, "the flow has ended (\(step.rawValue)); start a new one")
        }
        if let expected = action.expectedStep, expected != step {
            return ConsentCoreError(
                .stepMismatch, "the action is for step \(expected.rawValue), but the flow is at \(step.rawValue)")
        }
        if offer.offers(action) { return nil }
        switch action {
        case .next: return whyNoNext
        case .back:
            if case .comprehension = position {
                return ConsentCoreError(.invalidAction, "the comprehension check has stopped; a member of staff goes on from here")
            }
            return ConsentCoreError(.invalidAction, "the flow starts at \(step.rawValue); there is nothing before it")
        case .agree, .disagree:
            return ConsentCoreError(
                .stepMismatch, "\(action.name.rawValue) belongs to the review page document, but the flow shows \(reviewPage.rawValue)")
        case .setName: return ConsentCoreError(.stepMismatch, "agree to the review document before giving the name")
        case .setSignerName(let role, _, _, let relationship):
            return whyNoName(of: role, relationship: relationship)
        case .chooseSigner:
            guard offersRepresentative else {
                return ConsentCoreError(.invalidAction, "this study does not allow a representative to sign for the participant")
            }
            return ConsentCoreError(
                .stepMismatch, "chooseSigner belongs to the review page signer, but the flow shows \(reviewPage.rawValue)")
        case .submitSignature, .clearSignature:
            if case .staff(let progress) = position {
                return ConsentCoreError(
                    .stepMismatch,
                    "the person obtaining consent signs after unlocking and attesting identity (page \(progress.page.rawValue))")
            }
            return ConsentCoreError(
                .stepMismatch, "\(action.name.rawValue) belongs to a signature page, but the flow shows \(placeName)")
        case .answerComprehension:
            return ConsentCoreError(
                .stepMismatch,
                comprehension.phase == .stopped
                    ? "the comprehension check has stopped; a member of staff goes on from here"
                    : "the comprehension screen shows the explanation; go on with next to be asked again")
        case .attestIdentity:
            return ConsentCoreError(.staffNotUnlocked, "the person obtaining consent unlocks with staff.unlock first")
        case .decline:
            if case .staff = position {
                return ConsentCoreError(
                    .invalidAction, "the staff step offers back or cancel; the participant declines on their own pages")
            }
            return ConsentCoreError(.invalidAction, "the \(step.rawValue) step offers \(offeredNames)")
        case .answerEligibility, .chooseSharing, .answerOptional, .setPasscode, .unlockStaff, .confirmWithdrawal,
            .cancel:
            // Offered wherever their step is; kept for a new position that does not offer them.
            return notOffered(action)
        }
    }

    /// The refusal of an action the position does not offer, for which no more specific reason is known.
    func notOffered(_ action: ConsentAction) -> ConsentCoreError {
        ConsentCoreError(.invalidAction, "\(action.name.rawValue) is not offered at \(placeName); it offers \(offeredNames)")
    }

    private var offeredNames: String { offer.actions.map(\.rawValue).joined(separator: ", ") }

    /// The step, and the page at the review step and the staff step, for an error message.
    var placeName: String {
        switch position {
        case .review(let page): return "\(step.rawValue) \(page.rawValue)"
        case .staff(let progress): return "\(step.rawValue) \(progress.page.rawValue)"
        default: return step.rawValue
        }
    }

    /// Why `next` is not offered: what the page still needs (or that its own action moves on).
    private var whyNoNext: ConsentCoreError {
        switch position {
        case .withdrawal: return ConsentCoreError(.invalidAction, "confirm the withdrawal to go on")
        case .eligibility: return ConsentCoreError(.notEligible, "answer every eligibility question before going on")
        case .sharing: return ConsentCoreError(.invalidAction, "choose how to share the data to go on")
        case .optional:
            if isChange { return ConsentCoreError(.invalidAction, "change at least one answer to go on (optional.answer)") }
            return ConsentCoreError(.invalidAction, "answer every optional element Yes or No to go on")
        case .passcode: return ConsentCoreError(.invalidAction, "set the passcode to go on")
        case .staff:
            return ConsentCoreError(.invalidAction, "the person obtaining consent unlocks, attests identity and signs to go on")
        case .done: return ConsentCoreError(.invalidAction, "there is no next step after done")
        case .comprehension:
            return ConsentCoreError(
                .invalidAction,
                comprehension.phase == .stopped
                    ? "the comprehension check has stopped; a member of staff goes on from here"
                    : "answer the question to go on")
        case .review(let page):
            switch page {
            case .document: return ConsentCoreError(.invalidAction, "agree or disagree to leave the review document")
            case .signer:
                return ConsentCoreError(.invalidAction, "choose who signs (the participant or a representative) first")
            case .name: return ConsentCoreError(.missingName, "give both the given and the family name first")
            case .representative:
                return ConsentCoreError(.missingName, "give the representative's name and relationship first")
            case .witness: return ConsentCoreError(.missingName, "give the witness's given and family name first")
            // The last page is a signature: submitting it is what moves on.
            case .signature, .witnessSignature: return ConsentCoreError(.missingSignature, "submit the signature to go on")
            }
        case .changes, .keyInformation, .visual, .completed, .ineligible, .declined, .expired, .cancelled, .paused:
            return notOffered(.next(step))
        }
    }

    /// Why `setSignerName` for `role` is not offered on this page.
    private func whyNoName(of role: SigningRole, relationship: String?) -> ConsentCoreError {
        switch role {
        case .participant:
            if relationship != nil { return Self.relationshipOfAnotherSigner }
            return ConsentCoreError(.stepMismatch, "agree to the review document before giving the name")
        case .representative:
            guard signedBy == .representative else {
                return ConsentCoreError(.invalidAction, "choose the representative as the signer before giving their name")
            }
            return ConsentCoreError(
                .stepMismatch, "the representative's name belongs to the review page representative, but the flow shows \(reviewPage.rawValue)")
        case .witness:
            guard asksForWitness else { return ConsentCoreError(.invalidAction, "this study does not ask for a witness") }
            return ConsentCoreError(
                .stepMismatch, "the witness's name belongs to the review page witness, but the flow shows \(reviewPage.rawValue)")
        case .personObtainingConsent: return Self.staffNamedByCredential
        }
    }
}
