import EnteredText

/// One participant's consent flow as a pure state machine: eligibility → keyInformation (when the study has it) →
/// visual → sharing → optional (when the study has optional elements) → reviewStep → passcode → done
/// (docs/C3PRO.md, section 3). The UI only displays what `viewModel` says and sends `ConsentAction`s.
/// A re-consent shows `changes` first; a withdrawal is `withdrawal` (the reason) → the review's name and
/// signature pages → done; a change of answers is `optional` (the record's answers, to change) → the name and
/// signature pages → done (`FlowPurpose`).
///
/// No I/O and no clock of its own: every call passes `now`, a monotonic instant, so the inactivity expiry is
/// tested by passing instants, and the agent owns real time. Declining, cancelling, expiring or becoming
/// ineligible wipes the names, the signatures (the representative's and witness's too), the PIN and the answers.
///
/// The review step's pages are one ordered list, `reviewPages` (document → signer → name → representative →
/// signature → witness → witnessSignature, each only when the study and the chosen signer ask for it); every
/// transition moves along it. What each signer gave is one map, `signers`, by role.
///
/// Where the flow is, is one value, `position` (`ConsentPosition`: the scene at `visual`, the page at
/// `reviewStep`, the staff member's progress at `staff`); `step`, `sceneIndex`, `reviewPage` and `staff` are read
/// from it. What a position offers is one table, `offer` (ConsentSession+Offer.swift): `apply` refuses anything
/// else before it looks at the action's arguments, with the error that says why (`refusal(of:)`), and the view
/// model lists exactly `offer.actions`. A new review page is a `ReviewPage` case, its place in `reviewPages` and
/// its row in `offer`.
public struct ConsentSession: Sendable {
    public static let defaultInactivityTimeout: Duration = .seconds(600)

    public let id: String
    public let study: Study
    public let inactivityTimeout: Duration
    /// A first consent, a withdrawal of a record, or a re-consent replacing one.
    public let purpose: FlowPurpose

    /// Where the flow is: the one record of its place (`ConsentPosition`).
    public private(set) var position: ConsentPosition
    /// The position's step.
    public var step: ConsentStep { position.step }
    /// Index into `study.document.visualSections` at `.visual`; 0 elsewhere.
    public var sceneIndex: Int {
        if case .visual(let scene) = position { return scene }
        return 0
    }
    /// The review page shown at `.reviewStep`. Elsewhere the page the review step is entered at: its first page
    /// before it (and once the flow has ended), the document from the comprehension check, the last signature page
    /// after it (passcode, staff, done).
    public var reviewPage: ReviewPage {
        switch position {
        case .review(let page): return page
        case .comprehension: return .document
        case .passcode, .staff, .done: return lastSignaturePage
        case .withdrawal, .changes, .eligibility, .keyInformation, .visual, .sharing, .optional, .completed,
            .ineligible, .declined, .expired, .cancelled, .paused:
            return reviewPages.first ?? .document
        }
    }
    public private(set) var answers: [Bool?]
    public private(set) var eligibilityStatus: EligibilityStatus
    public private(set) var shareWidely: Bool?
    /// The answers to the optional elements so far, by element id (true: Yes). Kept after the step, for the
    /// review document and the record; wiped like the sharing choice when the flow ends without a record.
    public private(set) var optionalAnswers: [String: Bool] = [:]
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
    /// The member of staff called to the kiosk and not yet come (ConsentSession+StaffCall.swift): while it is
    /// open the flow never expires for inactivity.
    public internal(set) var staffCall: StaffCall?
    /// The comprehension check between the review document and the name (`comprehension`): the study's questions
    /// and the answers given. Empty questions: the flow has no check.
    public private(set) var comprehension: ComprehensionProgress
    /// Whether the person obtaining consent countersigns on the `staff` step (`staffCountersignature: required`).
    public let requiresStaffCountersignature: Bool
    /// Whether the participant may pause to think it over and come back (`flow.pause`; the agent's `resumeDays`
    /// is not 0). A consent only: a withdrawal or re-consent is not paused (ConsentSession+Pause.swift).
    public let allowsPause: Bool
    /// How a flow started from a paused one began (`init(resuming:…)`), until its first accepted action: the view
    /// says so once. Nil for every other flow.
    public internal(set) var resumption: Resumption?
    /// The `staff` step's progress: who unlocked, how identity was verified, the staff signature. It lives in the
    /// position (`.staff`, then `.done`), so it is empty everywhere else.
    public var staff: StaffProgress {
        switch position {
        case .staff(let progress): return progress
        case .done(let progress?): return progress
        default: return StaffProgress()
        }
    }

