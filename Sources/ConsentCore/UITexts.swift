/// The words a kiosk UI shows around the flows, in one language: the start screen, the controls a UI adds itself
/// (learn more, the touch keyboard), the notices it shows between screens, and one sentence for each kind of error
/// a request can meet. `study.get` delivers them, so a UI holds no string table of its own: only what it must show
/// before the agent has answered at all (docs/UI-DEVELOPERS.md, "Texts").
///
/// Separate from `ScreenTexts` (the view model's labels and closing screens) because none of these belongs to a
/// step: the start screen and the notices come before and after a flow. Each language is one static table with every
/// member spelled out, so a missing translation is a compile error; a language without a table falls back to English,
/// as `BuiltInTexts` does.
public struct UITexts: Sendable, Hashable {
    /// The language of the table (a tag of `BuiltInTexts.supportedLanguages`), not necessarily the one asked for.
    public var language: String

    // The start screen.
    public var start: String
    /// The accessible name of the language picker.
    public var languagePicker: String
    /// The way to a withdrawal or re-consent of a consent given earlier (by its record number).
    public var existingRecord: String
    public var existingRecordText: String
    public var recordLabel: String
    public var recordPasscodeLabel: String
    public var withdraw: String
    public var reconsent: String
    public var back: String

    // Controls a UI adds to the steps.
    public var learnMore: String
    public var close: String
    public var startAgain: String
    public var keyShift: String
    public var keySpace: String
    public var keyErase: String

    // Notices between screens.
    /// While `flow.complete` writes a consent's record.
    public var saving: String
    /// While `flow.complete` writes a withdrawal's record: `saving` speaks of a consent being saved, which would
    /// tell a participant who is withdrawing the opposite of what happens.
    public var savingWithdrawal: String
    public var reconnecting: String
    /// The flow is gone (the agent restarted, or another client ended it).
    public var interrupted: String
    /// The flow ended after the inactivity timeout (`flow.expired`).
    public var expired: String
    /// The participant's copy (`copy.print`, or printed without asking): sent to the printer, printed, or not.
    public var copyPrinting: String
    public var copyPrinted: String
    public var copyFailed: String

    // Read-aloud and time to think.
    /// The control that reads the screen aloud (`speech.get`), and the one that stops it.
    public var listen: String
    public var stopListening: String
    /// The warning before the inactivity wipe (`flow.expiring`): its title, its sentence (`{seconds}` is replaced by
    /// the seconds left, counting down), and the control that asks for more time (`flow.extend`).
    public var expiringTitle: String
    public var expiring: String
    public var moreTime: String

    public var errors: ErrorSentences

    /// One participant-facing sentence per kind of error; the agent maps every error type to one of them.
    public struct ErrorSentences: Sendable, Hashable {
        /// Anything the participant cannot act on but a retry may mend.
        public var tryAgain: String
        /// A kiosk set up wrongly (no record maker, a capability missing, a malformed request): staff must act.
        public var askStaff: String
        public var busy: String
        public var restarting: String
        public var unknownLanguage: String
        public var notEligible: String
        public var invalidAnswers: String
        public var missingName: String
        public var invalidField: String
        public var invalidPasscode: String
        public var missingSignature: String
        public var noCapture: String
        /// `PrinterUnavailable`, `PrintFailed`: the copy was not printed; staff can print it.
        public var copyNotPrinted: String
        /// `SpeechUnavailable`: read-aloud cannot speak now.
        public var speechUnavailable: String
        public var signatureTooShort: String
        public var noPad: String
        public var padBusy: String
        public var flowExpired: String
        public var flowFinished: String
        public var recordFailed: String
        public var unknownRecord: String
        public var notAConsent: String
        public var alreadyWithdrawn: String
        public var passcodeRequired: String
        /// A passcode was typed for a consent given without one: perhaps the record number is someone else's.
        public var passcodeNotSet: String
        public var wrongPasscode: String
        public var passcodeLocked: String
        public var studyUnchanged: String
    }
}

