/// The ResearchKit consent section types (`ORKConsentSectionType`), by the codes a Contract term uses.
///
/// The raw values are the exact, case-sensitive codes of the coding system
/// `http://researchkit.org/docs/Constants/ORKConsentSectionType` (docs/C3PRO.md).
public enum ConsentSectionType: String, Sendable, Hashable, CaseIterable, Codable {
    case overview = "Overview"
    case dataGathering = "DataGathering"
    case privacy = "Privacy"
    case dataUse = "DataUse"
    case timeCommitment = "TimeCommitment"
    case studySurvey = "StudySurvey"
    case studyTasks = "StudyTasks"
    case withdrawing = "Withdrawing"
    case custom = "Custom"
    case onlyInDocument = "OnlyInDocument"

    /// The coding system a term's type must use; a coding with another system is skipped. No `.html` suffix.
    public static let codingSystem = "http://researchkit.org/docs/Constants/ORKConsentSectionType"

    /// ResearchKit's default (en) title (`BuiltInTexts.english`, in `Languages/English.swift`); nil for `Custom`
    /// and `OnlyInDocument`.
    public var defaultTitle: String? { BuiltInTexts.english.sectionTitles[self] }

    /// The default "Learn more" button title (English); nil for `OnlyInDocument`, which has no scene.
    public var learnMoreTitle: String? { BuiltInTexts.english.learnMoreTitles[self] }

    /// Whether the section gets a scene in the visual consent; `OnlyInDocument` only appears in the document.
    public var isVisual: Bool { self != .onlyInDocument }
}
