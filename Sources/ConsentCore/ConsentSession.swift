import EnteredText

/// One participant's consent flow as a pure state machine: eligibility → visual → sharing → reviewStep →
/// passcode → done (docs/C3PRO.md, section 3). The UI only displays what `viewModel` says and sends `ConsentAction`s.
/// A re-consent shows `changes` first; a withdrawal is `withdrawal` (the reason) → the review's name and
/// signature pages → done (`FlowPurpose`).
///
/// No I/O and no clock of its own: every call passes `now`, a monotonic instant, so the inactivity expiry is
/// tested by passing instants, and the agent owns real time. Declining, cancelling, expiring or becoming
/// ineligible wipes the names, the signatures (the representative's and witness's too), the PIN and the answers.
///
/// The review step's pages are one ordered list, `reviewPages` (document → signer → name → representative →
/// signature → witness → witnessSignature, each only when the study and the chosen signer ask for it); every
/// transition moves along it. What each signer gave is one map, `signers`, by role.
public struct ConsentSession: Sendable {
    public static let defaultInactivityTimeout: Duration = .seconds(600)

    public let id: String
    public let study: Study
    public let inactivityTimeout: Duration
    /// A first consent, a withdrawal of a record, or a re-consent replacing one.
    public let purpose: FlowPurpose

    public private(set) var step: ConsentStep
    /// Index into `study.document.visualSections` while at `.visual`.
    public private(set) var sceneIndex = 0
    public private(set) var reviewPage: ReviewPage = .document
    public private(set) var answers: [Bool?]
    public private(set) var eligibilityStatus: EligibilityStatus
    public private(set) var shareWidely: Bool?
    /// What each signer gave, by role: the participant's name (always asked), the representative's name and
    /// relationship (when one signs), the witness's name (when one is required), and each one's signature once given.
    /// A signature is only ever added to an entry that has its name.
    public private(set) var signers: [SigningRole: SignerEntry] = [:]
    public private(set) var passcodeHash: PasscodeHash?
    /// Who signs the consent; `.participant` unless the study allows a representative and one was chosen.
    public private(set) var signedBy: SigningRole?
    /// A withdrawal's reason, when the participant gave one; wiped like the name when the flow ends.
    public private(set) var withdrawalReason: String?
    /// The instant of the last accepted action (or of the start).
    public private(set) var lastActivity: Duration
    /// The comprehension check between the review document and the name (`comprehension`): the study's questions
    /// and the answers given. Empty questions: the flow has no check.
    public private(set) var comprehension: ComprehensionProgress
    /// Whether the person obtaining consent countersigns on the `staff` step (`staffCountersignature: required`).
    public let requiresStaffCountersignature: Bool
    /// The `staff` step's progress: who unlocked, how identity was verified, the staff signature.
    public private(set) var staff = StaffProgress()

    /// Starts a flow at the eligibility step.
    ///
    /// - Parameters:
    ///   - id: the flow id the agent hands out.
    ///   - now: monotonic time, e.g. `ContinuousClock.now` as a `Duration` since the agent started.
    ///   - purpose: a withdrawal starts at `.withdrawal` and asks only for the reason, the name and the signature;
    ///     a re-consent starts at `.changes`, then runs the whole consent.
    public init(
        id: String, study: Study, now: Duration, inactivityTimeout: Duration = defaultInactivityTimeout,
        purpose: FlowPurpose = .consent, staffCountersignature: Bool = false
    ) {
        self.requiresStaffCountersignature = staffCountersignature
        self.id = id
        self.study = study
        self.inactivityTimeout = inactivityTimeout
        self.purpose = purpose
        switch purpose {
        case .consent: self.step = .eligibility
        case .withdrawal:
            self.step = .withdrawal
            self.reviewPage = .name
        case .reconsent: self.step = .changes
        }
        self.answers = Array(repeating: nil, count: study.document.eligibility.count)
        self.eligibilityStatus = study.document.eligibility.evaluate([])
        self.lastActivity = now
        var questions = study.document.comprehension
        // A withdrawal has no document to understand: only the reason, the name and the signature.
        if case .withdrawal = purpose { questions = [] }
        self.comprehension = ComprehensionProgress(questions: questions, policy: study.options.comprehension)
        self.signedBy = offersRepresentative ? nil : .participant
    }

