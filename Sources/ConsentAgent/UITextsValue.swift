import AgentProtocol
import ConsentCore

/// `study.get`'s `texts`: a language's `UITexts` as the protocol carries them (Protocol/README.md, "UI texts"),
/// with a sentence for every error type, so a UI shows any error in words without a table of its own.
enum UITextsValue {
    static func value(_ texts: UITexts) -> RPCValue {
        var errors: [String: RPCValue] = [:]
        for type in RPCErrorType.allCases { errors[type.rawValue] = .string(sentence(for: type, in: texts)) }
        return [
            "language": .string(texts.language),
            "start": .string(texts.start), "languagePicker": .string(texts.languagePicker),
            "introductionPages": .string(texts.introductionPages),
            "existingRecord": .string(texts.existingRecord), "existingRecordText": .string(texts.existingRecordText),
            "recordLabel": .string(texts.recordLabel), "recordPasscodeLabel": .string(texts.recordPasscodeLabel),
            "withdraw": .string(texts.withdraw), "reconsent": .string(texts.reconsent), "change": .string(texts.change),
            "back": .string(texts.back),
            "resume": .string(texts.resume), "resumeText": .string(texts.resumeText),
            "resumeCodeLabel": .string(texts.resumeCodeLabel), "resumeGoOn": .string(texts.resumeGoOn),
            "learnMore": .string(texts.learnMore), "close": .string(texts.close), "startAgain": .string(texts.startAgain),
            "keys": [
                "shift": .string(texts.keyShift), "space": .string(texts.keySpace), "erase": .string(texts.keyErase),
                "layout": .string(texts.display.keyboardLayout),
                "letters": .array(texts.display.letters.map { row in .array(row.map { .string($0) }) }),
            ],
            "display": display(texts.display),
            "saving": .string(texts.saving), "savingWithdrawal": .string(texts.savingWithdrawal),
            "savingChange": .string(texts.savingChange),
            "reconnecting": .string(texts.reconnecting),
            "interrupted": .string(texts.interrupted), "expired": .string(texts.expired),
            "copyPrinting": .string(texts.copyPrinting), "copyPrinted": .string(texts.copyPrinted),
            "copyFailed": .string(texts.copyFailed),
            "printBlank": .string(texts.printBlank),
            "blankPrinting": .string(texts.blankPrinting),
            "blankFailed": .string(texts.blankFailed),
            "listen": .string(texts.listen), "stopListening": .string(texts.stopListening),
            "expiringTitle": .string(texts.expiringTitle), "expiring": .string(texts.expiring),
            "moreTime": .string(texts.moreTime),
            "errors": .object(errors),
        ]
    }

    /// The display controls' words and sizes (`texts.display`; the keyboard's letters are in `texts.keys`).
    static func display(_ display: DisplayTexts) -> RPCValue {
        [
            "textSize": .string(display.textSize), "contrast": .string(display.contrast),
            "sizes": .array(display.sizes.map { ["percent": .integer(Int64($0.percent)), "name": .string($0.name)] }),
        ]
    }

    /// The sentence a participant reads for an error. A switch without `default`, so a new error type does not
    /// compile until it has one.
    static func sentence(for type: RPCErrorType, in texts: UITexts) -> String {
        let errors = texts.errors
        return switch type {
        // A client or a kiosk set up wrongly: nothing the participant can mend.
        case .parseError, .invalidRequest, .lineTooLong, .methodNotFound, .invalidParams, .notNegotiated,
            .alreadyNegotiated, .unsupportedVersion, .peerRefused, .capabilityNotGranted, .unknownStudy,
            .unknownAsset, .assetTooLarge, .noRecordMaker, .recordInvalid, .invalidStrokes, .flowDrivenElsewhere,
            // The study is not approved here (the reason is the error's message, for the staff notice).
            .studyNotApproved:
            errors.askStaff
        case .internalError, .stepMismatch, .invalidAction: errors.tryAgain
        case .overloaded, .flowBusy: errors.busy
        case .shuttingDown: errors.restarting
        case .unknownLanguage: errors.unknownLanguage
        // The agent restarted (flows are not kept) or the flow was forgotten after it ended.
        case .unknownFlow: texts.interrupted
        case .flowFinished: errors.flowFinished
        case .flowExpired: errors.flowExpired
        case .invalidAnswers: errors.invalidAnswers
        case .notEligible: errors.notEligible
        case .missingName: errors.missingName
        case .missingSignature: errors.missingSignature
        case .invalidPasscode: errors.invalidPasscode
        case .invalidField: errors.invalidField
        case .noPad: errors.noPad
        case .padBusy: errors.padBusy
        case .noCapture: errors.noCapture
        case .signatureTooShort: errors.signatureTooShort
        case .recordFailed: errors.recordFailed
        case .unknownRecord: errors.unknownRecord
        case .notAConsent: errors.notAConsent
        case .alreadyWithdrawn: errors.alreadyWithdrawn
        case .passcodeRequired: errors.passcodeRequired
        case .passcodeNotSet: errors.passcodeNotSet
        case .wrongPasscode: errors.wrongPasscode
        case .passcodeLocked: errors.passcodeLocked
        case .studyUnchanged: errors.studyUnchanged
        case .alreadyAmended: errors.alreadyAmended
        case .noOptionalElements: errors.noOptionalElements
        case .studyChanged: errors.studyChanged
        case .unknownResumeCode: errors.unknownResumeCode
        case .printerUnavailable, .printFailed: errors.copyNotPrinted
        case .wrongStaffPin: StaffTexts(language: texts.language).wrongPin
        case .staffLocked: StaffTexts(language: texts.language).locked
        case .staffNotUnlocked: StaffTexts(language: texts.language).notUnlocked
        case .speechUnavailable: errors.speechUnavailable
        // A UI asked for a part its screen does not have: nothing the participant can mend.
        case .unknownPart: errors.askStaff
        }
    }
}
