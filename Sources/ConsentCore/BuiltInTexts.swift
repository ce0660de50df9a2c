/// The texts the kiosk adds to a study's own, in one language: the default section titles, the eligibility,
/// sharing, review, name and signature screens, and the signature captions (C3-PRO's `C3PRO.strings` and
/// ResearchKit's strings, which ship `en`, `de` and `fr`).
///
/// A study never has to translate these: a German study folder gets the German table. A language without a table
/// falls back to English (`BuiltInTexts(language: "it").language == "en"`). Studies still override the eligibility
/// texts through their intro config and the review confirmation through `reasonForConsent`.
///
/// Each language's table is in its file under `Languages/` (`KioskLanguagePack`), every member spelled out, so a
/// missing translation is a compile error, not an English string on a German screen. Templates take `{team}` or
/// `{role}` as placeholders (`Placeholder`).
public struct BuiltInTexts: Sendable, Hashable {
    /// The language of the table (a tag of `supportedLanguages`), not necessarily the one asked for.
    public var language: String

    public var documentTitle: String
    public var signaturePageTitle: String
    public var signaturePageContent: String
    /// The team the sharing choice names when the Contract names no Organization.
    public var defaultTeamName: String
    /// The team named by the Contract's Organization: `{team}` is `Organization.name`.
    public var namedTeamTemplate: String
    public var sectionTitles: [ConsentSectionType: String]
    public var learnMoreTitles: [ConsentSectionType: String]
    public var learnMore: String

    public var eligibilityTitle: String
    public var letsCheckMessage: String
    public var letsCheckBody: String
    public var startEligibility: String
    public var eligibleTitle: String
    /// Names the button that leads on: `{button}` is its label (`startConsent`).
    public var eligibleMessage: String
    public var startConsent: String
    public var ineligibleMessage: String

    public var sharingTitle: String
    public var sharingTextTemplate: String
    public var shareWidelyTemplate: String
    public var shareTeamOnlyTemplate: String
    public var sharingLearnMore: String
    /// The record's wording of a "share widely" choice (the Consent's nested provision), in the consent's language.
    public var sharingProvisionTemplate: String

    public var reviewTitle: String
    public var reviewInstruction: String
    public var agree: String
    public var disagree: String
    public var nameFormTitle: String
    public var givenNameLabel: String
    public var familyNameLabel: String
    public var namePlaceholder: String
    public var signatureTitle: String
    public var signatureInstruction: String
    public var signaturePlaceholder: String

    public var passcodeTitle: String
    public var passcodeText: String

    public var participantRole: String
    public var printedNameCaptionTemplate: String
    public var signatureCaptionTemplate: String
    public var dateCaption: String

    // Witness and legally authorized representative (the review step's signer pages).
    public var representativeRole: String
    public var witnessRole: String
    public var signerTitle: String
    public var signerParticipantChoice: String
    public var signerRepresentativeChoice: String
    public var participantNameTitle: String
    public var representativeTitle: String
    public var relationshipLabel: String
    public var representativeSignatureInstruction: String
    public var witnessTitle: String
    public var witnessText: String
    public var witnessSignatureTitle: String
    public var witnessSignatureInstruction: String
    /// The displays of `RepresentativeRelationship.defaults` (v3 RoleCode PRN, GUARD, SPS, DOMPART, CHILD,
    /// HPOWATT, POWATT).
    public var relationshipParent: String
    public var relationshipGuardian: String
    public var relationshipSpouse: String
    public var relationshipDomesticPartner: String
    public var relationshipChild: String
    public var relationshipHealthcarePowerOfAttorney: String
    public var relationshipPowerOfAttorney: String

    // Withdrawal and re-consent. Templates take `{study}`, `{date}` and `{record}`.
    public var withdrawalTitle: String
    public var withdrawalTextTemplate: String
    public var withdrawalReasonLabel: String
    /// The withdrawal document's heading and body (its PDF), and the meaning of its signature.
    public var withdrawalDocumentTitle: String
    public var withdrawalDocumentTextTemplate: String
    public var withdrawalReasonHeading: String
    public var withdrawalSignaturePageContent: String
    public var changesTitle: String
    public var changesText: String
    public var changesUnknownText: String
    /// `changesText` and `changesUnknownText` naming the day of the previous signature: `{date}`, in words.
    public var changesSinceTextTemplate: String
    public var changesSinceUnknownTextTemplate: String