    /// The review step's pages of this flow, in order: the one place the page order is written. A withdrawal asks
    /// only for the participant's name and signature; a consent shows the document first, the signer choice when a
    /// representative is allowed, the representative's page when one signs, and the witness's two pages when one is
    /// required.
    public var reviewPages: [ReviewPage] {
        if isWithdrawal { return [.name, .signature] }
        var pages: [ReviewPage] = [.document]
        if offersRepresentative { pages.append(.signer) }
        pages.append(.name)
        if signedBy == .representative { pages.append(.representative) }
        pages.append(.signature)
        if asksForWitness { pages += [.witness, .witnessSignature] }
        return pages
    }

    /// Whose signature is the consent's: the participant's, or the representative's when one was chosen.
    public var consentSigner: SigningRole { signedBy ?? .participant }

    public var givenName: String? { signers[.participant]?.givenName }
    public var familyName: String? { signers[.participant]?.familyName }
    /// The consent signature: the participant's, or the representative's when `signedBy` is `.representative`.
    public var signature: SignatureStrokes? { signers[consentSigner]?.signature }
    public var representativeGivenName: String? { signers[.representative]?.givenName }
    public var representativeFamilyName: String? { signers[.representative]?.familyName }
    public var representativeRelationship: RepresentativeRelationship? { signers[.representative]?.relationship }
    public var witnessGivenName: String? { signers[.witness]?.givenName }
    public var witnessFamilyName: String? { signers[.witness]?.familyName }
    public var witnessSignature: SignatureStrokes? { signers[.witness]?.signature }

    /// When the flow expires unless an action comes first.
    public var deadline: Duration { lastActivity + inactivityTimeout }

    /// Expires the flow when it has been idle for the timeout; returns whether it did.
    @discardableResult
    public mutating func expireIfIdle(now: Duration) -> Bool {
        guard !step.isFinished, now >= deadline else { return false }
        finish(as: .expired)
        return true
    }

    /// The participant asked for more time ("I need more time" after the expiry warning): the inactivity clock
    /// starts again from `now`, and nothing else changes.
    ///
    /// - Throws: `ConsentCoreError(.flowFinished)` when the flow has ended, or expired before the request came.
    public mutating func extend(now: Duration) throws {
        if expireIfIdle(now: now) {
            throw ConsentCoreError(.flowFinished, "the flow expired after \(inactivityTimeout) without activity; start a new one")
        }
        guard !step.isFinished else {
            throw ConsentCoreError(.flowFinished, "the flow has ended (\(step.rawValue)); start a new one")
        }
        lastActivity = now
    }

    /// Expires a running flow now, whatever its inactivity clock says (the agent's flows of a closed connection).
    ///
    /// - Returns: whether the flow was running and is now `expired`.
    public mutating func expireNow() -> Bool {
        guard !step.isFinished else { return false }
        finish(as: .expired)
        return true
    }

