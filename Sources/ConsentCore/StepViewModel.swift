/// What a UI shows for the current step of a flow: texts, HTML, choices and the actions it may send.
///
/// It is everything a kiosk UI needs to render a step without knowing FHIR or keeping string tables: every text a
/// screen shows, in the flow's language. Exactly one of the step-specific parts (`withdrawal`, `changes`,
/// `eligibility`, `keyInformation`, `scene`, `sharing`, `optional`, `review`, `comprehension`, `passcode`, `end`) is
/// present,
/// matching `step`
/// (`StepViewModel.part(for:)`).
public struct StepViewModel: Sendable, Hashable, Codable {
    public var step: ConsentStep
    /// The language of every text in the model (the study's language tag).
    public var language: String?
    public var title: String
    /// The study's own title (`Study.title`), for a header.
    public var studyTitle: String?
    public var actions: [ConsentActionName]
    /// The text of the control of every action in `actions`, by action name, plus `answer.yes` and `answer.no`
    /// when `answer` is offered (`StepViewModel.labelKeys(for:)`).
    public var labels: [String: String] = [:]
    public var eligibility: EligibilityView?
    public var keyInformation: KeyInformationView?
    public var scene: SceneView?
    public var sharing: SharingView?
    public var optional: OptionalView?
    public var review: ReviewView?
    public var passcode: PasscodeView?
    public var end: EndView?
    public var withdrawal: WithdrawalView?
    public var changes: ChangesView?
    public var comprehension: ComprehensionView?
    /// True once a comprehension question was missed on every attempt and the study went on (`onRepeatedMiss`
    /// `continue`), on every later step of the running flow: a staff page shows that someone should go over the
    /// consent with the participant before they sign. Absent otherwise.
    public var comprehensionFlagged: Bool?
    public var staff: StaffView?
    /// While a member of staff called for the flow is on the way (`ConsentSession.staffCall`): what the
    /// participant is told. Absent otherwise.
    public var staffCall: StaffCallView?
    /// A paused flow (`paused`): the code to go on with and until when; the agent fills it in, since only it knows
    /// the code. Absent otherwise.
    public var paused: PausedView?
    /// On the first screen of a flow started from a paused one (`flow.start {resume}`): whether it goes on where it
    /// stopped or starts over with a new version of the study. Absent otherwise.
    public var resumed: ResumedView?

    /// The code a paused flow goes on with, as the kiosk shows it.
    public struct PausedView: Sendable, Hashable, Codable {
        /// The resume code, grouped for reading ("ACDE-FH34").
        public var code: String
        /// "Your code".
        public var codeLabel: String
        /// The last moment the code works (RFC 3339, UTC).
        public var expires: String
        /// The sentence that names the day, in words.
        public var text: String
        /// On a kiosk with a printer: the slip with the code is printing. Absent otherwise.
        public var slip: String?

        public init(code: String, codeLabel: String, expires: String, text: String, slip: String? = nil) {
            self.code = code
            self.codeLabel = codeLabel
            self.expires = expires
            self.text = text
            self.slip = slip
        }
    }

    /// How a resumed flow began (`Resumption`), and the sentence that says so.
    public struct ResumedView: Sendable, Hashable, Codable {
        public var outcome: Resumption
        public var text: String
    }

    /// A call for a member of staff, open.
    public struct StaffCallView: Sendable, Hashable, Codable {
        public var text: String
        /// Who called: the participant (`participant`), or the comprehension check that stopped
        /// (`comprehensionStopped`).
        public var reason: String
    }

