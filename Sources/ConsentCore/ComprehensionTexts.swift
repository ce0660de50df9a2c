/// The kiosk's texts of the comprehension check, in one language: its screen (`StepViewModel.ComprehensionView`)
/// and its part of the record (the PDF's "Understanding" section, the QuestionnaireResponse's item texts).
///
/// One static table per language with every member spelled out, as `ScreenTexts`, so a missing translation is a
/// compile error. `{n}`, `{count}` and `{attempt}` are replaced by numbers.
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
        progressTemplate.replacingOccurrences(of: "{n}", with: "\(n)").replacingOccurrences(of: "{count}", with: "\(count)")
    }

    public func understood(attempt: Int) -> String { understoodTemplate.replacingOccurrences(of: "{attempt}", with: "\(attempt)") }

    public func missed(attempts: Int) -> String { missedTemplate.replacingOccurrences(of: "{attempt}", with: "\(attempts)") }
}

extension ComprehensionTexts: LanguageTable {
    public static let english = ComprehensionTexts(
        language: "en",
        title: "Check Your Understanding",
        progressTemplate: "Question {n} of {count}",
        instruction: "Choose the answer you think is right.",
        tryAgainMessage: "That is not quite right. Read the explanation and the part of the consent it comes from, then try again.",
        continueMessage: "That is not quite right. Read the explanation; a member of staff will go over this part with you before you sign.",
        stoppedMessage: "That is not quite right. Please ask a member of staff to go over the consent with you before you go on.",
        explanationHeading: "Explanation",
        sectionHeading: "From the consent",
        tryAgain: "Try Again",
        goOn: "Continue",
        answer: "Answer",
        recordTitle: "Understanding",
        understoodTemplate: "Answered correctly on attempt {attempt}.",
        missedTemplate: "Not answered correctly after {attempt} attempts.",
        answersGiven: "Answers given:",
        flaggedNote: "A question was not answered correctly: the staff were asked to go over the consent with the participant."
    )

    public static let german = ComprehensionTexts(
        language: "de",
        title: "Haben Sie alles verstanden?",
        progressTemplate: "Frage {n} von {count}",
        instruction: "Wählen Sie die Antwort, die Sie für richtig halten.",
        tryAgainMessage: "Das stimmt nicht ganz. Lesen Sie die Erklärung und den Teil der Einwilligung, aus dem sie stammt, und versuchen Sie es dann noch einmal.",
        continueMessage: "Das stimmt nicht ganz. Lesen Sie die Erklärung; eine Mitarbeiterin oder ein Mitarbeiter bespricht diesen Teil mit Ihnen, bevor Sie unterschreiben.",
        stoppedMessage: "Das stimmt nicht ganz. Bitten Sie eine Mitarbeiterin oder einen Mitarbeiter, die Einwilligung mit Ihnen durchzugehen, bevor Sie fortfahren.",
        explanationHeading: "Erklärung",
        sectionHeading: "Aus der Einwilligung",
        tryAgain: "Noch einmal versuchen",
        goOn: "Weiter",
        answer: "Antworten",
        recordTitle: "Verständnis",
        understoodTemplate: "Im {attempt}. Versuch richtig beantwortet.",
        missedTemplate: "Nach {attempt} Versuchen nicht richtig beantwortet.",
        answersGiven: "Gegebene Antworten:",
        flaggedNote: "Eine Frage wurde nicht richtig beantwortet: Das Studienteam wurde gebeten, die Einwilligung mit der teilnehmenden Person durchzugehen."
    )

    public static let french = ComprehensionTexts(
        language: "fr",
        title: "Avez-vous bien compris ?",
        progressTemplate: "Question {n} sur {count}",
        instruction: "Choisissez la réponse qui vous semble juste.",
        tryAgainMessage: "Ce n’est pas tout à fait juste. Lisez l’explication et la partie du consentement dont elle provient, puis réessayez.",
        continueMessage: "Ce n’est pas tout à fait juste. Lisez l’explication ; un membre du personnel reverra cette partie avec vous avant que vous signiez.",
        stoppedMessage: "Ce n’est pas tout à fait juste. Veuillez demander à un membre du personnel de revoir le consentement avec vous avant de continuer.",
        explanationHeading: "Explication",
        sectionHeading: "Extrait du consentement",
        tryAgain: "Réessayer",
        goOn: "Continuer",
        answer: "Répondre",
        recordTitle: "Compréhension",
        understoodTemplate: "Bonne réponse à la tentative {attempt}.",
        missedTemplate: "Pas de bonne réponse après {attempt} tentatives.",
        answersGiven: "Réponses données :",
        flaggedNote: "Une question n’a pas reçu de bonne réponse : le personnel a été invité à revoir le consentement avec la personne participante."
    )
}
