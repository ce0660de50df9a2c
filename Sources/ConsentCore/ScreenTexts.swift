import Foundation

/// The kiosk's texts for its controls and its closing screens, in one language: what `StepViewModel.labels` and
/// `StepViewModel.end` carry, so a UI needs no string table of its own.
///
/// Separate from `BuiltInTexts` (C3-PRO's and ResearchKit's texts) because ResearchKit draws these itself on a
/// phone; a kiosk UI gets them from the agent. Each language is one static table with every member spelled out,
/// so a missing translation is a compile error. `{button}` in a template is the label of the control it names.
public struct ScreenTexts: Sendable, Hashable {
    /// The language of the table (a tag of `BuiltInTexts.supportedLanguages`).
    public var language: String

    // Controls. English labels are in title case, as ResearchKit's buttons are.
    public var next: String
    public var back: String
    public var yes: String
    public var no: String
    /// The button that sends the eligibility answers (`eligibility.answer`): named by `letsCheckBody`.
    public var confirmAnswers: String
    public var declineConsent: String
    /// `decline` in a withdrawal flow: the participant keeps the consent.
    public var declineWithdrawal: String
    public var cancel: String
    public var changeName: String
    public var changeParticipantName: String
    public var changeRepresentativeName: String
    public var changeWitnessName: String
    public var signOnPad: String
    public var clearSignature: String
    public var confirmSignature: String
    public var setPasscode: String
    public var finish: String
    /// `printCopy`: the participant's copy of the signed consent, on the kiosk's printer.
    public var printCopy: String
    public var confirmWithdrawal: String

    // Closing screens.
    public var doneTitle: String
    public var doneMessageTemplate: String
    public var withdrawalDoneMessageTemplate: String
    public var completedTitle: String
    public var completedMessage: String
    public var withdrawalCompletedMessage: String
    public var declinedTitle: String
    public var declinedMessage: String
    public var withdrawalDeclinedTitle: String
    public var withdrawalDeclinedMessage: String
    public var cancelledTitle: String
    public var cancelledMessage: String
    public var expiredTitle: String
    public var expiredMessage: String

    public func doneMessage(button: String, withdrawal: Bool) -> String {
        (withdrawal ? withdrawalDoneMessageTemplate : doneMessageTemplate).replacingOccurrences(of: "{button}", with: button)
    }
}

extension ScreenTexts: LanguageTable {
    public static let english = ScreenTexts(
        language: "en",
        next: "Next",
        back: "Back",
        yes: "Yes",
        no: "No",
        confirmAnswers: "Confirm Answers",
        declineConsent: "Do Not Take Part",
        declineWithdrawal: "Keep My Consent",
        cancel: "Cancel",
        changeName: "Change Name",
        changeParticipantName: "Change Participant's Name",
        changeRepresentativeName: "Change Representative's Name",
        changeWitnessName: "Change Witness's Name",
        signOnPad: "Sign on the Pad",
        clearSignature: "Clear",
        confirmSignature: "Confirm Signature",
        setPasscode: "Set Passcode",
        finish: "Finish",
        printCopy: "Print my copy",
        confirmWithdrawal: "Withdraw Consent",
        doneTitle: "Ready to Finish",
        doneMessageTemplate: "Your consent is complete. Tap \u{201C}{button}\u{201D} to save it.",
        withdrawalDoneMessageTemplate: "Your withdrawal is complete. Tap \u{201C}{button}\u{201D} to save it.",
        completedTitle: "Thank You",
        completedMessage: "Your consent has been saved. Please let the study staff know that you are done.",
        withdrawalCompletedMessage:
            "Your withdrawal has been saved. Please let the study staff know that you are done.",
        declinedTitle: "Not Taking Part",
        declinedMessage: "You chose not to take part. Nothing you entered has been kept.",
        withdrawalDeclinedTitle: "Consent Kept",
        withdrawalDeclinedMessage: "Your consent was not withdrawn. Nothing you entered has been kept.",
        cancelledTitle: "Cancelled",
        cancelledMessage: "This session was cancelled. Nothing you entered has been kept.",
        expiredTitle: "Session Ended",
        expiredMessage:
            "This session ended because nothing happened for a while. Nothing you entered has been kept. "
            + "Please start again.")

