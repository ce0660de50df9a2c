/// The stable names carried in `error.data.type`: the contract clients switch on (Protocol/errors.json).
///
/// Raw values are the wire names, written out so that renaming a case can never change the protocol.
public enum RPCErrorType: String, Sendable, Hashable, CaseIterable {
    // Protocol faults.
    case parseError = "ParseError"
    case invalidRequest = "InvalidRequest"
    case lineTooLong = "LineTooLong"
    case methodNotFound = "MethodNotFound"
    case invalidParams = "InvalidParams"
    case internalError = "InternalError"
    case notNegotiated = "NotNegotiated"
    case alreadyNegotiated = "AlreadyNegotiated"
    case unsupportedVersion = "UnsupportedVersion"
    case overloaded = "Overloaded"
    case shuttingDown = "ShuttingDown"
    /// The connecting user or group is not in `allowedPeers`; the one line a refused peer gets before the close.
    case peerRefused = "PeerRefused"
    /// The request needs a capability the connection did not negotiate (`data.capability` names it).
    case capabilityNotGranted = "CapabilityNotGranted"
    // The consent flow.
    case unknownStudy = "UnknownStudy"
    case unknownLanguage = "UnknownLanguage"
    /// `study.asset`: no image the study uses has this name.
    case unknownAsset = "UnknownAsset"
    /// `study.asset`: the image is larger than a UI can be sent (`data.maximum`).
    case assetTooLarge = "AssetTooLarge"
    case unknownFlow = "UnknownFlow"
    case stepMismatch = "StepMismatch"
    case invalidAction = "InvalidAction"
    case invalidAnswers = "InvalidAnswers"
    case notEligible = "NotEligible"
    case missingName = "MissingName"
    case missingSignature = "MissingSignature"
    case invalidPasscode = "InvalidPasscode"
    case invalidField = "InvalidField"
    case flowFinished = "FlowFinished"
    case flowExpired = "FlowExpired"
    case flowBusy = "FlowBusy"
    /// Another connection drives the flow: this one may observe it, not act on it.
    case flowDrivenElsewhere = "FlowDrivenElsewhere"
    // Signature capture.
    case noPad = "NoPad"
    case padBusy = "PadBusy"
    case noCapture = "NoCapture"
    case signatureTooShort = "SignatureTooShort"
    case invalidStrokes = "InvalidStrokes"
    // Records.
    case noRecordMaker = "NoRecordMaker"
    case recordFailed = "RecordFailed"
    case unknownRecord = "UnknownRecord"
    // Withdrawal and re-consent.
    case recordInvalid = "RecordInvalid"
    case notAConsent = "NotAConsent"
    case alreadyWithdrawn = "AlreadyWithdrawn"
    case passcodeRequired = "PasscodeRequired"
    case passcodeNotSet = "PasscodeNotSet"
    case wrongPasscode = "WrongPasscode"
    case passcodeLocked = "PasscodeLocked"
    case studyUnchanged = "StudyUnchanged"
    // Changes of answers to optional elements.
    /// `flow.start {change}`: another change amended the record already (`records.get` names it in `amendedBy`).
    case alreadyAmended = "AlreadyAmended"
    /// `flow.start {change}`: the record's study has no optional elements.
    case noOptionalElements = "NoOptionalElements"
    /// `flow.start {change}`: the study served is another version than the record was signed for.
    case studyChanged = "StudyChanged"
    // Pausing and coming back.
    /// `flow.start {resume}`: no paused flow has the code, or its day (`resumeDays`) has passed.
    case unknownResumeCode = "UnknownResumeCode"
    // Study approvals.
    /// `flow.start`: the study has no valid, unexpired approval for this kiosk's site and the flow's language.
    case studyNotApproved = "StudyNotApproved"
    // The participant's copy.
    /// `copy.print`: the printer is unknown, unreachable, stopped or refusing jobs (`data.state`, `data.reason`).
    case printerUnavailable = "PrinterUnavailable"
    /// `copy.print`: CUPS did not take the job (`data.state`, its IPP status keyword).
    case printFailed = "PrintFailed"
    // The person obtaining consent.
    /// `staff.unlock`: the staff id or PIN is not correct (an unknown id is not told apart from a wrong PIN).
    case wrongStaffPin = "WrongStaffPin"
    /// `staff.unlock`: five wrong PINs locked the staff id for a while (`data.until`, when known).
    case staffLocked = "StaffLocked"
    /// `staff.attestIdentity` (or the staff signature) before `staff.unlock`.
    case staffNotUnlocked = "StaffNotUnlocked"
    // Read-aloud.
    /// `speech.get`: the kiosk cannot speak (no voice for the flow's language, or the speech engine failed).
    case speechUnavailable = "SpeechUnavailable"
    /// `speech.get`: the screen has no such part (no learn-more page, no document, a section or chunk past the end).
    case unknownPart = "UnknownPart"
}
