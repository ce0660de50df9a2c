/// The fixed English texts of withdrawal and re-consent flows (not part of C3-PRO, which has neither).
extension ConsentTexts {
    public static let withdrawalTitle = "Withdraw Consent"
    public static func withdrawalText(studyTitle: String, signedOn: String) -> String {
        "You are withdrawing the consent you gave to \(studyTitle) on \(signedOn). "
            + "You may tell us why; you do not have to. Then give your name and sign to confirm."
    }
    public static let withdrawalReasonLabel = "Reason (optional)"
    /// The withdrawal document's heading and body (its PDF), and the meaning of its signature.
    public static let withdrawalDocumentTitle = "Withdrawal of Consent"
    public static func withdrawalDocumentText(studyTitle: String, signedOn: String, record: String) -> String {
        "I withdraw the consent I gave to \(studyTitle) on \(signedOn) (record \(record))."
    }
    public static let withdrawalReasonHeading = "Reason given"
    public static let withdrawalSignaturePageContent =
        "By signing you confirm that you withdraw your consent to take part in this research study."

    public static let changesTitle = "What Changed"
    public static let changesText =
        "The consent for this study has changed since you last signed it. These sections are new, removed or "
        + "edited; please read the consent again and sign it if you agree."
    public static let changesUnknownText =
        "The consent for this study has changed since you last signed it. Please read the consent again and sign "
        + "it if you agree."
}
