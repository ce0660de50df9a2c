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
            let options = study.options
            if options.allowRepresentative { review.signedBy = signedBy }
            if signedBy == .representative { review.hasRepresentative = representativeRelationship != nil }
            if options.requireWitness {
                review.hasWitnessName = witnessGivenName != nil
                review.hasWitnessSignature = witnessSignature != nil
            }
            switch reviewPage {
            case .document:
                model.title = ConsentTexts.reviewTitle
                review.html = ReviewDocument.html(for: study)
                review.reasonForConsent = study.options.reasonForConsent
                model.actions = [.agree, .disagree, .back, .decline, .cancel]
            case .signer:
                model.title = ConsentTexts.signerTitle
                review.signerChoices = [
                    StepViewModel.SignerChoice(role: .participant, text: ConsentTexts.signerParticipantChoice),
                    StepViewModel.SignerChoice(role: .representative, text: ConsentTexts.signerRepresentativeChoice),
                ]
                model.actions = signedBy != nil
                    ? [.chooseSigner, .next, .back, .decline, .cancel] : [.chooseSigner, .back, .decline, .cancel]
            case .name:
                model.title = signedBy == .representative ? ConsentTexts.participantNameTitle : ConsentTexts.nameFormTitle
                review.role = .participant
                review.givenNameLabel = ConsentTexts.givenNameLabel
                review.familyNameLabel = ConsentTexts.familyNameLabel
                review.placeholder = ConsentTexts.namePlaceholder
                model.actions = givenName != nil ? [.setName, .next, .back, .decline, .cancel] : [.setName, .back, .decline, .cancel]
            case .representative:
                model.title = ConsentTexts.representativeTitle
                review.role = .representative
                review.givenNameLabel = ConsentTexts.givenNameLabel
                review.familyNameLabel = ConsentTexts.familyNameLabel
                review.placeholder = ConsentTexts.namePlaceholder
                review.relationshipLabel = ConsentTexts.relationshipLabel
                review.relationships = options.representativeRelationships.map {
                    StepViewModel.Relationship(code: $0.code, display: $0.display)
                }
                model.actions = representativeRelationship != nil
                    ? [.setSignerName, .next, .back, .decline, .cancel] : [.setSignerName, .back, .decline, .cancel]
            case .signature:
                model.title = ConsentTexts.signatureTitle
                review.role = signedBy ?? .participant
                review.signatureInstruction =
                    signedBy == .representative
                    ? ConsentTexts.representativeSignatureInstruction : ConsentTexts.signatureInstruction
                review.placeholder = ConsentTexts.signaturePlaceholder
                model.actions = [.beginSignature, .clearSignature, .submitSignature, .setName]
                if signedBy == .representative { model.actions.append(.setSignerName) }
                if options.requireWitness, signature != nil { model.actions.append(.next) }
                model.actions += [.back, .decline, .cancel]
            case .witness:
                model.title = ConsentTexts.witnessTitle
                review.role = .witness
                review.text = ConsentTexts.witnessText
                review.givenNameLabel = ConsentTexts.givenNameLabel
                review.familyNameLabel = ConsentTexts.familyNameLabel
                review.placeholder = ConsentTexts.namePlaceholder
                model.actions = witnessGivenName != nil
                    ? [.setSignerName, .next, .back, .decline, .cancel] : [.setSignerName, .back, .decline, .cancel]
            case .witnessSignature:
                model.title = ConsentTexts.witnessSignatureTitle
                review.role = .witness
                review.signatureInstruction = ConsentTexts.witnessSignatureInstruction
                review.placeholder = ConsentTexts.signaturePlaceholder
                model.actions = [.beginSignature, .clearSignature, .submitSignature, .setSignerName, .back, .decline, .cancel]
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