    /// Applies an action.
    ///
    /// - Throws: `ConsentCoreError` with `.flowFinished` (or the expiry), `.stepMismatch` when the action names
    ///   another step, `.invalidAction` when the step does not offer it, or the action's own validation error.
    ///   A refused action changes nothing (not even the inactivity clock).
    public mutating func apply(_ action: ConsentAction, now: Duration) throws {
        if expireIfIdle(now: now) {
            throw ConsentCoreError(.flowFinished, "the flow expired after \(inactivityTimeout) without activity; start a new one")
        }
        guard !step.isFinished else {
            throw ConsentCoreError(.flowFinished, "the flow has ended (\(step.rawValue)); start a new one")
        }
        if let expected = action.expectedStep, expected != step {
            throw ConsentCoreError(
                .stepMismatch, "the action is for step \(expected.rawValue), but the flow is at \(step.rawValue)")
        }
        switch action {
        case .answerEligibility(let given): try answerEligibility(given)
        case .next: try goNext()
        case .back: try goBack()
        case .chooseSharing(let widely):
            shareWidely = widely
            step = .reviewStep
            reviewPage = .document
        case .agree:
            try requirePage(.document, for: "agree")
            if comprehension.isComplete {
                showPage(after: .document)
            } else {
                // Understanding is checked before the name and signature; a participant who went back to the
                // document resumes the check where they left it.
                step = .comprehension
            }
        case .answerComprehension(let question, let choice):
            try comprehension.answer(question: question, choice: choice)
            if comprehension.isComplete { leaveComprehension() }
        case .disagree:
            try requirePage(.document, for: "disagree")
            finish(as: .declined)
        case .setName(let given, let family): try setName(given: given, family: family)
        case .chooseSigner(let role): try chooseSigner(role)
        case .setSignerName(let role, let given, let family, let relationship):
            try setSignerName(role, given: given, family: family, relationship: relationship)
        case .submitSignature(let strokes): try submitSignature(strokes)
        case .clearSignature:
            if step == .staff {
                guard staff.page == .signature else {
                    throw ConsentCoreError(.stepMismatch, "clearSignature belongs to the staff signature page")
                }
                staff.signature = nil
                break
            }
            guard step == .reviewStep else {
                throw ConsentCoreError(.stepMismatch, "clearSignature belongs to a signature page, but the flow is at \(step.rawValue)")
            }
            switch reviewPage {
            case .signature:
                signers[consentSigner]?.signature = nil
                // A witness attests the signature they saw; a new one needs a new attestation.
                signers[.witness]?.signature = nil
            case .witnessSignature:
                signers[.witness]?.signature = nil
            default:
                throw ConsentCoreError(
                    .stepMismatch, "clearSignature belongs to a signature page, but the flow shows \(reviewPage.rawValue)")
            }
        case .setPasscode(let passcode):
            passcodeHash = try PasscodeHash(passcode: passcode)
            step = afterParticipant
        case .unlockStaff(let member):
            if staff.member != member { staff = StaffProgress() }
            staff.member = member
        case .attestIdentity(let method, let note): try attestIdentity(method, note: note)
        case .confirmWithdrawal(let reason): try confirmWithdrawal(reason: reason)
        case .decline:
            // The withdrawal step offers confirm and cancel only (its view model): declining means keeping the
            // consent, which belongs to the withdrawal's review pages, after the participant confirmed what it is.
            guard step != .withdrawal else {
                throw ConsentCoreError(.invalidAction, "the withdrawal step offers confirmWithdrawal or cancel")
            }
            // The staff member does not decline for the participant: `back` hands the kiosk back, where they may.
            guard step != .staff else {
                throw ConsentCoreError(.invalidAction, "the staff step offers back or cancel; the participant declines on their own pages")
            }
            finish(as: .declined)
        case .cancel: finish(as: .cancelled)
        }
        lastActivity = now
    }

