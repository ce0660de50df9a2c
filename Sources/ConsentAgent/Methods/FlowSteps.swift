import AgentProtocol
import ConsentCore

/// The methods that are one `ConsentAction` on a flow, with their params: `eligibility.answer`, `flow.next`,
/// `flow.back`, `sharing.choose`, `review.agree`, `review.disagree`, `flow.decline`, `flow.cancel`,
/// `withdrawal.confirm`, `participant.setName`, `signer.choose`, `signer.setName`, `passcode.set`, `comprehension.answer`, `optional.answer`. The consent
/// session decides whether the flow takes it (`AgentCore.apply`).
struct FlowActionParams {
    var flow: String
    var action: ConsentAction

    init(_ method: Method, _ params: [String: RPCValue]) throws {
        switch method {
        case .eligibilityAnswer:
            let reader = try ParamsReader(params, allowed: ["flow", "answers"])
            flow = try reader.string("flow")
            action = .answerEligibility(try reader.optionalBoolArray("answers"))
        case .flowNext, .flowBack:
            let reader = try ParamsReader(params, allowed: ["flow", "step"])
            flow = try reader.string("flow")
            let name = try reader.string("step")
            guard let step = ConsentStep(rawValue: name) else {
                throw RPCErrorObject.invalidParams(field: "step", "unknown step; Protocol/schemas/types/Step lists the steps")
            }
            action = method == .flowNext ? .next(step) : .back(step)
        case .sharingChoose:
            let reader = try ParamsReader(params, allowed: ["flow", "shareWidely"])
            flow = try reader.string("flow")
            action = .chooseSharing(shareWidely: try reader.bool("shareWidely"))
        case .reviewAgree, .reviewDisagree, .flowDecline, .flowCancel:
            flow = try ParamsReader(params, allowed: ["flow"]).string("flow")
            switch method {
            case .reviewAgree: action = .agree
            case .reviewDisagree: action = .disagree
            case .flowDecline: action = .decline
            default: action = .cancel
            }
        case .withdrawalConfirm:
            let reader = try ParamsReader(params, allowed: ["flow", "reason"])
            flow = try reader.string("flow")
            action = .confirmWithdrawal(reason: try reader.optionalString("reason"))
        case .participantSetName:
            let reader = try ParamsReader(params, allowed: ["flow", "given", "family"])
            flow = try reader.string("flow")
            let given = try reader.string("given")
            action = .setName(given: given, family: try reader.string("family"))
        case .signerChoose:
            let reader = try ParamsReader(params, allowed: ["flow", "signer"])
            flow = try reader.string("flow")
            action = .chooseSigner(try reader.role("signer", allowed: [.participant, .representative]))
        case .signerSetName:
            let reader = try ParamsReader(params, allowed: ["flow", "role", "given", "family", "relationship"])
            flow = try reader.string("flow")
            let role = try reader.role("role")
            let given = try reader.string("given")
            let family = try reader.string("family")
            action = .setSignerName(role, given: given, family: family, relationship: try reader.optionalString("relationship"))
        case .comprehensionAnswer:
            let reader = try ParamsReader(params, allowed: ["flow", "question", "choice"])
            flow = try reader.string("flow")
            let question = try reader.index("question")
            action = .answerComprehension(question: question, choice: try reader.index("choice"))
        case .optionalAnswer:
            let reader = try ParamsReader(params, allowed: ["flow", "answers"])
            flow = try reader.string("flow")
            guard case .object(let given)? = params["answers"] else {
                throw RPCErrorObject.invalidParams(
                    field: "answers", "must be an object of answers by optional element id ({\"<id>\": true, ...})")
            }
            var answers: [String: Bool] = [:]
            // Sorted, so the field a refusal names does not depend on the dictionary's order.
            for (id, value) in given.sorted(by: { $0.key < $1.key }) {
                guard case .bool(let answer) = value else {
                    throw RPCErrorObject.invalidParams(field: "answers.\(id.prefix(60))", "must be true (Yes) or false (No)")
                }
                answers[id] = answer
            }
            action = .answerOptional(answers)
        case .passcodeSet:
            let reader = try ParamsReader(params, allowed: ["flow", "passcode"])
            flow = try reader.string("flow")
            action = .setPasscode(try reader.string("passcode"))
        default:
            throw RPCErrorObject(code: RPCErrorCode.internalError, type: .internalError, message: "misrouted request")
        }
    }
}

extension ParamsReader {
    /// A 0-based index: a whole number from 0 to Int32.max (so it fits an `Int` everywhere).
    fileprivate func index(_ key: String) throws(RPCErrorObject) -> Int {
        let value = try integer(key)
        guard value >= 0, value <= Int64(Int32.max) else {
            throw RPCErrorObject.invalidParams(field: key, "must be a 0-based index (0 or more)")
        }
        return Int(value)
    }
}