    /// A comprehension question, or what the screen shows after a wrong answer (`ComprehensionProgress.Phase`).
    public struct ComprehensionView: Sendable, Hashable, Codable {
        /// 0-based index of the question, and how many the study asks.
        public var index: Int
        public var count: Int
        /// "Question 2 of 3".
        public var progress: String
        public var phase: ComprehensionProgress.Phase
        public var question: String
        /// The choices, in order; `comprehension.answer` names one by its 0-based index.
        public var choices: [String]
        /// The instruction above the choices, or the message after a wrong answer.
        public var text: String
        /// How many answers this question took so far, and how many it may take.
        public var attempt: Int
        public var attempts: Int
        /// After a wrong answer: the choice given (0-based); the correct one is never sent.
        public var chosen: Int?
        public var explanationHeading: String?
        public var explanation: String?
        /// After a wrong answer: the section the question is about, again (its title and HTML, as the review
        /// document shows it).
        public var sectionHeading: String?
        public var sectionTitle: String?
        public var sectionHTML: String?
    }

    /// The `staff` step: the person obtaining consent unlocks, says how identity was verified, and signs. Never
    /// the PIN, the note or the signature; the staff member's id and name once unlocked (staff data, not the
    /// participant's).
    public struct StaffView: Sendable, Hashable, Codable {
        public struct Method: Sendable, Hashable, Codable {
            public var method: IdentityVerification
            public var text: String
        }
        public var page: StaffPage
        public var text: String
        public var staffId: String?
        public var staffName: String?
        /// On `unlock`: the two fields' labels.
        public var staffIdLabel: String?
        public var pinLabel: String?
        /// On `attest` (and `signature`, to change it): the methods, the one chosen, and the note's label.
        public var methods: [Method]?
        public var method: IdentityVerification?
        public var hasNote: Bool
        public var noteLabel: String?
        /// The attest page's confirming button (on `signature` too, where `labels.attestIdentity` names the way
        /// back to the methods instead).
        public var attestLabel: String?
        /// On `signature`.
        public var signatureInstruction: String?
        public var hasSignature: Bool
        public var signingArea: SigningArea?
    }

    /// What a withdrawal withdraws: only what the participant needs to recognise it.
    public struct WithdrawalView: Sendable, Hashable, Codable {
        public var record: String
        public var studyTitle: String
        /// The day the consent was signed, `YYYY-MM-DD` (UTC).
        public var signedOn: String
        public var text: String
        public var reasonLabel: String
        /// Whether a reason was given (never the reason: view models go to every subscribed client).
        public var hasReason: Bool
    }

    /// What changed since the participant's previous consent, by section title.
    public struct ChangesView: Sendable, Hashable, Codable {
        public var previousRecord: String
        public var text: String
        /// False when the previous record does not list its sections (an older record): only the fact of a
        /// change is known, and the lists are empty.
        public var detailed: Bool
        public var added: [String]
        public var removed: [String]
        public var edited: [String]
    }

    public struct EligibilityView: Sendable, Hashable, Codable {
        public var questions: [String]
        public var answers: [Bool?]
        public var status: EligibilityStatus
        /// The bold text of the status screen ("Let's see if…", "You are eligible…").
        public var heading: String?
        public var message: String?
        /// The button the message names: the one that sends the answers (`labels.answer`) while they are
        /// incomplete, the one that leads on (`labels.next`, "Start Consent") when eligible.
        public var button: String?
    }

    /// The key information the consent begins with (`KeyInformation`): the study's page, shown whole, with the
    /// step's `title` as its heading.
    public struct KeyInformationView: Sendable, Hashable, Codable {
        /// The sentence above the page: why it comes first.
        public var text: String
        /// The study's page (sanitised by the agent, as a section's HTML is).
        public var html: String
    }

    public struct SceneView: Sendable, Hashable, Codable {
        /// 0-based index among the visual scenes, and their count.
        public var index: Int
        public var count: Int
        public var type: ConsentSectionType
        public var title: String?
        public var summary: String?
        /// The "Learn more" button title and its page, when the section has HTML.
        public var learnMoreTitle: String?
        public var learnMoreHTML: String?
        public var image: String?
        public var animation: String?
    }

