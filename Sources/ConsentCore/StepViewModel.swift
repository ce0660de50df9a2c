/// What a UI shows for the current step of a flow: texts, HTML, choices and the actions it may send.
///
/// It is everything a kiosk UI needs to render a step without knowing FHIR. Exactly one of the step-specific
/// parts (`eligibility`, `scene`, `sharing`, `review`, `passcode`, `end`) is present, matching `step`.
public struct StepViewModel: Sendable, Hashable, Codable {
    public var step: ConsentStep
    public var title: String
    public var actions: [ConsentActionName]
    public var eligibility: EligibilityView?
    public var scene: SceneView?
    public var sharing: SharingView?
    public var review: ReviewView?
    public var passcode: PasscodeView?
    public var end: EndView?
    public var withdrawal: WithdrawalView?
    public var changes: ChangesView?

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
        /// The button that leads on ("Start Consent") when eligible.
        public var button: String?
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

    public struct ReviewView: Sendable, Hashable, Codable {
        public var page: ReviewPage
        /// The review document (spec §5.3) on the `document` page.
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
    }

    public struct PasscodeView: Sendable, Hashable, Codable {
        public var text: String
        public var digits: Int
    }

    public struct EndView: Sendable, Hashable, Codable {
        public var message: String?
    }
}

extension ConsentSession {
    /// The view model of the current step.
    public var viewModel: StepViewModel {
        let document = study.document
        var model = StepViewModel(step: step, title: "", actions: [])
        switch step {
        case .withdrawal:
            model.title = ConsentTexts.withdrawalTitle
            if case .withdrawal(let target) = purpose {
                model.withdrawal = StepViewModel.WithdrawalView(
                    record: target.recordID, studyTitle: target.studyTitle, signedOn: target.signedOn,
                    text: ConsentTexts.withdrawalText(studyTitle: target.studyTitle, signedOn: target.signedOn),
                    reasonLabel: ConsentTexts.withdrawalReasonLabel, hasReason: withdrawalReason != nil)
            }
            model.actions = [.confirmWithdrawal, .cancel]
        case .changes:
            model.title = ConsentTexts.changesTitle
            if case .reconsent(let basis) = purpose {
                let diff = basis.changes ?? ConsentDocumentDiff()
                model.changes = StepViewModel.ChangesView(
                    previousRecord: basis.previousRecordID,
                    text: basis.changes == nil ? ConsentTexts.changesUnknownText : ConsentTexts.changesText,
                    detailed: basis.changes != nil, added: diff.added, removed: diff.removed, edited: diff.edited)
            }
            model.actions = [.next, .decline, .cancel]
        case .eligibility:
            let messages = study.eligibilityMessages
            model.title = ConsentTexts.eligibilityTitle
            let status = eligibilityStatus
            model.eligibility = StepViewModel.EligibilityView(
                questions: document.eligibility.map(\.question), answers: answers, status: status,
                heading: status == .eligible ? messages.eligibleTitle : messages.letsCheckMessage,
                message: status == .eligible ? messages.eligibleMessage : ConsentTexts.letsCheckBody,
                button: status == .eligible ? ConsentTexts.startConsent : nil)
            model.actions = status == .eligible ? [.answer, .next, .decline, .cancel] : [.answer, .decline, .cancel]
            if case .reconsent = purpose { model.actions.insert(.back, at: status == .eligible ? 2 : 1) }
        case .visual:
            let scenes = document.visualSections
            // The session never enters .visual without scenes; an empty model beats a trap if that ever changes.
            guard scenes.indices.contains(sceneIndex) else { break }
            let section = scenes[sceneIndex]
            model.title = section.title ?? ConsentTexts.learnMore
            model.scene = StepViewModel.SceneView(
                index: sceneIndex, count: scenes.count, type: section.type, title: section.title,
                summary: section.summary, learnMoreTitle: section.learnMoreTitle,
                learnMoreHTML: section.isInDocument ? section.htmlContent : nil, image: section.image,
                animation: section.animation)
            model.actions = [.next, .back, .decline, .cancel]
        case .sharing:
            let team = document.teamName
            model.title = ConsentTexts.sharingTitle
            model.sharing = StepViewModel.SharingView(
                team: team, text: ConsentTexts.sharingText(team: team),
                choices: [
                    .init(shareWidely: true, text: ConsentTexts.shareWidelyChoice(team: team)),
                    .init(shareWidely: false, text: ConsentTexts.shareTeamOnlyChoice(team: team)),
                ], learnMoreTitle: ConsentTexts.sharingLearnMore, learnMoreHTML: study.sharingHTML ?? "",
                selected: shareWidely)
            model.actions = [.chooseSharing, .back, .decline, .cancel]
        case .reviewStep:
            var review = StepViewModel.ReviewView(page: reviewPage, hasName: givenName != nil, hasSignature: signature != nil)
            switch reviewPage {
            case .document:
                model.title = ConsentTexts.reviewTitle
                review.html = ReviewDocument.html(for: study)
                review.reasonForConsent = study.options.reasonForConsent
                model.actions = [.agree, .disagree, .back, .decline, .cancel]
            case .name:
                model.title = ConsentTexts.nameFormTitle
                review.givenNameLabel = ConsentTexts.givenNameLabel
                review.familyNameLabel = ConsentTexts.familyNameLabel
                review.placeholder = ConsentTexts.namePlaceholder
                model.actions = givenName != nil ? [.setName, .next, .back, .decline, .cancel] : [.setName, .back, .decline, .cancel]
            case .signature:
                model.title = ConsentTexts.signatureTitle
                review.signatureInstruction = ConsentTexts.signatureInstruction
                review.placeholder = ConsentTexts.signaturePlaceholder
                model.actions = [.beginSignature, .clearSignature, .submitSignature, .setName, .back, .decline, .cancel]
            }
            model.review = review
        case .passcode:
            model.title = ConsentTexts.passcodeTitle
            model.passcode = StepViewModel.PasscodeView(text: ConsentTexts.passcodeText, digits: 4)
            model.actions = [.setPasscode, .back, .decline, .cancel]
        case .done:
            model.title = document.signaturePageTitle
            model.end = StepViewModel.EndView(message: nil)
            model.actions = [.complete, .back, .decline, .cancel]
        case .completed:
            model.title = document.title
            model.end = StepViewModel.EndView(message: nil)
        case .ineligible:
            model.title = ConsentTexts.eligibilityTitle
            model.end = StepViewModel.EndView(message: study.eligibilityMessages.ineligibleMessage)
        case .declined, .expired, .cancelled:
            model.title = document.title
            model.end = StepViewModel.EndView(message: nil)
        }
        return model
    }
}
