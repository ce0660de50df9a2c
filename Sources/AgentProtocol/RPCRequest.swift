/// One request as read from a line: a checked envelope whose method may still be unknown.
public struct RPCRequest: Sendable, Hashable {
    public var id: RPCID
    /// The method name as sent; `Method(rawValue:)` tells whether the agent knows it.
    public var method: String
    /// The `params` object; an absent `params` is an empty object.
    public var params: [String: RPCValue]

    public init(id: RPCID, method: String, params: [String: RPCValue] = [:]) {
        self.id = id
        self.method = method
        self.params = params
    }
}