    public struct SharingView: Sendable, Hashable, Codable {
        public struct Choice: Sendable, Hashable, Codable {
            public var shareWidely: Bool
            public var text: String
        }
        public var team: String
        public var text: String
        public var choices: [Choice]
        public var learnMoreTitle: String
        public var learnMoreHTML: String
        public var selected: Bool?
    }

    /// The optional elements (`OptionalElement`), all on one screen, each answered Yes or No (`labels`
    /// `optionalAnswer.yes` and `optionalAnswer.no`); nothing is chosen before the participant chooses.
    public struct OptionalView: Sendable, Hashable, Codable {
        public struct Element: Sendable, Hashable, Codable {
            /// The key of `optional.answer`'s answers.
            public var id: String
            public var title: String
            /// The question.
            public var text: String
            /// The "Learn more" button title and its page, when the element has one.
            public var learnMoreTitle: String?
            public var learnMoreHTML: String?
            /// The answer given (true: Yes); absent before one, and for connections that do not drive the flow.
            public var answer: Bool?
        }
        /// The sentence above the elements.
        public var text: String
        public var elements: [Element]
        /// A change flow (`flow.start {change}`): the record whose answers it changes; the elements start with that
        /// record's answers. Absent in a consent.
        public var amends: String? = nil
    }

    public struct ReviewView: Sendable, Hashable, Codable {
        public var page: ReviewPage
        /// The review document (`ReviewDocument`) on the `document` page.
        public var html: String?
        /// The confirmation shown after Agree (`reasonForConsent`).
        public var reasonForConsent: String?
        public var givenNameLabel: String?
        public var familyNameLabel: String?
        public var placeholder: String?
        /// Whether the name was given (never the name itself: view models are sent to every subscribed client).
        public var hasName: Bool
        public var signatureInstruction: String?
        public var hasSignature: Bool
        /// Whose name or signature the page takes (on the signer pages: name, representative, signature,
        /// witness, witnessSignature).
        public var role: SigningRole?
        /// On the `signer` page: who may sign, and who was chosen.
        public var signerChoices: [SignerChoice]?
        public var signedBy: SigningRole?
        /// On the `representative` page: the relationships to choose from.
        public var relationshipLabel: String?
        public var relationships: [Relationship]?
        /// Whether the representative's name and relationship were given (when a representative signs).
        public var hasRepresentative: Bool?
        /// Whether the witness's name and signature were given (when the study requires a witness).
        public var hasWitnessName: Bool?
        public var hasWitnessSignature: Bool?
        /// The witness page's explanation.
        public var text: String?
        /// On the `signature` and `witnessSignature` pages: the area to sign in.
        public var signingArea: SigningArea?
    }

    /// The size of the area a signature is drawn in, so a UI draws at the right aspect ratio.
    public struct SigningArea: Sendable, Hashable, Codable {
        public enum Source: String, Sendable, Hashable, Codable {
            /// A pad captures for the flow: its active area.
            case pad
            /// The UI draws: `SigningArea.uiDefault`.
            case `default`
        }
        public var widthMM: Double
        public var heightMM: Double
        /// `widthMM / heightMM`, rounded to 3 decimals.
        public var aspect: Double
        public var source: Source
        /// The capturing pad's id, when `source` is `pad`.
        public var pad: String?

        public init(widthMM: Double, heightMM: Double, source: Source, pad: String? = nil) {
            self.widthMM = widthMM
            self.heightMM = heightMM
            self.aspect = heightMM > 0 ? (widthMM / heightMM * 1000).rounded() / 1000 : 1
            self.source = source
            self.pad = pad
        }

        /// The area a UI draws when no pad captures: 120 × 40 mm, the size `types/Strokes` shows in its examples
        /// and a typical signature line.
        public static let uiDefault = SigningArea(widthMM: 120, heightMM: 40, source: .default)