    /// What the flow collected, once it is `.done`.
    ///
    /// - Throws: `.invalidAction` before the flow reached `.done`.
    public func outcome() throws -> ConsentOutcome {
        guard step == .done, let givenName, let familyName, let signature else {
            throw ConsentCoreError(.invalidAction, "the consent is not complete yet (the flow is at \(step.rawValue))")
        }
        var representative: ConsentRepresentative?
        if signedBy == .representative {
            guard let given = representativeGivenName, let family = representativeFamilyName,
                let relationship = representativeRelationship
            else { throw ConsentCoreError(.missingName, "the representative's name and relationship are missing") }
            representative = ConsentRepresentative(givenName: given, familyName: family, relationship: relationship)
        }
        var witness: ConsentWitness?
        if asksForWitness {
            guard let given = witnessGivenName, let family = witnessFamilyName, let strokes = witnessSignature else {
                throw ConsentCoreError(.missingSignature, "the witness's name and signature are missing")
            }
            witness = ConsentWitness(givenName: given, familyName: family, signature: strokes)
        }
        var countersignature: StaffAttestation?
        if asksForStaff {
            // `staffCountersignature: required`: no record without the person obtaining consent's part.
            guard let member = staff.member, let method = staff.method, let strokes = staff.signature else {
                throw ConsentCoreError(.missingSignature, "the person obtaining consent has not attested and signed")
            }
            countersignature = StaffAttestation(staff: member, method: method, note: staff.note, signature: strokes)
        }
        var link: RecordLink?
        switch purpose {
        case .consent: break
        case .withdrawal(let target):
            link = RecordLink(
                kind: .withdrawal, recordID: target.recordID, reason: withdrawalReason, studyTitle: target.studyTitle,
                signedOn: target.signedOnText)
        case .reconsent(let basis): link = RecordLink(kind: .reconsent, recordID: basis.previousRecordID)
        }
        return ConsentOutcome(
            studyID: study.id, studyVersion: study.version, eligibilityAnswers: answers, shareWidely: shareWidely,
            givenName: givenName, familyName: familyName, signature: signature, passcodeHash: passcodeHash,
            representative: representative, witness: witness, link: link, comprehension: comprehension.outcome,
            personObtainingConsent: countersignature)
    }

    /// Marks the flow completed once its record is durable, and forgets what it collected.
    ///
    /// - Throws: `.invalidAction` unless the flow is `.done`.
    public mutating func markCompleted() throws {
        guard step == .done else {
            throw ConsentCoreError(.invalidAction, "only a finished consent can be completed (the flow is at \(step.rawValue))")
        }
        finish(as: .completed)
    }

    /// Checks that a signature may be captured now (the agent starts the pad only then): any signature page
    /// when `role` is nil, else the page of `role`'s signature.
    ///
    /// - Throws: `.flowFinished`, or `.stepMismatch` naming whose signature the flow asks for.
    public func requireSignaturePage(role: SigningRole? = nil) throws {
        guard !step.isFinished else { throw ConsentCoreError(.flowFinished, "the flow has ended (\(step.rawValue))") }
        if step == .staff {
            guard staff.page == .signature else {
                throw ConsentCoreError(
                    .stepMismatch, "the person obtaining consent signs after unlocking and attesting identity (page \(staff.page.rawValue))")
            }
            if let role, role != .personObtainingConsent {
                throw ConsentCoreError(.stepMismatch, "the flow asks for the personObtainingConsent's signature, not the \(role.rawValue)'s")
            }
            return
        }
        guard step == .reviewStep else {
            throw ConsentCoreError(.stepMismatch, "signatures are taken at step reviewStep, but the flow is at \(step.rawValue)")
        }
        guard let expected = signingRole else {
            throw ConsentCoreError(
                .stepMismatch, "beginSignature belongs to a signature page, but the flow shows \(reviewPage.rawValue)")
        }
        if let role, role != expected {
            throw ConsentCoreError(
                .stepMismatch, "the flow asks for the \(expected.rawValue)'s signature, not the \(role.rawValue)'s")
        }
    }

    /// Whose signature the current page takes; nil off the signature pages.
    public var signingRole: SigningRole? {
        if step == .staff { return staff.page == .signature ? .personObtainingConsent : nil }
        guard step == .reviewStep else { return nil }
        switch reviewPage {
        case .signature: return consentSigner
        case .witnessSignature: return .witness
        case .document, .signer, .name, .representative, .witness: return nil
        }
    }

    // MARK: - Transitions

    private mutating func answerEligibility(_ given: [Bool?]) throws {
        let count = study.document.eligibility.count
        guard given.count <= count else {
            throw ConsentCoreError(.invalidAnswers, "the study has \(count) eligibility questions, \(given.count) answers were given")
        }
        answers = given + Array(repeating: nil, count: count - given.count)
        eligibilityStatus = study.document.eligibility.evaluate(answers)
        if eligibilityStatus == .ineligible { finish(as: .ineligible) }
    }