    /// German, formal address ("Sie"), as `BuiltInTexts.german`.
    public static let german = ScreenTexts(
        language: "de",
        next: "Weiter",
        back: "Zurück",
        yes: "Ja",
        no: "Nein",
        confirmAnswers: "Antworten bestätigen",
        declineConsent: "Nicht teilnehmen",
        declineWithdrawal: "Einwilligung behalten",
        cancel: "Abbrechen",
        changeName: "Namen ändern",
        changeParticipantName: "Namen der teilnehmenden Person ändern",
        changeRepresentativeName: "Namen der Vertretung ändern",
        changeWitnessName: "Namen der Zeugin / des Zeugen ändern",
        signOnPad: "Auf dem Unterschriftenpad unterschreiben",
        clearSignature: "Löschen",
        confirmSignature: "Unterschrift bestätigen",
        setPasscode: "Code festlegen",
        finish: "Abschließen",
        printCopy: "Meine Kopie drucken",
        confirmWithdrawal: "Einwilligung widerrufen",
        doneTitle: "Bereit zum Abschließen",
        doneMessageTemplate: "Ihre Einwilligung ist vollständig. Tippen Sie auf „{button}“, um sie zu speichern.",
        withdrawalDoneMessageTemplate: "Ihr Widerruf ist vollständig. Tippen Sie auf „{button}“, um ihn zu speichern.",
        completedTitle: "Vielen Dank",
        completedMessage:
            "Ihre Einwilligung wurde gespeichert. Bitte sagen Sie dem Studienpersonal, dass Sie fertig sind.",
        withdrawalCompletedMessage:
            "Ihr Widerruf wurde gespeichert. Bitte sagen Sie dem Studienpersonal, dass Sie fertig sind.",
        declinedTitle: "Keine Teilnahme",
        declinedMessage: "Sie haben sich gegen eine Teilnahme entschieden. Ihre Eingaben wurden nicht gespeichert.",
        withdrawalDeclinedTitle: "Einwilligung bleibt bestehen",
        withdrawalDeclinedMessage: "Ihre Einwilligung wurde nicht widerrufen. Ihre Eingaben wurden nicht gespeichert.",
        cancelledTitle: "Abgebrochen",
        cancelledMessage: "Dieser Vorgang wurde abgebrochen. Ihre Eingaben wurden nicht gespeichert.",
        expiredTitle: "Vorgang beendet",
        expiredMessage:
            "Dieser Vorgang wurde beendet, weil eine Weile nichts geschah. Ihre Eingaben wurden nicht gespeichert. "
            + "Bitte beginnen Sie erneut.")

    public static let french = ScreenTexts(
        language: "fr",
        next: "Suivant",
        back: "Retour",
        yes: "Oui",
        no: "Non",
        confirmAnswers: "Confirmer les réponses",
        declineConsent: "Ne pas participer",
        declineWithdrawal: "Conserver mon consentement",
        cancel: "Annuler",
        changeName: "Modifier le nom",
        changeParticipantName: "Modifier le nom du participant",
        changeRepresentativeName: "Modifier le nom du représentant",
        changeWitnessName: "Modifier le nom du témoin",
        signOnPad: "Signer sur la tablette",
        clearSignature: "Effacer",
        confirmSignature: "Valider la signature",
        setPasscode: "Définir le code",
        finish: "Terminer",
        printCopy: "Imprimer ma copie",
        confirmWithdrawal: "Retirer mon consentement",
        doneTitle: "Prêt à terminer",
        doneMessageTemplate: "Votre consentement est complet. Touchez « {button} » pour l’enregistrer.",
        withdrawalDoneMessageTemplate: "Votre retrait est complet. Touchez « {button} » pour l’enregistrer.",
        completedTitle: "Merci",
        completedMessage:
            "Votre consentement a été enregistré. Veuillez indiquer au personnel de l’étude que vous avez terminé.",
        withdrawalCompletedMessage:
            "Votre retrait a été enregistré. Veuillez indiquer au personnel de l’étude que vous avez terminé.",
        declinedTitle: "Pas de participation",
        declinedMessage: "Vous avez choisi de ne pas participer. Rien de ce que vous avez saisi n’a été conservé.",
        withdrawalDeclinedTitle: "Consentement maintenu",
        withdrawalDeclinedMessage:
            "Votre consentement n’a pas été retiré. Rien de ce que vous avez saisi n’a été conservé.",
        cancelledTitle: "Annulé",
        cancelledMessage: "Cette session a été annulée. Rien de ce que vous avez saisi n’a été conservé.",
        expiredTitle: "Session terminée",
        expiredMessage:
            "Cette session s’est terminée faute d’activité. Rien de ce que vous avez saisi n’a été conservé. "
            + "Veuillez recommencer.")
}
