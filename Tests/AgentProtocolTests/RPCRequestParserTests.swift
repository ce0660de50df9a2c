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
        // One answer for every params that is not an object (Protocol/README.md §3): -32602, field "params".
        (#"{"jsonrpc":"2.0","id":"n","method":"a","params":null}"#, -32602, .invalidParams, .string("n")),
        (#"{"jsonrpc":"2.0","id":"s","method":"a","params":"x"}"#, -32602, .invalidParams, .string("s")),
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

    @Test func paramsThatAreNotAnObjectNameTheField() {
        for params in ["[1]", "null", "3"] {
            guard case .failure(let failure) = parse(#"{"jsonrpc":"2.0","id":1,"method":"a","params":\#(params)}"#) else {
                Issue.record("accepted params \(params)"); continue
            }
            #expect(failure.error.details["field"] == "params")
        }
    }

    /// Integer ids are Int64's range, echoed exactly; one beyond is refused with a sentence saying what to do.
    @Test func integerIdRange() throws {
        let largest = try parse(#"{"jsonrpc":"2.0","id":9223372036854775807,"method":"a"}"#).get()
        #expect(largest.id == .integer(Int64.max))
        let smallest = try parse(#"{"jsonrpc":"2.0","id":-9223372036854775808,"method":"a"}"#).get()
        #expect(smallest.id == .integer(Int64.min))
        for beyond in ["9223372036854775808", "-9223372036854775809", "123456789012345678901234567890"] {
            guard case .failure(let failure) = parse(#"{"jsonrpc":"2.0","id":\#(beyond),"method":"a"}"#) else {
                Issue.record("accepted id \(beyond)"); continue
            }
            #expect(failure.error.code == -32600)
            #expect(failure.error.message.contains("9223372036854775807"))
            #expect(failure.error.message.contains("string id"))
            #expect(failure.id == nil)
        }
        guard case .failure(let fraction) = parse(#"{"jsonrpc":"2.0","id":1.5,"method":"a"}"#) else {
            Issue.record("accepted 1.5"); return
        }
        #expect(fraction.error.message == "the id must be a string or an integer")
    }
}
