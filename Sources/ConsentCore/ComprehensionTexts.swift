/// The kiosk's texts of the comprehension check, in one language: its screen (`StepViewModel.ComprehensionView`)
/// and its part of the record (the PDF's "Understanding" section, the QuestionnaireResponse's item texts).
///
/// Each language's table is in its language's file (`KioskLanguagePack`), every member spelled out, so a missing
/// translation is a compile error. `{n}`, `{count}` and `{attempt}` are replaced by numbers.
public struct ComprehensionTexts: Sendable, Hashable {
    public var language: String
    /// The screen's title.
    public var title: String
    /// "Question {n} of {count}".
    public var progressTemplate: String
    /// Above the choices.
    public var instruction: String
    /// After a wrong answer that may be tried again.
    public var tryAgainMessage: String
    /// After the last wrong answer, when the study goes on.
    public var continueMessage: String
    /// After the last wrong answer, when the study stops.
    public var stoppedMessage: String
    /// Above the explanation.
    public var explanationHeading: String
    /// Above the section shown again.
    public var sectionHeading: String
    /// The explanation screen's `next` when the question is asked again.
    public var tryAgain: String
    /// The explanation screen's `next` when the flow goes on to the next question.
    public var goOn: String
    /// The action bar's label of `comprehensionAnswer` (each choice is its own button).
    public var answer: String

    // The record.
    /// The PDF section's and the QuestionnaireResponse's title.
    public var recordTitle: String
    /// "Answered correctly on attempt {attempt}."
    public var understoodTemplate: String
    /// "Not answered correctly after {attempt} attempts."
    public var missedTemplate: String
    /// "Answers given:".
    public var answersGiven: String
    /// The note when a question was missed on every attempt.
    public var flaggedNote: String

    public func progress(_ n: Int, of count: Int) -> String {
        Placeholder.fill(progressTemplate, [.n: "\(n)", .count: "\(count)"])
    }

    public func understood(attempt: Int) -> String { Placeholder.fill(understoodTemplate, [.attempt: "\(attempt)"]) }

    public func missed(attempts: Int) -> String { Placeholder.fill(missedTemplate, [.attempt: "\(attempts)"]) }
}
