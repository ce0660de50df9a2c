/// The JSON-RPC error codes the agent uses: the standard protocol faults and one application code.
///
/// Domain errors all share `-32000` and are told apart by `data.type` (`RPCErrorType`), so clients never parse
/// `message` (the QMP `GenericError` lesson).
public enum RPCErrorCode {
    public static let parseError: Int64 = -32700
    public static let invalidRequest: Int64 = -32600
    public static let methodNotFound: Int64 = -32601
    public static let invalidParams: Int64 = -32602
    public static let internalError: Int64 = -32603
    public static let domainError: Int64 = -32000
}