    private mutating func goNext() throws {
        switch step {
        case .withdrawal:
            throw ConsentCoreError(.invalidAction, "confirm the withdrawal to go on")
        case .changes:
            step = .eligibility
        case .eligibility:
            guard eligibilityStatus == .eligible else {
                throw ConsentCoreError(.notEligible, "answer every eligibility question before going on")
            }
            enterAfterEligibility()
        case .visual:
            if sceneIndex + 1 < study.document.visualSectionCount {
                sceneIndex += 1
            } else {
                enterAfterVisual()
            }
        case .comprehension:
            try comprehension.next()
            if comprehension.isComplete { leaveComprehension() }
        case .reviewStep:
            try requirePageComplete(reviewPage)
            guard showPage(after: reviewPage) else {
                // The last page is a signature: submitting it is what moves on.
                throw ConsentCoreError(.missingSignature, "submit the signature to go on")
            }
        case .sharing:
            throw ConsentCoreError(.invalidAction, "choose how to share the data to go on")
        case .passcode:
            throw ConsentCoreError(.invalidAction, "set the passcode to go on")
        case .staff:
            throw ConsentCoreError(.invalidAction, "the person obtaining consent unlocks, attests identity and signs to go on")
        case .done, .completed, .ineligible, .declined, .expired, .cancelled:
            throw ConsentCoreError(.invalidAction, "there is no next step after \(step.rawValue)")
        }
    }

    private mutating func goBack() throws {
        switch step {
        case .withdrawal, .changes:
            throw ConsentCoreError(.invalidAction, "the flow starts at \(step.rawValue); there is nothing before it")
        case .eligibility:
            guard case .reconsent = purpose else {
                throw ConsentCoreError(.invalidAction, "the flow starts at eligibility; there is nothing before it")
            }
            step = .changes
        case .visual:
            if sceneIndex > 0 { sceneIndex -= 1 } else { step = .eligibility }
        case .sharing:
            enterBeforeSharing()
        case .comprehension:
            guard comprehension.phase != .stopped else {
                throw ConsentCoreError(.invalidAction, "the comprehension check has stopped; a member of staff goes on from here")
            }
            // Back to the document to read it again; the answers given so far stay.
            step = .reviewStep
            reviewPage = .document
        case .reviewStep:
            if let index = reviewPages.firstIndex(of: reviewPage), index > 0 {
                reviewPage = reviewPages[index - 1]
            } else if isWithdrawal {
                step = .withdrawal
            } else {
                enterBeforeReview()
            }
        case .passcode:
            step = .reviewStep
            reviewPage = lastSignaturePage
        case .staff:
            // Handing the kiosk back to the participant locks the staff step again: a new unlock is needed.
            staff = StaffProgress()
            enterBeforeStaff()
        case .done:
            if asksForStaff {
                step = .staff
            } else if study.options.askToCreatePasscode, !isWithdrawal {
                step = .passcode
            } else {
                step = .reviewStep
                reviewPage = lastSignaturePage
            }
        case .completed, .ineligible, .declined, .expired, .cancelled:
            throw ConsentCoreError(.flowFinished, "the flow has ended (\(step.rawValue))")
        }
    }

    /// After the last question: on to the page after the document (the signer choice or the name).
    private mutating func leaveComprehension() {
        step = .reviewStep
        reviewPage = .document
        showPage(after: .document)
    }

    /// The participant's part is over: the staff step when the person obtaining consent countersigns, else done.
    private var afterParticipant: ConsentStep { asksForStaff ? .staff : .done }

    /// Whether the flow has the `staff` step: a consent or re-consent with `staffCountersignature: required` (a
    /// withdrawal is the participant's own act; nobody obtains it).
    public var asksForStaff: Bool { requiresStaffCountersignature && !isWithdrawal }

    private mutating func enterBeforeStaff() {
        if study.options.askToCreatePasscode, !isWithdrawal {
            step = .passcode
        } else {
            step = .reviewStep
            reviewPage = lastSignaturePage
        }
    }

