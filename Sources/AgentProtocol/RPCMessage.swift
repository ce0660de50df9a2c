/// Builds the outbound envelopes: replies, error replies and notifications.
public enum RPCMessage {
    public static func result(id: RPCID, _ result: RPCValue) -> RPCValue {
        ["jsonrpc": "2.0", "id": id.value, "result": result]
    }

    /// An error reply; `id` is null when the request's id could not be read (invalid JSON, an over-long line).
    public static func error(id: RPCID?, _ error: RPCErrorObject) -> RPCValue {
        ["jsonrpc": "2.0", "id": id?.value ?? .null, "error": error.value]
    }

    public static func notification(_ name: EventName, _ params: RPCValue) -> RPCValue {
        ["jsonrpc": "2.0", "method": .string(name.rawValue), "params": params]
    }
}
