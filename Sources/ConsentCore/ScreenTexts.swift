import Foundation

/// The kiosk's texts for its controls and its closing screens, in one language: what `StepViewModel.labels` and
/// `StepViewModel.end` carry, so a UI needs no string table of its own.
///
/// Separate from `BuiltInTexts` (C3-PRO's and ResearchKit's texts) because ResearchKit draws these itself on a
/// phone; a kiosk UI gets them from the agent. Each language's table is in its language's file
/// (`KioskLanguagePack`), every member spelled out, so a missing translation is a compile error. `{button}` in a template is the label of the control it names.
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
    /// `printBlank`: the consent form, not signed, to take home and read (the review document offers it).
    public var printBlank: String
    /// `askStaff`: calls a member of staff to the kiosk (`staff.call`), on every participant screen.
    public var askStaff: String
    /// `view.staffCall.text`: what the participant sees while the member of staff they called is on the way.
    public var staffCalled: String
    /// `pause`: "I want to think about it" (`flow.pause`), before the signature.
    public var pause: String
    public var confirmWithdrawal: String

    // Closing screens.
    public var doneTitle: String
    public var doneMessageTemplate: String
    public var withdrawalDoneMessageTemplate: String
    /// A change of answers to the optional elements (`flow.start {change}`): what is saved is the changed choices,
    /// not a consent.
    public var changeDoneMessageTemplate: String
    public var completedTitle: String
    public var completedMessage: String
    public var withdrawalCompletedMessage: String
    public var changeCompletedMessage: String
    public var declinedTitle: String
    public var declinedMessage: String
    public var withdrawalDeclinedTitle: String
    public var withdrawalDeclinedMessage: String
    public var cancelledTitle: String
    public var cancelledMessage: String
    public var expiredTitle: String
    public var expiredMessage: String
    /// A paused flow's screen (`paused`): its title and message, the code's label, and the sentence naming the day
    /// the code works until (`{date}`).
    public var pausedTitle: String
    public var pausedMessage: String
    public var pausedCodeLabel: String
    public var pausedUntilTemplate: String
    /// On a kiosk with a printer: the slip with the code is printing.
    public var pausedSlip: String
    /// `view.resumed.text`: a resumed flow goes on where it stopped, or starts over with the study's new version.
    public var resumedContinued: String
    public var resumedStartedOver: String

    public func pausedUntil(date: String) -> String { Placeholder.fill(pausedUntilTemplate, [.date: date]) }

    /// What a flow's record is, for the closing screens' words: a consent (or re-consent), a withdrawal, a change.
    public enum Saved: Sendable {
        case consent, withdrawal, change
    }

    public func doneMessage(button: String, saving: Saved) -> String {
        let template = switch saving {
        case .consent: doneMessageTemplate
        case .withdrawal: withdrawalDoneMessageTemplate
        case .change: changeDoneMessageTemplate
        }
        return Placeholder.fill(template, [.button: button])
    }

    public func completedMessage(saved: Saved) -> String {
        switch saved {
        case .consent: completedMessage
        case .withdrawal: withdrawalCompletedMessage
        case .change: changeCompletedMessage
        }
    }
}
