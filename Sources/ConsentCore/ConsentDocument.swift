/// The consent a participant goes through, derived from a study's FHIR `Contract` (docs/C3PRO.md).
public struct ConsentDocument: Sendable, Hashable {
    /// Constants, not taken from the Contract (docs/C3PRO.md).
    public var title: String = BuiltInTexts.english.documentTitle
    public var signaturePageTitle: String = BuiltInTexts.english.signaturePageTitle
    public var signaturePageContent: String = BuiltInTexts.english.signaturePageContent

    /// Every convertible term, in term order.
    public var sections: [ConsentSection]
    /// The eligibility questions from `subject[0]` → contained `Group`, in characteristic order.
    public var eligibility: [EligibilityRequirement]
    /// The comprehension questions (`ComprehensionQuestion`), asked after the review document; empty: no check.
    public var comprehension: [ComprehensionQuestion] = []
    /// What the consent begins with (`KeyInformation`): its own step after eligibility, and the start of the
    /// review document and the PDF. Nil: the Contract has none, and the flow starts with the sections as before.
    public var keyInformation: KeyInformation?
    /// The optional elements (`OptionalElement`), each answered Yes or No on the step `optional` after sharing.
    /// Empty: the flow has no such step.
    public var optionalElements: [OptionalElement] = []
    /// The name of the team the data-sharing choice names: "The <Organization.name>" or "the research team".
    public var teamName: String
    /// What the conversion skipped or could not resolve, for the coordinator (`consentctl inspect`/`lint`).
    public var diagnostics: [StudyDiagnostic]

    /// The messages C3-PRO would log: every diagnostic but `sectionWithoutHTML`, which C3 treats as a choice (the
    /// section simply stays out of the document), so only `diagnostics` and `consentctl lint` point it out.
    public var warnings: [String] { diagnostics.legacyWarnings }

    public init(
        sections: [ConsentSection], eligibility: [EligibilityRequirement], teamName: String,
        diagnostics: [StudyDiagnostic] = []
    ) {
        self.sections = sections
        self.eligibility = eligibility
        self.teamName = teamName
        self.diagnostics = diagnostics
    }

    /// The sections that get a scene in the visual consent.
    public var visualSections: [ConsentSection] { sections.filter(\.isVisual) }

    /// How many scenes the visual consent has: `visualSections.count` without the array, which the session's
    /// every step between eligibility and sharing made and threw away.
    public var visualSectionCount: Int { sections.reduce(0) { $1.isVisual ? $0 + 1 : $0 } }

    /// The sections printed in the review document and the PDF.
    public var documentSections: [ConsentSection] { sections.filter(\.isInDocument) }
}