    // Key information (`KeyInformation`): the step's title, which is also the heading that sets it apart at the
    // start of the review document and the PDF, and the sentence above it on its step.
    public var keyInformationTitle: String
    public var keyInformationText: String

    // Optional elements (`OptionalElement`): the step's title, which is also the heading of the answers in the
    // review document and the PDF, and the sentence above the elements on its step. The answers' words are
    // `ScreenTexts.yes` and `ScreenTexts.no`.
    public var optionalTitle: String
    public var optionalText: String

    // A change of answers to optional elements (`FlowPurpose.change`): the `optional` step's title and sentence in
    // a change flow, and the change document's heading, body and the meaning of its signature (its PDF). Templates
    // take `{study}`, `{date}` and `{record}`.
    public var changeTitle: String
    public var changeTextTemplate: String
    public var changeDocumentTitle: String
    public var changeDocumentTextTemplate: String
    public var changeSignaturePageContent: String

    /// The languages with a table, English first (`KioskLanguagePack.all`).
    public static var supportedLanguages: [String] { KioskLanguagePack.all.map(\.tag) }
    public static var fallbackLanguage: String { KioskLanguagePack.english.tag }

    /// Whether `tag` has its own table (else it falls back to English).
    public static func hasTable(for tag: String) -> Bool {
        KioskLanguagePack.exactly(tag) != nil
    }

    // MARK: Templates

    public func teamName(organization name: String) -> String { Placeholder.fill(namedTeamTemplate, [.team: name]) }
    public func sharingText(team: String) -> String { Placeholder.fill(sharingTextTemplate, [.team: team]) }
    public func shareWidelyChoice(team: String) -> String { Placeholder.fill(shareWidelyTemplate, [.team: team]) }
    public func shareTeamOnlyChoice(team: String) -> String { Placeholder.fill(shareTeamOnlyTemplate, [.team: team]) }
    public func sharingProvision(team: String) -> String { Placeholder.fill(sharingProvisionTemplate, [.team: team]) }
    public func printedNameCaption(role: String) -> String { Placeholder.fill(printedNameCaptionTemplate, [.role: role]) }
    public func signatureCaption(role: String) -> String { Placeholder.fill(signatureCaptionTemplate, [.role: role]) }
    public func withdrawalText(studyTitle: String, signedOn: String) -> String {
        Placeholder.fill(withdrawalTextTemplate, [.study: studyTitle, .date: signedOn])
    }
    public func withdrawalDocumentText(studyTitle: String, signedOn: String, record: String) -> String {
        Placeholder.fill(withdrawalDocumentTextTemplate, [.study: studyTitle, .date: signedOn, .record: record])
    }
    public func changeText(studyTitle: String, signedOn: String) -> String {
        Placeholder.fill(changeTextTemplate, [.study: studyTitle, .date: signedOn])
    }
    public func changeDocumentText(studyTitle: String, signedOn: String, record: String) -> String {
        Placeholder.fill(changeDocumentTextTemplate, [.study: studyTitle, .date: signedOn, .record: record])
    }
    /// The re-consent's explanation: with the section lists (`detailed`) or without, naming the day the previous
    /// consent was signed when it is known (`signedOn`, a day in words).
    public func changesText(detailed: Bool, signedOn: String?) -> String {
        guard let signedOn else { return detailed ? changesText : changesUnknownText }
        return Placeholder.fill(detailed ? changesSinceTextTemplate : changesSinceUnknownTextTemplate, [.date: signedOn])
    }

    /// The display of a default relationship code in this language; nil for a code the kiosk has no text for.
    public func relationshipDisplay(code: String) -> String? {
        switch code {
        case "PRN": relationshipParent
        case "GUARD": relationshipGuardian
        case "SPS": relationshipSpouse
        case "DOMPART": relationshipDomesticPartner
        case "CHILD": relationshipChild
        case "HPOWATT": relationshipHealthcarePowerOfAttorney
        case "POWATT": relationshipPowerOfAttorney
        default: nil
        }
    }

    public func sectionTitle(_ type: ConsentSectionType) -> String? { sectionTitles[type] }
    public func learnMoreTitle(_ type: ConsentSectionType) -> String? { learnMoreTitles[type] }

    /// The "Learn more" title of a section's scene; nil when it has no HTML to show.
    public func learnMoreTitle(for section: ConsentSection) -> String? {
        section.isInDocument ? learnMoreTitles[section.type] : nil
    }
}