    private mutating func attestIdentity(_ method: IdentityVerification, note: String?) throws {
        guard staff.member != nil else {
            throw ConsentCoreError(.staffNotUnlocked, "the person obtaining consent unlocks with staff.unlock first")
        }
        let note = note?.trimmingWhitespace
        let kept = (note?.isEmpty ?? true) ? nil : note
        if let kept { try Self.checkEntered("the note", kept, as: .visible(maximumCharacters: StaffAttestation.maximumNoteLength)) }
        if method == .other, kept == nil {
            throw ConsentCoreError(.invalidField, "the method other needs a short note saying how identity was verified")
        }
        if staff.method != method || staff.note != kept { staff.signature = nil }
        staff.method = method
        staff.note = kept
    }

    /// The page before the passcode (or done): the last of the review pages, a signature.
    private var lastSignaturePage: ReviewPage { reviewPages.last ?? .signature }

    /// Shows the review page after `page`; false when `page` is the last (or not a page of this flow).
    @discardableResult
    private mutating func showPage(after page: ReviewPage) -> Bool {
        let pages = reviewPages
        guard let index = pages.firstIndex(of: page), index + 1 < pages.count else { return false }
        reviewPage = pages[index + 1]
        return true
    }

    /// What `next` needs before it leaves a review page.
    private func requirePageComplete(_ page: ReviewPage) throws {
        switch page {
        case .document:
            throw ConsentCoreError(.invalidAction, "agree or disagree to leave the review document")
        case .signer:
            guard signedBy != nil else {
                throw ConsentCoreError(.invalidAction, "choose who signs (the participant or a representative) first")
            }
        case .name:
            guard givenName != nil, familyName != nil else {
                throw ConsentCoreError(.missingName, "give both the given and the family name first")
            }
        case .representative:
            guard representativeGivenName != nil, representativeRelationship != nil else {
                throw ConsentCoreError(.missingName, "give the representative's name and relationship first")
            }
        case .witness:
            guard witnessGivenName != nil, witnessFamilyName != nil else {
                throw ConsentCoreError(.missingName, "give the witness's given and family name first")
            }
        case .signature, .witnessSignature:
            // Back at a signature already given (to correct the witness's name, say): on to the next page.
            guard (page == .signature ? signature : witnessSignature) != nil else {
                throw ConsentCoreError(.missingSignature, "submit the signature to go on")
            }
        }
    }

    /// Keeps a signer's name (and a representative's relationship); a signature already given stays.
    private mutating func record(
        _ role: SigningRole, given: String, family: String, relationship: RepresentativeRelationship? = nil
    ) {
        signers[role] = SignerEntry(
            givenName: given, familyName: family, relationship: relationship, signature: signers[role]?.signature)
    }

    private mutating func enterAfterEligibility() {
        if study.document.visualSectionCount == 0 {
            enterAfterVisual()
        } else {
            step = .visual
            sceneIndex = 0
        }
    }

    private mutating func enterAfterVisual() {
        if study.options.askForSharing {
            step = .sharing
        } else {
            step = .reviewStep
            reviewPage = .document
        }
    }

    private mutating func enterBeforeSharing() {
        if study.document.visualSectionCount == 0 {
            step = .eligibility
        } else {
            step = .visual
            sceneIndex = study.document.visualSectionCount - 1
        }
    }

    private mutating func enterBeforeReview() {
        if study.options.askForSharing { step = .sharing } else { enterBeforeSharing() }
    }

    /// Whether the flow asks for a witness: a consent of a study that requires one (a withdrawal is signed by the
    /// participant alone, as main's withdrawal flow defines it).
    public var asksForWitness: Bool { study.options.requireWitness && !isWithdrawal }
    /// Whether the flow offers the signer choice: a consent of a study that allows a representative.
    public var offersRepresentative: Bool { study.options.allowRepresentative && !isWithdrawal }

    private var isWithdrawal: Bool {
        if case .withdrawal = purpose { return true }
        return false
    }