    /// Starts a flow at the eligibility step.
    ///
    /// - Parameters:
    ///   - id: the flow id the agent hands out.
    ///   - now: monotonic time, e.g. `ContinuousClock.now` as a `Duration` since the agent started.
    ///   - purpose: a withdrawal starts at `.withdrawal` and asks only for the reason, the name and the signature;
    ///     a re-consent starts at `.changes`, then runs the whole consent.
    public init(
        id: String, study: Study, now: Duration, inactivityTimeout: Duration = defaultInactivityTimeout,
        purpose: FlowPurpose = .consent, staffCountersignature: Bool = false, pause: Bool = false
    ) {
        self.requiresStaffCountersignature = staffCountersignature
        if case .consent = purpose { self.allowsPause = pause } else { self.allowsPause = false }
        self.id = id
        self.study = study
        self.inactivityTimeout = inactivityTimeout
        self.purpose = purpose
        switch purpose {
        case .consent: self.position = .eligibility
        case .withdrawal: self.position = .withdrawal
        case .reconsent: self.position = .changes
        case .change(let basis):
            // The record's answers as they stand, for the elements the study has (the agent starts a change only
            // for the version the record was signed for, so they are the same); its PIN protects the new record.
            self.position = .optional
            self.optionalAnswers = Self.answers(basis, of: study)
            self.passcodeHash = basis.passcode
        }
        self.answers = Array(repeating: nil, count: study.document.eligibility.count)
        self.eligibilityStatus = study.document.eligibility.evaluate([])
        self.lastActivity = now
        var questions = study.document.comprehension
        // A withdrawal or a change has no document to understand: only the reason or the answers, the name and
        // the signature.
        switch purpose {
        case .withdrawal, .change: questions = []
        case .consent, .reconsent: break
        }
        self.comprehension = ComprehensionProgress(questions: questions, policy: study.options.comprehension)
        self.signedBy = offersRepresentative ? nil : .participant
    }

    /// The review step's pages of this flow, in order: the one place the page order is written. A withdrawal or a
    /// change asks only for the participant's name and signature; a consent shows the document first, the signer choice when a
    /// representative is allowed, the representative's page when one signs, and the witness's two pages when one is
    /// required.
    public var reviewPages: [ReviewPage] {
        if signsAlone { return [.name, .signature] }
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
        // A participant waiting for the member of staff they called is not idle.
        guard !step.isFinished, staffCall == nil, now >= deadline else { return false }
        finish(as: .expired)
        return true
    }

    /// The participant asked for more time ("I need more time" after the expiry warning): the inactivity clock
    /// starts again from `now`, and nothing else changes.
    ///
    /// - Throws: `ConsentCoreError(.flowFinished)` when the flow has ended, or expired before the request came.
    public mutating func extend(now: Duration) throws {
        try requireRunning(now: now)
        lastActivity = now
    }

    /// Refuses a request to a flow that has ended, or whose inactivity timeout passed before the request came (the
    /// flow expires here, as the refusal says). A flow that answers is running.
    mutating func requireRunning(now: Duration) throws {
        if expireIfIdle(now: now) { throw expiryRefusal }
        guard !step.isFinished else {
            throw ConsentCoreError(.flowFinished, "the flow has ended (\(step.rawValue)); start a new one")
        }
    }

