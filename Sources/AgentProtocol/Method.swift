/// The methods of the protocol. Raw values are the wire names of Protocol/README.md: a contract, never derived
/// from Swift identifiers.
public enum Method: String, Sendable, Hashable, CaseIterable {
    case sessionNegotiate = "session.negotiate"
    case rpcDiscover = "rpc.discover"
    case sessionSync = "session.sync"
    case eventsSubscribe = "events.subscribe"
    case studyGet = "study.get"
    case studyAsset = "study.asset"
    case flowStart = "flow.start"
    case flowGet = "flow.get"
    case eligibilityAnswer = "eligibility.answer"
    case flowNext = "flow.next"
    case flowBack = "flow.back"
    case sharingChoose = "sharing.choose"
    case reviewAgree = "review.agree"
    case reviewDisagree = "review.disagree"
    case participantSetName = "participant.setName"
    case signerChoose = "signer.choose"
    case signerSetName = "signer.setName"
    case signatureBegin = "signature.begin"
    case signatureClear = "signature.clear"
    case signatureSubmit = "signature.submit"
    case passcodeSet = "passcode.set"
    case comprehensionAnswer = "comprehension.answer"
    case optionalAnswer = "optional.answer"
    case flowComplete = "flow.complete"
    case flowDecline = "flow.decline"
    case flowCancel = "flow.cancel"
    case padsList = "pads.list"
    case recordsGet = "records.get"
    case uploadsStatus = "uploads.status"
    case withdrawalConfirm = "withdrawal.confirm"
    case copyPrint = "copy.print"
    /// The consent form to take home, not signed, for reading only: before a flow or from its review document.
    case copyPrintBlank = "copy.printBlank"
    case printerStatus = "printer.status"
    case staffUnlock = "staff.unlock"
    case staffAttestIdentity = "staff.attestIdentity"
    case speechGet = "speech.get"
    case flowExtend = "flow.extend"
    /// "Ask a staff member" (`askStaff`): a member of staff is called to the kiosk for the flow.
    case staffCall = "staff.call"
    /// A member of staff came to the kiosk: the call is answered (a staff connection: capability `records`).
    case staffAnswer = "staff.answer"
    /// "I want to think about it" (`pause`): the flow's place and answers are sealed under a resume code.
    case flowPause = "flow.pause"

    /// Whether the method is accepted before `session.negotiate` succeeded (only the handshake itself and
    /// introspection; Protocol/README.md "Handshake").
    public var isAllowedBeforeNegotiation: Bool {
        self == .sessionNegotiate || self == .rpcDiscover
    }
}