    /// The longest withdrawal reason kept; a sentence or two, not a letter.
    public static let maximumReasonLength = 1000

    private mutating func confirmWithdrawal(reason: String?) throws {
        let reason = reason?.trimmingWhitespace
        if let reason {
            try Self.checkEntered("a withdrawal reason", reason, as: .visible(maximumCharacters: Self.maximumReasonLength))
        }
        withdrawalReason = (reason?.isEmpty ?? true) ? nil : reason
        step = .reviewStep
        reviewPage = reviewPages.first ?? .name
    }

    private func requirePage(_ page: ReviewPage, for action: String) throws {
        guard reviewPage == page else {
            throw ConsentCoreError(
                .stepMismatch, "\(action) belongs to the review page \(page.rawValue), but the flow shows \(reviewPage.rawValue)")
        }
    }

    private mutating func setName(given: String, family: String) throws {
        guard reviewPage == .name || reviewPage == .signature else {
            throw ConsentCoreError(.stepMismatch, "agree to the review document before giving the name")
        }
        let (given, family) = try Self.validName(given: given, family: family)
        record(.participant, given: given, family: family)
        if reviewPage == .name { showPage(after: .name) }
    }

    private mutating func chooseSigner(_ role: SigningRole) throws {
        guard offersRepresentative else {
            throw ConsentCoreError(.invalidAction, "this study does not allow a representative to sign for the participant")
        }
        guard reviewPage == .signer else {
            throw ConsentCoreError(.stepMismatch, "chooseSigner belongs to the review page signer, but the flow shows \(reviewPage.rawValue)")
        }
        guard role != .witness, role != .personObtainingConsent else {
            throw ConsentCoreError(.invalidField, "the consent is signed by the participant or a representative, not by the witness")
        }
        if signedBy != role {
            // What was given for the other signer no longer applies.
            signers[.participant]?.signature = nil
            signers[.representative] = nil
            signers[.witness]?.signature = nil
        }
        signedBy = role
        showPage(after: .signer)
    }

    private mutating func setSignerName(_ role: SigningRole, given: String, family: String, relationship: String?) throws {
        switch role {
        case .participant:
            guard relationship == nil else {
                throw ConsentCoreError(.invalidField, "only a representative has a relationship to the participant")
            }
            try setName(given: given, family: family)
        case .representative:
            guard signedBy == .representative else {
                throw ConsentCoreError(.invalidAction, "choose the representative as the signer before giving their name")
            }
            guard reviewPage == .representative || reviewPage == .signature else {
                throw ConsentCoreError(
                    .stepMismatch, "the representative's name belongs to the review page representative, but the flow shows \(reviewPage.rawValue)")
            }
            guard let code = relationship else {
                throw ConsentCoreError(.missingName, "give the representative's relationship to the participant")
            }
            guard let chosen = study.representativeRelationships.first(where: { $0.code == code }) else {
                let codes = study.options.representativeRelationships.map(\.code).joined(separator: ", ")
                throw ConsentCoreError(.invalidField, "the relationship must be one of the study's codes: \(codes)")
            }
            let (given, family) = try Self.validName(given: given, family: family)
            record(.representative, given: given, family: family, relationship: chosen)
            if reviewPage == .representative { showPage(after: .representative) }
        case .witness:
            guard asksForWitness else {
                throw ConsentCoreError(.invalidAction, "this study does not ask for a witness")
            }
            guard reviewPage == .witness || reviewPage == .witnessSignature else {
                throw ConsentCoreError(
                    .stepMismatch, "the witness's name belongs to the review page witness, but the flow shows \(reviewPage.rawValue)")
            }
            guard relationship == nil else {
                throw ConsentCoreError(.invalidField, "only a representative has a relationship to the participant")
            }
            let (given, family) = try Self.validName(given: given, family: family)
            record(.witness, given: given, family: family)
            if reviewPage == .witness { showPage(after: .witness) }
        case .personObtainingConsent:
            throw ConsentCoreError(.invalidField, "the person obtaining consent is named by their staff credential (staff.unlock)")
        }
    }

