/// The fixed English texts of withdrawal and re-consent flows (not part of C3-PRO, which has neither).
extension ConsentTexts {
    public static let withdrawalTitle = "Withdraw Consent"
    // The study's title is quoted in every language: it is a name ("Heartbeat & Sleep Study", „Studie Heartbeat &
    // Sleep“) that takes no article of the sentence around it. `signedOn` is a day in words
    // (`ParticipantDateStyle`), never the record's `YYYY-MM-DD`.
    public static func withdrawalText(studyTitle: String, signedOn: String) -> String {
        "You are withdrawing the consent you gave to \u{201C}\(studyTitle)\u{201D} on \(signedOn). "
            + "You may tell us why; you do not have to. Then give your name and sign to confirm."
    }
    public static let withdrawalReasonLabel = "Reason (optional)"
    /// The withdrawal document's heading and body (its PDF), and the meaning of its signature.
    public static let withdrawalDocumentTitle = "Withdrawal of Consent"
    public static func withdrawalDocumentText(studyTitle: String, signedOn: String, record: String) -> String {
        "I withdraw the consent I gave to \u{201C}\(studyTitle)\u{201D} on \(signedOn) (record \(record))."
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
    /// The texts above when the day of the previous signature is known: `{date}` is that day in words.
    public static let changesSinceText =
        "The consent for this study has changed since you signed it on {date}. These sections are new, removed or "
        + "edited; please read the consent again and sign it if you agree."
    public static let changesSinceUnknownText =
        "The consent for this study has changed since you signed it on {date}. Please read the consent again and "
        + "sign it if you agree."
}
