/// The words a kiosk UI shows around the flows, in one language: the start screen, the controls a UI adds itself
/// (learn more, the touch keyboard), the notices it shows between screens, and one sentence for each kind of error
/// a request can meet. `study.get` delivers them, so a UI holds no string table of its own: only what it must show
/// before the agent has answered at all (docs/UI-DEVELOPERS.md, "Texts").
///
/// Separate from `ScreenTexts` (the view model's labels and closing screens) because none of these belongs to a
/// step: the start screen and the notices come before and after a flow. Each language's table is in its language's
/// file (`KioskLanguagePack`), every member spelled out, so a missing translation is a compile error; a language without a table falls back to English,
/// as `BuiltInTexts` does.
public struct UITexts: Sendable, Hashable {
    /// The language of the table (a tag of `BuiltInTexts.supportedLanguages`), not necessarily the one asked for.
    public var language: String

    // The start screen.
    public var start: String
    /// The accessible name of the language picker.
    public var languagePicker: String
    /// The heading of the study introduction's pages on the start screen (`study.get` `introduction.pages`).
    public var introductionPages: String
    /// The way to a withdrawal or re-consent of a consent given earlier (by its record number).
    public var existingRecord: String
    public var existingRecordText: String
    public var recordLabel: String
    public var recordPasscodeLabel: String
    public var withdraw: String
    public var reconsent: String
    /// `flow.start {change}`: change the answers to the optional parts of that consent.
    public var change: String
    public var back: String
    /// The way back to a paused flow (`flow.start {resume}`): the control, the sentence, the code's label, and the
    /// control that sends it.
    public var resume: String
    public var resumeText: String
    public var resumeCodeLabel: String
    public var resumeGoOn: String

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
    /// While `flow.complete` writes a change of answers (`flow.start {change}`).
    public var savingChange: String
    public var reconnecting: String
    /// The flow is gone (the agent restarted, or another client ended it).
    public var interrupted: String
    /// The flow ended after the inactivity timeout (`flow.expired`).
    public var expired: String
    /// The participant's copy (`copy.print`, or printed without asking): sent to the printer, printed, or not.
    public var copyPrinting: String
    public var copyPrinted: String
    public var copyFailed: String
    /// The form to take home (`copy.printBlank`): the start screen's control, then sent to the printer, or not.
    public var printBlank: String
    public var blankPrinting: String
    public var blankFailed: String

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
        /// A change of answers: the record was changed already (the later record is the one to change), its
        /// study has no optional parts, or the study has a new version since (a re-consent is the way).
        public var alreadyAmended: String
        public var noOptionalElements: String
        public var studyChanged: String
        /// `UnknownResumeCode`: no paused flow has the code, or its day has passed.
        public var unknownResumeCode: String
    }
}
