import AgentProtocol

extension PadContext {
    /// `pads.list` (no params): the connected, usable signature pads.
    func padsList(_: NoParams) async throws -> RPCValue {
        ["pads": try RPCValue(encoding: await pads.pads())]
    }
}
