import AgentProtocol
import ConsentCore
import Logging
import SignaturePad

/// The one place where domain errors become wire errors.
///
/// Every domain code maps to `-32000` plus a stable `data.type` from Protocol/errors.json. Anything unknown
/// becomes `-32603`, logged with the request id and the error's type only (an error's text might carry PHI
/// from a component we do not control). When ConsentSigning or ConsentPDF are wired in, their error codes get a
/// case here.
enum RPCErrorMapping {
    private static let core: [ConsentCoreError.Code: RPCErrorType] = [
        .stepMismatch: .stepMismatch,
        .invalidAction: .invalidAction,
        .invalidAnswers: .invalidAnswers,
        .notEligible: .notEligible,
        .missingName: .missingName,
        .missingSignature: .missingSignature,
        .invalidPasscode: .invalidPasscode,
        .flowFinished: .flowFinished,
        .invalidField: .invalidField,
        .staffNotUnlocked: .staffNotUnlocked,
    ]

    private static let agent: [AgentError.Code: RPCErrorType] = [
        .unknownStudy: .unknownStudy,
        .unknownLanguage: .unknownLanguage,
        .unknownFlow: .unknownFlow,
        .flowBusy: .flowBusy,
        .flowDrivenElsewhere: .flowDrivenElsewhere,
        .noPad: .noPad,
        .padBusy: .padBusy,
        .noCapture: .noCapture,
        .signatureTooShort: .signatureTooShort,
        .noRecordMaker: .noRecordMaker,
        .recordFailed: .recordFailed,
        .unknownRecord: .unknownRecord,
        .shuttingDown: .shuttingDown,
        .overloaded: .overloaded,
        .recordInvalid: .recordInvalid,
        .notAConsent: .notAConsent,
        .alreadyWithdrawn: .alreadyWithdrawn,
        .passcodeRequired: .passcodeRequired,
        .passcodeNotSet: .passcodeNotSet,
        .wrongPasscode: .wrongPasscode,
        .passcodeLocked: .passcodeLocked,
        .studyUnchanged: .studyUnchanged,
        .alreadyAmended: .alreadyAmended,
        .noOptionalElements: .noOptionalElements,
        .studyChanged: .studyChanged,
        .unknownResumeCode: .unknownResumeCode,
        .wrongStaffPin: .wrongStaffPin,
        .staffLocked: .staffLocked,
    ]

    /// The pad modules' errors (thrown through `LinuxPadProvider`). Their messages state the fault and the remedy
    /// without PHI, so they go to the client as they are (a too-short signature says why: a dot, too little ink).
    /// `ioFailure` and `malformedRecording` stay internal errors: the client can do nothing about them.
    private static let pad: [SignaturePadError.Code: RPCErrorType] = [
        .noPad: .noPad,
        .permissionDenied: .noPad,
        .deviceGone: .noPad,
        .notAnInputDevice: .noPad,
        .noAxes: .noPad,
        .udevUnavailable: .noPad,
        .captureAlreadyActive: .padBusy,
        .captureNotActive: .noCapture,
        .signatureTooShort: .signatureTooShort,
        .emptySignature: .signatureTooShort,
    ]

    /// - Parameters:
    ///   - step: the flow's step after the failure, so a refused action on an expired flow says `FlowExpired`.
    static func wireError(
        for error: any Error, step: ConsentStep? = nil, requestID: RPCID, logger: Logger
    ) -> RPCErrorObject {
        switch error {
        case let error as RPCErrorObject:
            return error
        case let error as ConsentCoreError:
            if error.code == .flowFinished, step == .expired {
                return .domain(.flowExpired, "the flow expired without activity; start a new one")
            }
            if let type = core[error.code] {
                var details: [String: RPCValue] = [:]
                if let step { details["step"] = .string(step.rawValue) }
                return .domain(type, error.message, details: details)
            }
        case let error as AgentError:
            if let type = agent[error.code] { return .domain(type, error.message) }
        case let error as SignaturePadError:
            if let type = pad[error.code] { return .domain(type, error.message) }
        default:
            break
        }
        logger.error("internal error", metadata: ["request": "\(requestID)", "error": "\(type(of: error))"])
        return RPCErrorObject(
            code: RPCErrorCode.internalError, type: .internalError,
            message: "the agent failed to handle the request; see its log")
    }
}
