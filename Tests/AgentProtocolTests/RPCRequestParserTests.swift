import AgentProtocol
import NIOCore
import Testing

@Suite struct RPCRequestParserTests {
    private func parse(_ s: String) -> Result<RPCRequest, RPCRequestParser.Failure> {
        RPCRequestParser.parse(ByteBuffer(string: s))
    }

    @Test func validRequests() throws {
        let a = try parse(#"{"jsonrpc":"2.0","id":7,"method":"flow.get","params":{"flow":"f"}}"#).get()
        #expect(a == RPCRequest(id: .integer(7), method: "flow.get", params: ["flow": "f"]))
        let b = try parse(#"{"jsonrpc":"2.0","id":"x","method":"session.sync"}"#).get()
        #expect(b.id == .string("x"))
        #expect(b.params.isEmpty)
    }

    @Test(arguments: [
        ("{nope", Int64(-32700), RPCErrorType.parseError, nil as RPCID?),
        (#"[{"jsonrpc":"2.0","id":1,"method":"a"}]"#, -32600, .invalidRequest, nil),
        (#""text""#, -32600, .invalidRequest, nil),
        (#"{"jsonrpc":"2.0","method":"a"}"#, -32600, .invalidRequest, nil),
        (#"{"jsonrpc":"2.0","id":null,"method":"a"}"#, -32600, .invalidRequest, nil),
        (#"{"jsonrpc":"2.0","id":1.5,"method":"a"}"#, -32600, .invalidRequest, nil),
        (#"{"jsonrpc":"1.0","id":1,"method":"a"}"#, -32600, .invalidRequest, .integer(1)),
        (#"{"jsonrpc":"2.0","id":1,"method":3}"#, -32600, .invalidRequest, .integer(1)),
        (#"{"jsonrpc":"2.0","id":1,"method":"a","extra":true}"#, -32600, .invalidRequest, .integer(1)),
        (#"{"jsonrpc":"2.0","id":"k","method":"a","params":[1]}"#, -32602, .invalidParams, .string("k")),
    ])
    func invalidLines(_ input: String, _ code: Int64, _ type: RPCErrorType, _ id: RPCID?) {
        guard case .failure(let failure) = parse(input) else {
            Issue.record("accepted \(input)")
            return
        }
        #expect(failure.error.code == code)
        #expect(failure.error.type == type)
        #expect(failure.id == id)
    }
}
