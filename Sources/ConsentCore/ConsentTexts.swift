/// The fixed English texts of the consent, as C3-PRO and ResearchKit ship them (docs/C3PRO.md).
///
/// They are constants, not taken from the Contract. Studies override the eligibility ones through their intro
/// config (`EligibilityMessages`) and the review confirmation through `ConsentOptions.reasonForConsent`.
public enum ConsentTexts {
    public static let documentTitle = "Consent"
    public static let signaturePageTitle = "Consent"
    public static let signaturePageContent =
        "By agreeing you confirm that you read the consent and that you wish to take part in this research study."
    public static let defaultTeamName = "the research team"

    public static let eligibilityTitle = "Eligibility"
    public static let letsCheckMessage = "Let's see if you may take part in this study"
    // Not C3-PRO's "Tap the button below to begin the eligibility process": the kiosk shows the questions at once,
    // so the text names the button that sends the answers (`ScreenTexts.confirmAnswers`).
    public static let letsCheckBody = "Answer each question below, then tap \u{201C}Confirm Answers\u{201D}."
    public static let startEligibility = "Start Eligibility"
    public static let eligibleTitle = "You are eligible to join the study"
    // Not C3-PRO's "Tap the button below to begin the consent process": a kiosk UI places the button where its
    // layout wants it, so the text names it; `{button}` is the label of `next` there (`startConsent`).
    public static let eligibleMessage = "Tap \u{201C}{button}\u{201D} to begin the consent process."
    public static let startConsent = "Start Consent"
    public static let ineligibleMessage =
        "Thank you for your interest!\nUnfortunately, you are not eligible to join this study at this time."

    public static let sharingTitle = "Sharing Options"
    public static func sharingText(team: String) -> String {
        "\(team) will receive your study data from your participation in this study.\n\n"
            + "Sharing your coded study data more broadly (without information such as your name) may benefit this "
            + "and future research."
    }
    public static func shareWidelyChoice(team: String) -> String {
        "Share my data with \(team) and qualified researchers worldwide"
    }
    public static func shareTeamOnlyChoice(team: String) -> String { "Only share my data with \(team)" }
    public static let sharingLearnMore = "Learn more about data sharing"

    public static let reviewTitle = "Review"
    public static let reviewInstruction = "Review the form below, and tap Agree if you're ready to continue."
    public static let agree = "Agree"
    public static let disagree = "Disagree"
    public static let nameFormTitle = "Consent"
    public static let givenNameLabel = "First Name"
    public static let familyNameLabel = "Last Name"
    public static let namePlaceholder = "Required"
    public static let signatureTitle = "Signature"
    public static let signatureInstruction = "Please sign using your finger on the line below."
    public static let signaturePlaceholder = "Sign Here"
    public static let learnMore = "Learn More"

    public static let passcodeTitle = "Passcode"
    public static let passcodeText =
        "You will now be asked to create a passcode.\n\n"
        + "This protects your data from unauthorized access should you hand your phone to a friend."

    public static let participantRole = "Participant"
    public static func printedNameCaption(role: String) -> String { "\(role)'s Name (printed)" }
    public static func signatureCaption(role: String) -> String { "\(role)'s Signature" }
    public static let dateCaption = "Date"

    // Witness and legally authorized representative (the review step's signer pages).
    public static let representativeRole = "Legally Authorized Representative"
    public static let witnessRole = "Witness"
    public static let signerTitle = "Who Is Signing?"
    public static let signerParticipantChoice = "I am the participant and I sign for myself"
    public static let signerRepresentativeChoice =
        "I am the participant's legally authorized representative and I sign on their behalf"
    public static let participantNameTitle = "Participant's Name"
    public static let representativeTitle = "Legally Authorized Representative"
    public static let relationshipLabel = "Relationship to the participant"
    public static let representativeSignatureInstruction =
        "As the participant's legally authorized representative, please sign using your finger on the line below."
    public static let witnessTitle = "Witness"
    public static let witnessText = "A witness confirms that they saw the consent being signed."
    public static let witnessSignatureTitle = "Witness Signature"
    public static let witnessSignatureInstruction = "Witness, please sign using your finger on the line below."

    // The relationships offered to a representative unless the study lists its own (v3 RoleCode codes).
    public static let relationshipParent = "Parent"
    public static let relationshipGuardian = "Legal guardian (court-appointed)"
    public static let relationshipSpouse = "Spouse"
    public static let relationshipDomesticPartner = "Domestic partner"
    public static let relationshipChild = "Adult child"
    public static let relationshipHealthcarePowerOfAttorney = "Healthcare power of attorney"
    public static let relationshipPowerOfAttorney = "Power of attorney"
}