        /// A capturing pad's area; its size when known, else the default's.
        public static func pad(_ id: String, widthMM: Double?, heightMM: Double?) -> SigningArea {
            guard let widthMM, let heightMM, widthMM > 0, heightMM > 0 else {
                return SigningArea(widthMM: uiDefault.widthMM, heightMM: uiDefault.heightMM, source: .pad, pad: id)
            }
            return SigningArea(widthMM: widthMM, heightMM: heightMM, source: .pad, pad: id)
        }
    }

    public struct SignerChoice: Sendable, Hashable, Codable {
        public var role: SigningRole
        public var text: String
    }

    public struct Relationship: Sendable, Hashable, Codable {
        public var code: String
        public var display: String
    }

    public struct PasscodeView: Sendable, Hashable, Codable {
        public var text: String
        public var digits: Int
    }

    /// The screen of `done` and of every ended flow.
    public struct EndView: Sendable, Hashable, Codable {
        public var title: String
        public var message: String
    }

    /// The step-specific part a step's view carries (the schema's `oneOf`).
    public static func part(for step: ConsentStep) -> String {
        switch step {
        case .withdrawal: "withdrawal"
        case .changes: "changes"
        case .eligibility: "eligibility"
        case .keyInformation: "keyInformation"
        case .visual: "scene"
        case .sharing: "sharing"
        case .optional: "optional"
        case .reviewStep: "review"
        case .comprehension: "comprehension"
        case .passcode: "passcode"
        case .staff: "staff"
        case .done, .completed, .ineligible, .declined, .expired, .cancelled, .paused: "end"
        }
    }

    /// The keys `labels` has for `actions`: every action, and the two answers of `answer`.
    public static func labelKeys(for actions: [ConsentActionName]) -> Set<String> {
        var keys = Set(actions.map(\.rawValue))
        if actions.contains(.answer) { keys.formUnion(["answer.yes", "answer.no"]) }
        if actions.contains(.optionalAnswer) { keys.formUnion(["optionalAnswer.yes", "optionalAnswer.no"]) }
        return keys
    }
}