extension UITexts: LanguageTable {
    public static let english = UITexts(
        language: "en",
        start: "Begin",
        languagePicker: "Language",
        existingRecord: "Withdraw or Renew a Consent",
        existingRecordText:
            "Enter the record number of the consent you gave (it is on your copy, or ask staff). "
            + "If you set a passcode, enter it too.",
        recordLabel: "Record number",
        recordPasscodeLabel: "Passcode (if you set one)",
        withdraw: ScreenTexts.english.confirmWithdrawal,
        reconsent: "Sign the New Version",
        back: ScreenTexts.english.back,
        learnMore: BuiltInTexts.english.learnMore,
        close: "Close",
        startAgain: "Start Again",
        keyShift: "Shift",
        keySpace: "Space",
        keyErase: "Erase",
        saving: "Saving your consent…",
        savingWithdrawal: "Saving your withdrawal…",
        reconnecting: "The consent service is restarting. Please wait…",
        interrupted: "The consent was interrupted. Please start again.",
        expired: "The consent was stopped after a time without activity. Please start again.",
        copyPrinting: "Your copy is printing…",
        copyPrinted: "Your copy is printed. Please take it from the printer.",
        copyFailed: "Your copy could not be printed. Please ask staff for your copy.",
        listen: "Listen",
        stopListening: "Stop Reading",
        expiringTitle: "Do you need more time?",
        expiring:
            "To protect your privacy, this consent will be closed and what you entered erased in {seconds} seconds.",
        moreTime: "I need more time",
        errors: ErrorSentences(
            tryAgain: "Something went wrong. Please try again or ask staff.",
            askStaff: "The kiosk cannot do this. Please ask staff.",
            busy: "The kiosk is busy. Please try again in a moment.",
            restarting: "The consent service is restarting. Please wait…",
            unknownLanguage: "This language is not available.",
            notEligible: "Please answer every question first.",
            invalidAnswers: "Please answer every question.",
            missingName: "Please enter both names.",
            invalidField: "Please check the text you entered.",
            invalidPasscode: "The code must be 4 to 8 digits.",
            missingSignature: "Please sign first.",
            noCapture: "Please sign in the box first.",
            copyNotPrinted: "Your copy could not be printed. Please ask staff for your copy.",
            speechUnavailable: "Reading aloud is not available right now. Please ask staff.",
            signatureTooShort: "The signature is too short. Please sign again.",
            noPad: "No signature pad is ready. Please sign on the screen.",
            padBusy: "The signature pad is in use. Please sign on the screen.",
            flowExpired: "The consent was stopped after a time without activity.",
            flowFinished: "This consent has ended.",
            recordFailed: "The consent could not be saved. Please tap again.",
            unknownRecord: "No consent has this record number. Please check it.",
            notAConsent: "This record is a withdrawal, not a consent.",
            alreadyWithdrawn: "This consent has already been withdrawn.",
            passcodeRequired: "This consent is protected by a passcode. Please enter it.",
            passcodeNotSet:
                "This consent was given without a passcode. Please check the record number; if it is right, leave "
                + "the passcode empty.",
            wrongPasscode: "The passcode is not correct.",
            passcodeLocked: "Too many wrong passcodes. Please try again in 15 minutes or ask staff.",
            studyUnchanged: "This consent is for the current version of the study: there is nothing new to sign."))

