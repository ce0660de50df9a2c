import AgentProtocol

extension FlowContext {
    /// A flow as it stands; for a flow completed before a restart whose reply was lost, `FlowFinished` with its record.
    func getFlow(_ params: FlowParams) throws -> RPCValue {
        guard let entry = flows[params.flow] else {
            if let record = keptBeforeRestart[params.flow] {
                // Its reply was lost to a stop; the record is whole, so the UI must not ask for a second consent.
                throw RPCErrorObject.domain(
                    .flowFinished, "the flow was completed before the agent restarted; data.record is its record",
                    details: ["record": .string(record)])
            }
            throw AgentError(.unknownFlow, "no flow has this id")
        }
        return flowValue(params.flow, entry)
    }
}