    private static func validName(given: String, family: String) throws -> (String, String) {
        let given = given.trimmingWhitespace, family = family.trimmingWhitespace
        guard !given.isEmpty, !family.isEmpty else {
            throw ConsentCoreError(.missingName, "both the given and the family name are required")
        }
        try checkEntered("the given name", given, as: .name)
        try checkEntered("the family name", family, as: .name)
        return (given, family)
    }

    /// The longest given or family name kept, in characters (and six times as many UTF-8 bytes: `EnteredText`).
    public static let maximumNameLength = 200

    private enum EnteredKind {
        case name
        case visible(maximumCharacters: Int)
    }

    /// Typed text held to `EnteredText`'s rule (no control or bidi characters; a name's characters; the bounds):
    /// a refusal is `InvalidField`, naming what was typed (`what`) and the rule, never the text.
    private static func checkEntered(_ what: String, _ text: String, as kind: EnteredKind) throws {
        do throws(EnteredText.Refusal) {
            switch kind {
            case .name: try EnteredText.checkName(text, maximumCharacters: maximumNameLength)
            case .visible(let maximum): try EnteredText.checkVisible(text, maximumCharacters: maximum)
            }
        } catch {
            throw ConsentCoreError(.invalidField, "\(what) \(error)")
        }
    }

    private mutating func submitSignature(_ strokes: SignatureStrokes) throws {
        if step == .staff {
            try requireSignaturePage(role: .personObtainingConsent)
            try strokes.validate()
            guard !strokes.isEmpty else { throw ConsentCoreError(.missingSignature, "the signature is empty; sign first") }
            staff.signature = strokes
            step = .done
            return
        }
        guard step == .reviewStep else {
            throw ConsentCoreError(.stepMismatch, "submitSignature belongs to a signature page, but the flow is at \(step.rawValue)")
        }
        switch reviewPage {
        case .signature:
            guard givenName != nil, familyName != nil else {
                throw ConsentCoreError(.missingName, "give both the given and the family name before signing")
            }
            if signedBy == .representative, representativeGivenName == nil || representativeRelationship == nil {
                throw ConsentCoreError(.missingName, "give the representative's name and relationship before signing")
            }
        case .witnessSignature:
            guard witnessGivenName != nil, witnessFamilyName != nil else {
                throw ConsentCoreError(.missingName, "give the witness's name before the witness signs")
            }
        default:
            throw ConsentCoreError(
                .stepMismatch, "submitSignature belongs to a signature page, but the flow shows \(reviewPage.rawValue)")
        }
        try strokes.validate()
        guard !strokes.isEmpty else { throw ConsentCoreError(.missingSignature, "the signature is empty; sign first") }
        if reviewPage == .signature {
            signers[consentSigner]?.signature = strokes
            // A witness attests the signature they saw; a new one needs a new attestation.
            signers[.witness]?.signature = nil
        } else {
            signers[.witness]?.signature = strokes
        }
        if showPage(after: reviewPage) { return }
        // A withdrawal sets no new passcode: the record it writes is never withdrawn in turn.
        step = study.options.askToCreatePasscode && !isWithdrawal ? .passcode : afterParticipant
    }

    /// Ends the flow; anything a participant gave is forgotten unless the consent completed.
    private mutating func finish(as end: ConsentStep) {
        step = end
        signers = [:]
        staff = StaffProgress()
        passcodeHash = nil
        withdrawalReason = nil
        if end != .completed { shareWidely = nil }
        answers = answers.map { _ in nil }
        comprehension.wipe()
    }
}

extension String {
    fileprivate var trimmingWhitespace: String {
        let scalars = unicodeScalars
        guard let start = scalars.firstIndex(where: { !$0.properties.isWhitespace }),
            let end = scalars.lastIndex(where: { !$0.properties.isWhitespace })
        else { return "" }
        return String(scalars[start...end])
    }
}