    /// German, formal address ("Sie"), as `BuiltInTexts.german`.
    public static let german = UITexts(
        language: "de",
        start: "Beginnen",
        languagePicker: "Sprache",
        existingRecord: "Einwilligung widerrufen oder erneuern",
        existingRecordText:
            "Geben Sie die Datensatznummer Ihrer Einwilligung ein (sie steht auf Ihrer Kopie, oder fragen Sie das "
            + "Personal). Wenn Sie einen Code festgelegt haben, geben Sie ihn ebenfalls ein.",
        recordLabel: "Datensatznummer",
        recordPasscodeLabel: "Code (falls festgelegt)",
        withdraw: ScreenTexts.german.confirmWithdrawal,
        reconsent: "Neue Fassung unterschreiben",
        back: ScreenTexts.german.back,
        learnMore: BuiltInTexts.german.learnMore,
        close: "Schließen",
        startAgain: "Neu beginnen",
        keyShift: "Umschalt",
        keySpace: "Leerzeichen",
        keyErase: "Löschen",
        saving: "Ihre Einwilligung wird gespeichert…",
        savingWithdrawal: "Ihr Widerruf wird gespeichert…",
        reconnecting: "Der Einwilligungsdienst startet neu. Bitte warten…",
        interrupted: "Die Einwilligung wurde unterbrochen. Bitte beginnen Sie neu.",
        expired: "Die Einwilligung wurde nach längerer Inaktivität beendet. Bitte beginnen Sie neu.",
        copyPrinting: "Ihre Kopie wird gedruckt…",
        copyPrinted: "Ihre Kopie ist gedruckt. Bitte nehmen Sie sie am Drucker.",
        copyFailed: "Ihre Kopie konnte nicht gedruckt werden. Bitte fragen Sie das Personal nach Ihrer Kopie.",
        listen: "Vorlesen",
        stopListening: "Vorlesen beenden",
        expiringTitle: "Brauchen Sie mehr Zeit?",
        expiring:
            "Zum Schutz Ihrer Privatsphäre wird diese Einwilligung in {seconds} Sekunden geschlossen und Ihre Eingaben "
            + "werden gelöscht.",
        moreTime: "Ich brauche mehr Zeit",
        errors: ErrorSentences(
            tryAgain: "Etwas ist schiefgegangen. Bitte versuchen Sie es erneut oder fragen Sie das Personal.",
            askStaff: "Der Kiosk kann das nicht. Bitte wenden Sie sich an das Personal.",
            busy: "Der Kiosk ist beschäftigt. Bitte versuchen Sie es gleich noch einmal.",
            restarting: "Der Einwilligungsdienst startet neu. Bitte warten…",
            unknownLanguage: "Diese Sprache ist nicht verfügbar.",
            notEligible: "Bitte beantworten Sie zuerst alle Fragen.",
            invalidAnswers: "Bitte beantworten Sie alle Fragen.",
            missingName: "Bitte geben Sie beide Namen ein.",
            invalidField: "Bitte prüfen Sie Ihre Eingabe.",
            invalidPasscode: "Der Code muss 4 bis 8 Ziffern haben.",
            missingSignature: "Bitte unterschreiben Sie zuerst.",
            noCapture: "Bitte unterschreiben Sie zuerst im Feld.",
            copyNotPrinted: "Ihre Kopie konnte nicht gedruckt werden. Bitte fragen Sie das Personal nach Ihrer Kopie.",
            speechUnavailable: "Vorlesen ist gerade nicht möglich. Bitte fragen Sie das Personal.",
            signatureTooShort: "Die Unterschrift ist zu kurz. Bitte unterschreiben Sie erneut.",
            noPad: "Kein Unterschriftenpad ist bereit. Bitte unterschreiben Sie auf dem Bildschirm.",
            padBusy: "Das Unterschriftenpad ist belegt. Bitte unterschreiben Sie auf dem Bildschirm.",
            flowExpired: "Die Einwilligung wurde nach längerer Inaktivität beendet.",
            flowFinished: "Diese Einwilligung ist beendet.",
            recordFailed: "Die Einwilligung konnte nicht gespeichert werden. Bitte tippen Sie erneut.",
            unknownRecord: "Zu dieser Datensatznummer gibt es keine Einwilligung. Bitte prüfen Sie die Nummer.",
            notAConsent: "Dieser Datensatz ist ein Widerruf, keine Einwilligung.",
            alreadyWithdrawn: "Diese Einwilligung wurde bereits widerrufen.",
            passcodeRequired: "Diese Einwilligung ist durch einen Code geschützt. Bitte geben Sie ihn ein.",
            passcodeNotSet:
                "Diese Einwilligung wurde ohne Code gegeben. Bitte prüfen Sie die Nummer des Datensatzes; wenn sie "
                + "stimmt, lassen Sie den Code leer.",
            wrongPasscode: "Der Code ist nicht richtig.",
            passcodeLocked:
                "Zu viele falsche Codes. Bitte versuchen Sie es in 15 Minuten erneut oder fragen Sie das Personal.",
            studyUnchanged: "Diese Einwilligung gilt für die aktuelle Fassung der Studie: Es gibt nichts Neues zu unterschreiben."))

