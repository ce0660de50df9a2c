/// The English texts the PDF adds to a study's own (ConsentCore's `ConsentTexts` holds the ResearchKit ones).
public enum PDFTexts {
    public static let participantRole = "Participant"
    public static let witnessRole = "Witness"
    public static let representativeRole = "Legally Authorized Representative"

    /// The meaning of each signature, printed under it as 21 CFR 11.50(a)(3) asks of an electronic signature.
    public static let participantMeaning =
        "By signing, the participant consents to take part in this research study."
    public static let witnessMeaning =
        "By signing, the witness attests that the participant signed this consent in the witness's presence."
    public static let representativeMeaning =
        "By signing, the legally authorized representative consents on the participant's behalf to take part in "
        + "this research study."

    /// The caption of the time of signing; ConsentCore's `dateCaption` ("Date") is the ResearchKit one.
    public static let dateAndTimeCaption = "Date and time"
    public static let meaningLabel = "Meaning of this signature:"
    /// A representative's block: "Relationship to the participant: Parent", "Signing on behalf of: <name>".
    public static let relationshipCaption = "Relationship to the participant:"
    public static let onBehalfOfCaption = "Signing on behalf of:"

    /// The footer: "Page 1 of 3" (ResearchKit's `Page %1$ld of %2$ld`).
    public static func pageFooter(page: Int, of pageCount: Int) -> String { "Page \(page) of \(pageCount)" }
    /// The footer's study version, so a printout names the exact study files it was made from.
    public static func versionFooter(_ shortVersion: String) -> String { "Study version \(shortVersion)" }

    /// The PDF's subject and creator metadata.
    public static let subject = "Research consent"
    public static func unsignedSubject() -> String { "Research consent (unsigned preview)" }
    public static let creator = "consent-kiosk ConsentPDF"

    /// Shown where an image could not be loaded, with its alt text when it has one.
    public static func missingImage(alt: String?) -> String {
        guard let alt, !alt.isEmpty else { return "[image]" }
        return "[image: \(alt)]"
    }
}