extension ConsentSession {
    /// The view model of the current step.
    public var viewModel: StepViewModel {
        let document = study.document
        let texts = study.texts
        let screens = ScreenTexts(language: study.language)
        let saved: ScreenTexts.Saved
        switch purpose {
        case .withdrawal: saved = .withdrawal
        case .change: saved = .change
        default: saved = .consent
        }
        let isWithdrawal = saved == .withdrawal
        // What the page offers is the session's to say (`offer`, beside `apply`); the view lists it as it is.
        var model = StepViewModel(
            step: step, language: study.language, title: "", studyTitle: study.title, actions: offer.actions)
        switch step {
        case .withdrawal:
            model.title = texts.withdrawalTitle
            if case .withdrawal(let target) = purpose {
                model.withdrawal = StepViewModel.WithdrawalView(
                    record: target.recordID, studyTitle: target.studyTitle, signedOn: target.signedOn,
                    text: texts.withdrawalText(studyTitle: target.studyTitle, signedOn: target.signedOnText),
                    reasonLabel: texts.withdrawalReasonLabel, hasReason: withdrawalReason != nil)
            }
        case .changes:
            model.title = texts.changesTitle
            if case .reconsent(let basis) = purpose {
                let diff = basis.changes ?? ConsentDocumentDiff()
                model.changes = StepViewModel.ChangesView(
                    previousRecord: basis.previousRecordID,
                    text: texts.changesText(detailed: basis.changes != nil, signedOn: basis.previousSignedOnText),
                    detailed: basis.changes != nil, added: diff.added, removed: diff.removed, edited: diff.edited)
            }
        case .eligibility:
            let messages = study.eligibilityMessages
            model.title = texts.eligibilityTitle
            let status = eligibilityStatus
            model.eligibility = StepViewModel.EligibilityView(
                questions: document.eligibility.map(\.question), answers: answers, status: status,
                heading: status == .eligible ? messages.eligibleTitle : messages.letsCheckMessage,
                message: status == .eligible
                    ? messages.eligibleMessage(button: texts.startConsent, texts: texts) : texts.letsCheckBody,
                button: status == .eligible ? texts.startConsent : screens.confirmAnswers)
        case .keyInformation:
            model.title = texts.keyInformationTitle
            // The session enters .keyInformation only when the study has it.
            if let key = document.keyInformation {
                model.keyInformation = StepViewModel.KeyInformationView(text: texts.keyInformationText, html: key.htmlContent)
            }
        case .visual:
            let scenes = document.visualSections
            // The session never enters .visual without scenes; an empty model beats a trap if that ever changes.
            guard scenes.indices.contains(sceneIndex) else { break }
            let section = scenes[sceneIndex]
            model.title = section.title ?? texts.learnMore
            model.scene = StepViewModel.SceneView(
                index: sceneIndex, count: scenes.count, type: section.type, title: section.title,
                summary: section.summary, learnMoreTitle: texts.learnMoreTitle(for: section),
                learnMoreHTML: section.isInDocument ? section.htmlContent : nil, image: section.image,
                animation: section.animation)
        case .sharing:
            let team = document.teamName
            model.title = texts.sharingTitle
            model.sharing = StepViewModel.SharingView(
                team: team, text: texts.sharingText(team: team),
                choices: [
                    .init(shareWidely: true, text: texts.shareWidelyChoice(team: team)),
                    .init(shareWidely: false, text: texts.shareTeamOnlyChoice(team: team)),
                ], learnMoreTitle: texts.sharingLearnMore, learnMoreHTML: study.sharingHTML ?? "",
                selected: shareWidely)
        case .optional:
            model.title = texts.optionalTitle
            var text = texts.optionalText
            var amends: String?
            if case .change(let basis) = purpose {
                model.title = texts.changeTitle
                text = texts.changeText(studyTitle: basis.studyTitle, signedOn: basis.signedOnText)
                amends = basis.recordID
            }
            model.optional = StepViewModel.OptionalView(
                text: text,
                elements: optionalElements.map { element in
                    StepViewModel.OptionalView.Element(
                        id: element.id, title: element.title, text: element.text,
                        learnMoreTitle: element.htmlContent == nil ? nil : texts.learnMore,
                        learnMoreHTML: element.htmlContent, answer: optionalAnswers[element.id])
                }, amends: amends)
        case .reviewStep:
            var review = StepViewModel.ReviewView(page: reviewPage, hasName: givenName != nil, hasSignature: signature != nil)
            if offersRepresentative { review.signedBy = signedBy }
            if signedBy == .representative { review.hasRepresentative = representativeRelationship != nil }
            if asksForWitness {
                review.hasWitnessName = witnessGivenName != nil
                review.hasWitnessSignature = witnessSignature != nil
            }
            switch reviewPage {
            case .document:
                model.title = texts.reviewTitle
                review.html = ReviewDocument.html(for: study, optionalAnswers: optionalElementAnswers)
                review.reasonForConsent = study.options.reasonForConsent
            case .signer:
                model.title = texts.signerTitle
                review.signerChoices = [
                    StepViewModel.SignerChoice(role: .participant, text: texts.signerParticipantChoice),
                    StepViewModel.SignerChoice(role: .representative, text: texts.signerRepresentativeChoice),
                ]
            case .name:
                model.title = signedBy == .representative ? texts.participantNameTitle : texts.nameFormTitle
                review.role = .participant
                review.givenNameLabel = texts.givenNameLabel
                review.familyNameLabel = texts.familyNameLabel
                review.placeholder = texts.namePlaceholder
            case .representative:
                model.title = texts.representativeTitle
                review.role = .representative
                review.givenNameLabel = texts.givenNameLabel
                review.familyNameLabel = texts.familyNameLabel
                review.placeholder = texts.namePlaceholder
                review.relationshipLabel = texts.relationshipLabel
                review.relationships = study.representativeRelationships.map {
                    StepViewModel.Relationship(code: $0.code, display: $0.display)
                }
            case .signature:
                model.title = texts.signatureTitle
                review.role = signedBy ?? .participant
                review.signatureInstruction =
                    signedBy == .representative
                    ? texts.representativeSignatureInstruction : texts.signatureInstruction
                review.placeholder = texts.signaturePlaceholder
                review.signingArea = .uiDefault
            case .witness:
                model.title = texts.witnessTitle
                review.role = .witness
                review.text = texts.witnessText
                review.givenNameLabel = texts.givenNameLabel
                review.familyNameLabel = texts.familyNameLabel
                review.placeholder = texts.namePlaceholder
            case .witnessSignature:
                model.title = texts.witnessSignatureTitle
                review.role = .witness
                review.signatureInstruction = texts.witnessSignatureInstruction
                review.placeholder = texts.signaturePlaceholder
                review.signingArea = .uiDefault
            }
            model.review = review
        case .comprehension:
            let check = ComprehensionTexts(language: study.language)
            model.title = check.title
            guard let question = comprehension.current else { break }
            let given = comprehension.attempts[question.index]
            var view = StepViewModel.ComprehensionView(
                index: question.index, count: comprehension.questions.count,
                progress: check.progress(question.index + 1, of: comprehension.questions.count),
                phase: comprehension.phase, question: question.question, choices: question.choices,
                text: check.instruction, attempt: given.count, attempts: comprehension.policy.attempts)
            switch comprehension.phase {
            case .question: break
            case .explanation, .stopped:
                view.chosen = given.last
                view.explanationHeading = check.explanationHeading
                view.explanation = question.explanation
                view.sectionHeading = check.sectionHeading
                switch question.subject {
                case .term(let term):
                    let section = document.sections.first { $0.termIndex == term }
                    view.sectionTitle = section?.title
                    view.sectionHTML = section?.htmlContent
                case .keyInformation:
                    view.sectionTitle = study.texts.keyInformationTitle
                    view.sectionHTML = document.keyInformation?.htmlContent
                }
                view.text =
                    comprehension.phase == .stopped
                    ? check.stoppedMessage
                    : comprehension.attemptsLeft > 0 ? check.tryAgainMessage : check.continueMessage
            }
            model.comprehension = view
        case .staff:
            let words = StaffTexts(language: study.language)
            model.title = words.title
            var view = StepViewModel.StaffView(
                page: staff.page, text: words.unlockText, staffId: staff.member?.id, staffName: staff.member?.name,
                method: staff.method, hasNote: staff.note != nil, hasSignature: staff.signature != nil)
            switch staff.page {
            case .unlock:
                view.staffIdLabel = words.staffIdLabel
                view.pinLabel = words.pinLabel
            case .attest, .signature:
                view.text = words.attestText(name: staff.member?.name ?? "")
                view.methods = IdentityVerification.allCases.map { .init(method: $0, text: words.text(for: $0)) }
                view.noteLabel = words.noteLabel
                view.attestLabel = words.attest
                if staff.page == .signature, let method = staff.method {
                    // What the staff member attested, above the line they sign on.
                    view.text = "\(words.identityCaption) \(words.text(for: method))"
                    view.signatureInstruction = words.signatureInstruction
                    view.signingArea = .uiDefault
                }
            }
            model.staff = view
        case .passcode:
            model.title = texts.passcodeTitle
            model.passcode = StepViewModel.PasscodeView(text: texts.passcodeText, digits: 4)
        case .done:
            model.end = StepViewModel.EndView(
                title: screens.doneTitle, message: screens.doneMessage(button: screens.finish, saving: saved))
        case .completed:
            model.end = StepViewModel.EndView(title: screens.completedTitle, message: screens.completedMessage(saved: saved))
        case .ineligible:
            model.end = StepViewModel.EndView(
                title: texts.eligibilityTitle, message: study.eligibilityMessages.ineligibleMessage)
        case .declined:
            model.end = isWithdrawal
                ? StepViewModel.EndView(title: screens.withdrawalDeclinedTitle, message: screens.withdrawalDeclinedMessage)
                : StepViewModel.EndView(title: screens.declinedTitle, message: screens.declinedMessage)
        case .expired:
            model.end = StepViewModel.EndView(title: screens.expiredTitle, message: screens.expiredMessage)
        case .cancelled:
            model.end = StepViewModel.EndView(title: screens.cancelledTitle, message: screens.cancelledMessage)
        case .paused:
            model.end = StepViewModel.EndView(title: screens.pausedTitle, message: screens.pausedMessage)
        }
        if let end = model.end { model.title = end.title }
        // A question behind the one asked was either understood or missed on every attempt.
        if !step.isFinished, comprehension.results.contains(where: { !$0.understood }) { model.comprehensionFlagged = true }
        if let call = staffCall, !step.isFinished {
            model.staffCall = StepViewModel.StaffCallView(text: screens.staffCalled, reason: call.reason.rawValue)
        }
        if let resumption, !step.isFinished {
            model.resumed = StepViewModel.ResumedView(
                outcome: resumption,
                text: resumption == .continued ? screens.resumedContinued : screens.resumedStartedOver)
        }
        model.labels = labels(for: model.actions, texts: texts, screens: screens, isWithdrawal: isWithdrawal)
        return model
    }

