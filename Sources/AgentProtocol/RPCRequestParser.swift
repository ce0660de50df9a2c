import NIOCore

/// Checks one line against the JSON-RPC 2.0 profile of Protocol/README.md and yields a request or the error to send.
///
/// The profile: an object (no batches), `"jsonrpc": "2.0"`, an `id` that is a string or an integer, a string
/// `method`, `params` absent or an object, and no other members. A failure carries the id when one could be
/// read, so the client can still correlate the error.
public enum RPCRequestParser {
    public struct Failure: Error, Sendable, Hashable {
        public var id: RPCID?
        public var error: RPCErrorObject

        public init(id: RPCID?, error: RPCErrorObject) {
            self.id = id
            self.error = error
        }
    }

    private static let envelopeKeys: Set<String> = ["jsonrpc", "id", "method", "params"]

    public static func parse(_ line: ByteBuffer) -> Result<RPCRequest, Failure> {
        let value: RPCValue
        do {
            value = try RPCValue.parse(line.readableBytesView)
        } catch {
            return .failure(Failure(id: nil, error: RPCErrorObject(
                code: RPCErrorCode.parseError, type: .parseError, message: "the line is not valid JSON")))
        }
        return parse(value)
    }

    public static func parse(_ value: RPCValue) -> Result<RPCRequest, Failure> {
        func invalid(_ id: RPCID?, _ message: String) -> Result<RPCRequest, Failure> {
            .failure(Failure(id: id, error: RPCErrorObject(code: RPCErrorCode.invalidRequest, type: .invalidRequest, message: message)))
        }
        guard case .object(let members) = value else {
            if case .array = value { return invalid(nil, "batches are not supported; send one request per line") }
            return invalid(nil, "a request must be a JSON object")
        }
        guard let rawID = members["id"] else {
            return invalid(nil, "the request has no id; every request needs a string or integer id")
        }
        guard let id = RPCID(rawID) else {
            // JSON allows any integer, this agent echoes ids exactly: so the range is Int64's. Beyond it the
            // parser has only a Double, and echoing that would hand the client back an id it never sent.
            if case .number(let n) = rawID, n == n.rounded(.towardZero), n.magnitude >= 0x1p63 {
                return invalid(nil, RPCID.outOfRangeMessage)
            }
            return invalid(nil, "the id must be a string or an integer")
        }
        guard members["jsonrpc"] == .string("2.0") else { return invalid(id, "\"jsonrpc\" must be \"2.0\"") }
        guard case .string(let method)? = members["method"] else { return invalid(id, "\"method\" must be a string") }
        if members.keys.contains(where: { !envelopeKeys.contains($0) }) {
            // Never repeats the member's name: it is the client's text.
            return invalid(id, "the request envelope has an unknown member; only jsonrpc, id, method and params are allowed")
        }
        switch members["params"] {
        case nil:
            return .success(RPCRequest(id: id, method: method))
        case .object(let params)?:
            return .success(RPCRequest(id: id, method: method, params: params))
        case .some:
            return .failure(Failure(id: id, error: .invalidParams(field: "params", "params must be an object")))
        }
    }
}
