/// The words of the `staff` step (the person obtaining consent), its error sentences and its block in the consent
/// PDF, in one language. Each language's table is in its language's file (`KioskLanguagePack`), every member
/// spelled out, so a missing translation is a compile error; a language without a table falls back to English, as `ScreenTexts` does.
public struct StaffTexts: Sendable, Hashable {
    public var language: String

    public var title: String
    /// The unlock page: hand the kiosk to the staff member, who types their id and PIN.
    public var unlockText: String
    public var staffIdLabel: String
    public var pinLabel: String
    public var unlock: String
    /// The attest page's question; `{name}` is the unlocked staff member's name.
    public var attestTextTemplate: String
    public var photoId: String
    public var knownToStaff: String
    public var representativeDocuments: String
    public var other: String
    public var noteLabel: String
    public var attest: String
    public var changeIdentityCheck: String
    public var signatureInstruction: String

    // Error sentences (`study.get`'s `texts.errors`).
    public var wrongPin: String
    public var locked: String
    public var notUnlocked: String

    // The consent PDF's block.
    public var pdfRole: String
    public var pdfMeaning: String
    public var identityCaption: String
    public var staffIdCaption: String

    public func attestText(name: String) -> String { Placeholder.fill(attestTextTemplate, [.name: name]) }

    /// The text of a verification method, as the attest page offers it and the PDF prints it.
    public func text(for method: IdentityVerification) -> String {
        switch method {
        case .photoId: photoId
        case .knownToStaff: knownToStaff
        case .representativeDocuments: representativeDocuments
        case .other: other
        }
    }
}