    /// What a request that came after the inactivity timeout is told.
    var expiryRefusal: ConsentCoreError {
        ConsentCoreError(.flowFinished, "the flow expired after \(inactivityTimeout) without activity; start a new one")
    }

    /// The inactivity clock starts again from `now`, whatever it said (a member of staff answered a call: the wait
    /// was not idleness).
    mutating func restartInactivityClock(now: Duration) {
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
    /// What the flow's position does not offer (`offer`) is refused first, before the action's arguments are
    /// looked at, with the error saying why (`refusal(of:)`); then the action's own validation runs.
    ///
    /// - Throws: `ConsentCoreError` with `.flowFinished` (or the expiry), `.stepMismatch` when the action names
    ///   another step or page, `.invalidAction` when the step does not offer it, `.notEligible`, `.missingName`,
    ///   `.missingSignature` or `.staffNotUnlocked` when what it needs first is missing, or the action's own
    ///   validation error. A refused action changes nothing (not even the inactivity clock).
    public mutating func apply(_ action: ConsentAction, now: Duration) throws {
        if expireIfIdle(now: now) { throw expiryRefusal }
        if let refusal = refusal(of: action) { throw refusal }
        switch action {
        case .answerEligibility(let given): try answerEligibility(given)
        case .next: try goNext()
        case .back: try goBack()
        case .chooseSharing(let widely):
            shareWidely = widely
            enterAfterSharing()
        case .answerOptional(let given): try answerOptional(given)
        case .agree:
            if comprehension.isComplete {
                showPage(after: .document)
            } else {
                // Understanding is checked before the name and signature; a participant who went back to the
                // document resumes the check where they left it.
                position = .comprehension
            }
        case .answerComprehension(let question, let choice):
            try comprehension.answer(question: question, choice: choice)
            if comprehension.isComplete { leaveComprehension() }
            // A check that stops leaves the participant to a member of staff: they are called at once.
            if comprehension.phase == .stopped, staffCall == nil {
                staffCall = StaffCall(since: now, reason: .comprehensionStopped)
            }
        case .disagree: finish(as: .declined)
        case .setName(let given, let family): try setName(given: given, family: family)
        case .chooseSigner(let role): try chooseSigner(role)
        case .setSignerName(let role, let given, let family, let relationship):
            try setSignerName(role, given: given, family: family, relationship: relationship)
        case .submitSignature(let strokes): try submitSignature(strokes)
        case .clearSignature: try clearSignature()
        case .setPasscode(let passcode):
            passcodeHash = try PasscodeHash(passcode: passcode)
            position = afterParticipant
        case .unlockStaff(let member):
            guard case .staff(var progress) = position else { throw notOffered(action) }
            // Another member of staff starts the step again.
            if progress.member != member { progress = StaffProgress() }
            progress.member = member
            position = .staff(progress)
        case .attestIdentity(let method, let note): try attestIdentity(method, note: note)
        case .confirmWithdrawal(let reason): try confirmWithdrawal(reason: reason)
        case .decline: finish(as: .declined)
        case .cancel: finish(as: .cancelled)
        }
        lastActivity = now
        // "Welcome back" is said on the first screen of a resumed flow only.
        resumption = nil
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
        case .change(let basis):
            link = RecordLink(kind: .change, recordID: basis.recordID, studyTitle: basis.studyTitle, signedOn: basis.signedOnText)
        }
        return ConsentOutcome(
            studyID: study.id, studyVersion: study.version, eligibilityAnswers: answers, shareWidely: shareWidely,
            givenName: givenName, familyName: familyName, signature: signature, passcodeHash: passcodeHash,
            representative: representative, witness: witness, link: link, comprehension: comprehension.outcome,
            personObtainingConsent: countersignature, optionalAnswers: optionalElementAnswers)
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
        // The pages that take a signature are those that offer beginSignature (`offer`): the same three.
        guard let expected = signingRole else {
            throw ConsentCoreError(.stepMismatch, "beginSignature belongs to a signature page, but the flow is at \(placeName)")
        }
        if let role, role != expected {
            throw ConsentCoreError(
                .stepMismatch, "the flow asks for the \(expected.rawValue)'s signature, not the \(role.rawValue)'s")
        }
    }

