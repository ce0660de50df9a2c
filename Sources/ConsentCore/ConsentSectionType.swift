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

    /// ResearchKit's default (en) title; nil for `Custom` and `OnlyInDocument`.
    public var defaultTitle: String? {
        switch self {
        case .overview: return "Welcome"
        case .dataGathering: return "Data Gathering"
        case .privacy: return "Privacy"
        case .dataUse: return "Data Use"
        case .timeCommitment: return "Time Commitment"
        case .studySurvey: return "Study Survey"
        case .studyTasks: return "Study Tasks"
        case .withdrawing: return "Withdrawing"
        case .custom, .onlyInDocument: return nil
        }
    }

    /// The default "Learn more" button title; nil for `OnlyInDocument`, which has no scene.
    public var learnMoreTitle: String? {
        switch self {
        case .overview: return "Learn more about the study first"
        case .dataGathering: return "Learn more about how data is gathered"
        case .privacy: return "Learn more about how your privacy and identity are protected"
        case .dataUse: return "Learn more about how data is used"
        case .timeCommitment: return "Learn more about the study's impact on your time"
        case .studySurvey: return "Learn more about the study survey"
        case .studyTasks: return "Learn more about the tasks involved"
        case .withdrawing: return "Learn more about withdrawing"
        case .custom: return "Learn more"
        case .onlyInDocument: return nil
        }
    }

    /// Whether the section gets a scene in the visual consent; `OnlyInDocument` only appears in the document.
    public var isVisual: Bool { self != .onlyInDocument }
}