    /// The text of each offered action's control, worded for the page it is on.
    private func labels(
        for actions: [ConsentActionName], texts: BuiltInTexts, screens: ScreenTexts, isWithdrawal: Bool
    ) -> [String: String] {
        var labels: [String: String] = [:]
        for action in actions {
            let label: String
            switch action {
            case .answer:
                label = screens.confirmAnswers
                labels["answer.yes"] = screens.yes
                labels["answer.no"] = screens.no
            case .next:
                if step == .comprehension {
                    let check = ComprehensionTexts(language: study.language)
                    label = comprehension.attemptsLeft > 0 ? check.tryAgain : check.goOn
                } else {
                    label = step == .eligibility ? texts.startConsent : screens.next
                }
            case .comprehensionAnswer: label = ComprehensionTexts(language: study.language).answer
            case .optionalAnswer:
                label = screens.next
                labels["optionalAnswer.yes"] = screens.yes
                labels["optionalAnswer.no"] = screens.no
            case .back: label = screens.back
            case .chooseSharing, .chooseSigner: label = screens.next
            case .agree: label = texts.agree
            case .disagree: label = texts.disagree
            case .setName:
                if reviewPage == .name {
                    label = screens.next
                } else {
                    label = signedBy == .representative ? screens.changeParticipantName : screens.changeName
                }
            case .setSignerName:
                switch reviewPage {
                case .signature: label = screens.changeRepresentativeName
                case .witnessSignature: label = screens.changeWitnessName
                default: label = screens.next
                }
            case .beginSignature: label = screens.signOnPad
            case .clearSignature: label = screens.clearSignature
            case .submitSignature: label = screens.confirmSignature
            case .setPasscode: label = screens.setPasscode
            case .complete: label = screens.finish
            case .printCopy: label = screens.printCopy
            case .printBlank: label = screens.printBlank
            case .staffUnlock: label = StaffTexts(language: study.language).unlock
            case .attestIdentity:
                let words = StaffTexts(language: study.language)
                label = staff.page == .signature ? words.changeIdentityCheck : words.attest
            case .decline: label = isWithdrawal ? screens.declineWithdrawal : screens.declineConsent
            case .cancel: label = screens.cancel
            case .confirmWithdrawal: label = screens.confirmWithdrawal
            case .askStaff: label = screens.askStaff
            case .pause: label = screens.pause
            }
            labels[action.rawValue] = label
        }
        return labels
    }
}