    /// Whose signature the current page takes; nil off the signature pages.
    public var signingRole: SigningRole? {
        switch position {
        case .staff(let progress): return progress.page == .signature ? .personObtainingConsent : nil
        case .review(.signature): return consentSigner
        case .review(.witnessSignature): return .witness
        default: return nil
        }
    }

    // MARK: - Transitions
    //
    // Each runs after `refusal(of:)` let its action through: what the position does not offer never gets here, so
    // a transition checks only the action's arguments. A `notOffered` throw marks a position the offer excludes;
    // reaching one would mean the offer and the transition disagree (the session fuzzer's `checkView` looks).

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
        switch position {
        case .changes: position = .eligibility
        case .eligibility: enterAfterEligibility()
        case .keyInformation: enterScenes()
        case .visual(let scene):
            if scene + 1 < study.document.visualSectionCount {
                position = .visual(scene: scene + 1)
            } else {
                enterAfterVisual()
            }
        case .comprehension:
            try comprehension.next()
            if comprehension.isComplete { leaveComprehension() }
        // Offered once every element has its answer (a participant back from the review document).
        case .optional: position = isChange ? .review(reviewPages.first ?? .name) : .review(.document)
        case .review(let page):
            guard showPage(after: page) else { throw notOffered(.next(.reviewStep)) }
        case .withdrawal, .sharing, .passcode, .staff, .done, .completed, .ineligible, .declined, .expired, .cancelled,
            .paused:
            throw notOffered(.next(step))
        }
    }

    private mutating func goBack() throws {
        switch position {
        case .eligibility: position = .changes
        case .keyInformation: position = .eligibility
        case .visual(let scene): position = scene > 0 ? .visual(scene: scene - 1) : beforeScenes
        case .sharing: enterBeforeSharing()
        case .optional:
            // The answers given stay: the participant sees them again on coming back.
            if study.options.askForSharing { position = .sharing } else { enterBeforeSharing() }
        case .comprehension:
            // Back to the document to read it again; the answers given so far stay.
            position = .review(.document)
        case .review(let page):
            let pages = reviewPages
            if let index = pages.firstIndex(of: page), index > 0 {
                position = .review(pages[index - 1])
            } else if isWithdrawal {
                position = .withdrawal
            } else if isChange {
                // The answers as changed stay, to be looked at again.
                position = .optional
            } else {
                enterBeforeReview()
            }
        case .passcode: position = .review(lastSignaturePage)
        case .staff:
            // Handing the kiosk back to the participant locks the staff step again (its progress goes with the
            // position): a new unlock is needed.
            enterBeforeStaff()
        case .done(let progress):
            if asksForStaff {
                position = .staff(progress ?? StaffProgress())
            } else {
                enterBeforeStaff()
            }
        case .withdrawal, .changes, .completed, .ineligible, .declined, .expired, .cancelled, .paused:
            throw notOffered(.back(step))
        }
    }

    /// After the last question: on to the page after the document (the signer choice or the name).
    private mutating func leaveComprehension() {
        position = .review(.document)
        showPage(after: .document)
    }

    /// The participant's part is over: the staff step when the person obtaining consent countersigns, else done.
    private var afterParticipant: ConsentPosition { asksForStaff ? .staff(StaffProgress()) : .done(staff: nil) }

    /// Whether the flow has the `staff` step: a consent or re-consent with `staffCountersignature: required` (a
    /// withdrawal or a change of answers is the participant's own act; nobody obtains it).
    public var asksForStaff: Bool { requiresStaffCountersignature && !signsAlone }

    /// The page before the staff step (or before done without one): the passcode, or the last signature page.
    private mutating func enterBeforeStaff() {
        position = study.options.askToCreatePasscode && !signsAlone ? .passcode : .review(lastSignaturePage)
    }

    private mutating func attestIdentity(_ method: IdentityVerification, note: String?) throws {
        guard case .staff(var progress) = position, progress.member != nil else {
            throw notOffered(.attestIdentity(method, note: nil))
        }
        let note = note?.trimmingWhitespace
        let kept = (note?.isEmpty ?? true) ? nil : note
        if let kept { try Self.checkEntered("the note", kept, as: .visible(maximumCharacters: StaffAttestation.maximumNoteLength)) }
        if method == .other, kept == nil {
            throw ConsentCoreError(.invalidField, "the method other needs a short note saying how identity was verified")
        }
        if progress.method != method || progress.note != kept { progress.signature = nil }
        progress.method = method
        progress.note = kept
        position = .staff(progress)
    }

    /// The page before the passcode (or done): the last of the review pages, a signature.
    var lastSignaturePage: ReviewPage { reviewPages.last ?? .signature }

    /// Shows the review page after `page`; false when `page` is the last (or not a page of this flow).
    @discardableResult
    private mutating func showPage(after page: ReviewPage) -> Bool {
        let pages = reviewPages
        guard let index = pages.firstIndex(of: page), index + 1 < pages.count else { return false }
        position = .review(pages[index + 1])
        return true
    }

    /// Keeps a signer's name (and a representative's relationship); a signature already given stays.
    private mutating func record(
        _ role: SigningRole, given: String, family: String, relationship: RepresentativeRelationship? = nil
    ) {
        signers[role] = SignerEntry(
            givenName: given, familyName: family, relationship: relationship, signature: signers[role]?.signature)
    }

    /// After eligibility: the key information when the study has it (a withdrawal never reaches eligibility),
    /// else the scenes.
    private mutating func enterAfterEligibility() {
        if study.document.keyInformation != nil {
            position = .keyInformation
        } else {
            enterScenes()
        }
    }

    /// The first scene, or what follows the scenes when the study has none.
    private mutating func enterScenes() {
        if study.document.visualSectionCount == 0 {
            enterAfterVisual()
        } else {
            position = .visual(scene: 0)
        }
    }

    private mutating func enterAfterVisual() {
        if study.options.askForSharing { position = .sharing } else { enterAfterSharing() }
    }

    /// After sharing (or the scenes, when the study does not ask it): the optional elements when the study has
    /// some, else the review document.
    private mutating func enterAfterSharing() {
        position = optionalElements.isEmpty ? .review(.document) : .optional
    }

    /// The optional elements this flow asks: the study's, none for a withdrawal (it asks only for the reason,
    /// the name and the signature).
    public var optionalElements: [OptionalElement] { isWithdrawal ? [] : study.document.optionalElements }

    /// Whether every optional element has its answer (true when there are none).
    public var hasAnsweredEveryOptionalElement: Bool {
        optionalElements.allSatisfy { optionalAnswers[$0.id] != nil }
    }

    /// Every element with its answer, in the study's order, once each one has an answer; empty otherwise.
    var optionalElementAnswers: [OptionalElementAnswer] {
        guard hasAnsweredEveryOptionalElement else { return [] }
        return optionalElements.compactMap { element in
            optionalAnswers[element.id].map { OptionalElementAnswer(element: element, accepted: $0) }
        }
    }

    /// Keeps answers to optional elements (those given before and not named stay); once every element has one,
    /// the flow goes on to the review document. Refused whole when an id names no element of the study.
    private mutating func answerOptional(_ given: [String: Bool]) throws {
        let elements = optionalElements
        if let unknown = given.keys.sorted().first(where: { id in !elements.contains { $0.id == id } }) {
            let known = elements.map(\.id).joined(separator: ", ")
            throw ConsentCoreError(
                .invalidAnswers, "the study has no optional element \"\(unknown.prefix(60))\"; its elements are \(known)")
        }
        var merged = optionalAnswers
        merged.merge(given) { _, new in new }
        if case .change(let basis) = purpose {
            // A change starts with every answer given: it goes on to the name once an answer differs from the
            // record's; the same answers again would sign a record that changes nothing.
            guard merged != Self.answers(basis, of: study) else {
                throw ConsentCoreError(
                    .invalidAnswers, "these are the record's answers as they are; change at least one, or cancel")
            }
            optionalAnswers = merged
            position = .review(reviewPages.first ?? .name)
            return
        }
        optionalAnswers = merged
        if hasAnsweredEveryOptionalElement { position = .review(.document) }
    }

    /// Whether a change flow's answers differ from the record's (false for every other flow).
    public var changesAnswers: Bool {
        guard case .change(let basis) = purpose else { return false }
        return optionalAnswers != Self.answers(basis, of: study)
    }

    /// A change's starting answers: the record's, for the elements the study has.
    private static func answers(_ basis: ChangeBasis, of study: Study) -> [String: Bool] {
        basis.answers.filter { id, _ in study.document.optionalElements.contains { $0.id == id } }
    }

    private mutating func enterBeforeSharing() {
        let scenes = study.document.visualSectionCount
        position = scenes == 0 ? beforeScenes : .visual(scene: scenes - 1)
    }

    /// What comes before the scenes: the key information when the study has it, else eligibility.
    private var beforeScenes: ConsentPosition { study.document.keyInformation != nil ? .keyInformation : .eligibility }

    private mutating func enterBeforeReview() {
        if !optionalElements.isEmpty {
            position = .optional
        } else if study.options.askForSharing {
            position = .sharing
        } else {
            enterBeforeSharing()
        }
    }

    /// Whether the flow asks for a witness: a consent of a study that requires one (a withdrawal is signed by the
    /// participant alone, as main's withdrawal flow defines it).
    public var asksForWitness: Bool { study.options.requireWitness && !signsAlone }
    /// Whether the flow offers the signer choice: a consent of a study that allows a representative.
    public var offersRepresentative: Bool { study.options.allowRepresentative && !signsAlone }

    var isWithdrawal: Bool {
        if case .withdrawal = purpose { return true }
        return false
    }

    /// Whether the flow changes the answers of a record (`FlowPurpose.change`).
    public var isChange: Bool {
        if case .change = purpose { return true }
        return false
    }

    /// A withdrawal and a change of answers are the participant's own act on a record they signed: they sign
    /// alone (no representative, witness or staff countersignature) and set no new passcode.
    var signsAlone: Bool { isWithdrawal || isChange }

    /// The longest withdrawal reason kept; a sentence or two, not a letter.
    public static let maximumReasonLength = 1000

    private mutating func confirmWithdrawal(reason: String?) throws {
        let reason = reason?.trimmingWhitespace
        if let reason {
            try Self.checkEntered("a withdrawal reason", reason, as: .visible(maximumCharacters: Self.maximumReasonLength))
        }
        withdrawalReason = (reason?.isEmpty ?? true) ? nil : reason
        position = .review(reviewPages.first ?? .name)
    }

    private mutating func setName(given: String, family: String) throws {
        let (given, family) = try Self.validName(given: given, family: family)
        record(.participant, given: given, family: family)
        if case .review(.name) = position { showPage(after: .name) }
    }

    private mutating func chooseSigner(_ role: SigningRole) throws {
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
            guard relationship == nil else { throw Self.relationshipOfAnotherSigner }
            try setName(given: given, family: family)
        case .representative:
            guard let code = relationship else {
                throw ConsentCoreError(.missingName, "give the representative's relationship to the participant")
            }
            guard let chosen = study.representativeRelationships.first(where: { $0.code == code }) else {
                let codes = study.options.representativeRelationships.map(\.code).joined(separator: ", ")
                throw ConsentCoreError(.invalidField, "the relationship must be one of the study's codes: \(codes)")
            }
            let (given, family) = try Self.validName(given: given, family: family)
            record(.representative, given: given, family: family, relationship: chosen)
            if case .review(.representative) = position { showPage(after: .representative) }
        case .witness:
            guard relationship == nil else { throw Self.relationshipOfAnotherSigner }
            let (given, family) = try Self.validName(given: given, family: family)
            record(.witness, given: given, family: family)
            if case .review(.witness) = position { showPage(after: .witness) }
        case .personObtainingConsent:
            throw Self.staffNamedByCredential
        }
    }

    static let relationshipOfAnotherSigner = ConsentCoreError(
        .invalidField, "only a representative has a relationship to the participant")
    static let staffNamedByCredential = ConsentCoreError(
        .invalidField, "the person obtaining consent is named by their staff credential (staff.unlock)")

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
        switch position {
        case .staff(var progress):
            try Self.checkSignature(strokes)
            progress.signature = strokes
            position = .done(staff: progress)
        case .review(.signature):
            guard givenName != nil, familyName != nil else {
                throw ConsentCoreError(.missingName, "give both the given and the family name before signing")
            }
            if signedBy == .representative, representativeGivenName == nil || representativeRelationship == nil {
                throw ConsentCoreError(.missingName, "give the representative's name and relationship before signing")
            }
            try Self.checkSignature(strokes)
            signers[consentSigner]?.signature = strokes
            // A witness attests the signature they saw; a new one needs a new attestation.
            signers[.witness]?.signature = nil
            leaveSignaturePage(.signature)
        case .review(.witnessSignature):
            guard witnessGivenName != nil, witnessFamilyName != nil else {
                throw ConsentCoreError(.missingName, "give the witness's name before the witness signs")
            }
            try Self.checkSignature(strokes)
            signers[.witness]?.signature = strokes
            leaveSignaturePage(.witnessSignature)
        default:
            throw notOffered(.submitSignature(strokes))
        }
    }

    private static func checkSignature(_ strokes: SignatureStrokes) throws {
        try strokes.validate()
        guard !strokes.isEmpty else { throw ConsentCoreError(.missingSignature, "the signature is empty; sign first") }
    }

    /// After a signature: the next review page, else the passcode, the staff step or done.
    private mutating func leaveSignaturePage(_ page: ReviewPage) {
        if showPage(after: page) { return }
        // A withdrawal sets no new passcode: the record it writes is never withdrawn in turn. A change keeps the
        // record's (`ChangeBasis.passcode`).
        position = study.options.askToCreatePasscode && !signsAlone ? .passcode : afterParticipant
    }

    private mutating func clearSignature() throws {
        switch position {
        case .staff(var progress):
            progress.signature = nil
            position = .staff(progress)
        case .review(.signature):
            signers[consentSigner]?.signature = nil
            // A witness attests the signature they saw; a new one needs a new attestation.
            signers[.witness]?.signature = nil
        case .review(.witnessSignature):
            signers[.witness]?.signature = nil
        default:
            throw notOffered(.clearSignature)
        }
    }

    /// Ends the flow; anything a participant gave is forgotten unless the consent completed (the staff step's
    /// progress goes with the position).
    /// Ends the flow paused (`pause()`): like every end without a record, it wipes what was given.
    mutating func endPaused() {
        finish(as: .paused)
    }

    /// Puts a new flow where a paused one stopped (`init(resuming:…)`, which checked `paused` against the study).
    mutating func restore(_ paused: PausedConsent, at place: ConsentPosition) {
        answers = paused.answers
        eligibilityStatus = study.document.eligibility.evaluate(paused.answers)
        shareWidely = paused.shareWidely
        optionalAnswers = paused.optionalAnswers
        if let role = paused.signedBy { signedBy = role }
        position = place
    }

    private mutating func finish(as end: ConsentPosition) {
        position = end
        signers = [:]
        passcodeHash = nil
        withdrawalReason = nil
        if end != .completed {
            shareWidely = nil
            optionalAnswers = [:]
        }
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