    /// French, formal address ("vous").
    public static let french = UITexts(
        language: "fr",
        start: "Commencer",
        languagePicker: "Langue",
        existingRecord: "Retirer ou renouveler un consentement",
        existingRecordText:
            "Saisissez le numéro de dossier de votre consentement (il figure sur votre copie, ou demandez au "
            + "personnel). Si vous avez défini un code d’accès, saisissez-le aussi.",
        recordLabel: "Numéro de dossier",
        recordPasscodeLabel: "Code d’accès (si vous en avez défini un)",
        withdraw: ScreenTexts.french.confirmWithdrawal,
        reconsent: "Signer la nouvelle version",
        back: ScreenTexts.french.back,
        learnMore: BuiltInTexts.french.learnMore,
        close: "Fermer",
        startAgain: "Recommencer",
        keyShift: "Maj",
        keySpace: "Espace",
        keyErase: "Effacer",
        saving: "Enregistrement de votre consentement…",
        savingWithdrawal: "Enregistrement de votre retrait…",
        reconnecting: "Le service de consentement redémarre. Veuillez patienter…",
        interrupted: "Le consentement a été interrompu. Veuillez recommencer.",
        expired: "Le consentement a été arrêté après une période d’inactivité. Veuillez recommencer.",
        copyPrinting: "Votre copie est en cours d’impression…",
        copyPrinted: "Votre copie est imprimée. Veuillez la prendre à l’imprimante.",
        copyFailed: "Votre copie n’a pas pu être imprimée. Veuillez demander votre copie au personnel.",
        listen: "Écouter",
        stopListening: "Arrêter la lecture",
        expiringTitle: "Avez-vous besoin de plus de temps ?",
        expiring:
            "Pour protéger votre vie privée, ce consentement sera fermé et vos saisies effacées dans {seconds} secondes.",
        moreTime: "J’ai besoin de plus de temps",
        errors: ErrorSentences(
            tryAgain: "Un problème est survenu. Veuillez réessayer ou demander au personnel.",
            askStaff: "Le kiosque ne peut pas faire cela. Veuillez demander au personnel.",
            busy: "Le kiosque est occupé. Veuillez réessayer dans un instant.",
            restarting: "Le service de consentement redémarre. Veuillez patienter…",
            unknownLanguage: "Cette langue n’est pas disponible.",
            notEligible: "Veuillez d’abord répondre à toutes les questions.",
            invalidAnswers: "Veuillez répondre à toutes les questions.",
            missingName: "Veuillez saisir les deux noms.",
            invalidField: "Veuillez vérifier votre saisie.",
            invalidPasscode: "Le code doit comporter 4 à 8 chiffres.",
            missingSignature: "Veuillez d’abord signer.",
            noCapture: "Veuillez d’abord signer dans le cadre.",
            copyNotPrinted: "Votre copie n’a pas pu être imprimée. Veuillez demander votre copie au personnel.",
            speechUnavailable: "La lecture à voix haute n’est pas disponible pour le moment. Veuillez demander au personnel.",
            signatureTooShort: "La signature est trop courte. Veuillez signer à nouveau.",
            noPad: "Aucune tablette de signature n’est prête. Veuillez signer sur l’écran.",
            padBusy: "La tablette de signature est occupée. Veuillez signer sur l’écran.",
            flowExpired: "Le consentement a été arrêté après une période d’inactivité.",
            flowFinished: "Ce consentement est terminé.",
            recordFailed: "Le consentement n’a pas pu être enregistré. Veuillez toucher à nouveau.",
            unknownRecord: "Aucun consentement ne porte ce numéro de dossier. Veuillez le vérifier.",
            notAConsent: "Ce dossier est un retrait, pas un consentement.",
            alreadyWithdrawn: "Ce consentement a déjà été retiré.",
            passcodeRequired: "Ce consentement est protégé par un code d’accès. Veuillez le saisir.",
            passcodeNotSet:
                "Ce consentement a été donné sans code d’accès. Veuillez vérifier le numéro du dossier ; s’il est "
                + "correct, laissez le code d’accès vide.",
            wrongPasscode: "Le code d’accès n’est pas correct.",
            passcodeLocked:
                "Trop de codes erronés. Veuillez réessayer dans 15 minutes ou demander au personnel.",
            studyUnchanged:
                "Ce consentement porte sur la version actuelle de l’étude : il n’y a rien de nouveau à signer."))
}
