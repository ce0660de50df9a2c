import AgentProtocol

/// The params of the methods that name a flow and nothing else: `flow.get`, `flow.extend`, `copy.print`,
/// `staff.call`, `staff.answer` (`{flow}`; any other member is refused).
struct FlowParams {
    var flow: String

    init(_ params: [String: RPCValue]) throws {
        flow = try ParamsReader(params, allowed: ["flow"]).string("flow")
    }
}
