/// The names of a record directory's files (shared with the agent).
public enum RecordFileName {
    public static let contract = "contract.json"
    public static let consent = "consent.json"
    public static let provenance = "provenance.json"
    public static let patient = "patient.json"
    public static let bundle = "bundle.json"
    public static let pdf = "consent.pdf"
    public static let signature = "signature.json"
    /// The comprehension check's answers (an R4 QuestionnaireResponse); only when the study asks questions.
    public static let questionnaireResponse = "questionnaire-response.json"
}
