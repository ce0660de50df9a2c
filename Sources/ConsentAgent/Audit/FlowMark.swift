import AuditTrail
import ConsentCore

/// Where a flow stood before an action: enough to tell which step it reached and where it ended.
struct FlowMark: Sendable, Hashable {
    var step: ConsentStep
    var page: ReviewPage
    var scene: Int

    init(_ session: ConsentSession) {
        step = session.step
        page = session.reviewPage
        scene = session.sceneIndex
    }

    /// The audit trail's name for the step (review pages count as steps there); nil once the flow has ended.
    var auditStep: (step: AuditStep, index: Int?)? {
        switch step {
        case .withdrawal: return (.withdrawal, nil)
        case .changes: return (.changes, nil)
        case .eligibility: return (.eligibility, nil)
        case .keyInformation: return (.keyInformation, nil)
        case .visual: return (.visual, scene)
        case .sharing: return (.sharing, nil)
        case .optional: return (.optional, nil)
        case .reviewStep:
            switch page {
            case .document: return (.reviewDocument, nil)
            case .name: return (.reviewName, nil)
            case .signature: return (.reviewSignature, nil)
            case .signer: return (.reviewSigner, nil)
            case .representative: return (.reviewRepresentative, nil)
            case .witness: return (.reviewWitness, nil)
            case .witnessSignature: return (.reviewWitnessSignature, nil)
            }
        case .comprehension: return (.comprehension, nil)
        case .passcode: return (.passcode, nil)
        case .staff: return (.staff, nil)
        case .done: return (.done, nil)
        case .completed, .ineligible, .declined, .expired, .cancelled, .paused: return nil
        }
    }
}
