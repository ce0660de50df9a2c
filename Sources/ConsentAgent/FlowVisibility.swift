import AgentProtocol

/// What a connection sees of a flow it does not drive (Protocol/README.md §6, *Who sees what*).
///
/// The connection that started a flow drives it and sees everything the view model carries. Every other
/// connection (a staff monitor subscribed to `flow`, a second UI calling `flow.get`) sees the flow's progress
/// (study, language, step, page, texts, actions, eligibility `status`) but not the participant's eligibility
/// answers, which are health data ("has a pacemaker"): `answers` are all `null` and `answersWithheld` is true; nor
/// the comprehension screen's `chosen` (the wrong answer given), nor the optional elements' answers (whether
/// someone allows their samples to be stored is theirs to tell): each element's `answer` is absent and the part's
/// `answersWithheld` is true.
/// Names and signatures never appear in a view model, for anyone; a withdrawal's reason neither.
enum FlowVisibility {
    /// A flow reply or `flow.changed` data (`F`) as a connection that does not drive the flow sees it.
    static func withheld(_ flow: RPCValue) -> RPCValue {
        if case .object(var value) = flow, case .object(var view)? = value["view"],
            case .object(var optional)? = view["optional"], case .array(let elements)? = optional["elements"]
        {
            optional["elements"] = .array(
                elements.map { element in
                    guard case .object(var members) = element else { return element }
                    members["answer"] = nil
                    return .object(members)
                })
            optional["answersWithheld"] = .bool(true)
            view["optional"] = .object(optional)
            value["view"] = .object(view)
            return .object(value)
        }
        // The comprehension screen's wrong choice is the participant's answer too: another connection sees that the
        // explanation is shown, not what was chosen.
        if case .object(var value) = flow, case .object(var view)? = value["view"],
            case .object(var comprehension)? = view["comprehension"], comprehension["chosen"] != nil
        {
            comprehension["chosen"] = nil
            view["comprehension"] = .object(comprehension)
            value["view"] = .object(view)
            return .object(value)
        }
        guard case .object(var value) = flow, case .object(var view)? = value["view"],
            case .object(var eligibility)? = view["eligibility"], case .array(let answers)? = eligibility["answers"]
        else { return flow }
        eligibility["answers"] = .array(Array(repeating: .null, count: answers.count))
        eligibility["answersWithheld"] = .bool(true)
        view["eligibility"] = .object(eligibility)
        value["view"] = .object(view)
        return .object(value)
    }
}
