import NIOCore
import Testing

@testable import KioskBridge

/// The agent's `hello` as the bridge reads it for each WebSocket's frame cap.
struct AgentHelloTests {
    static func hello(_ limits: String) -> ByteBuffer {
        ByteBuffer(string: #"{"jsonrpc":"2.0","method":"hello","params":{"protocol":"consent-kiosk-agent","versions":[1],"limits":"#
            + limits + "}}")
    }

    @Test func theCapIsTheAgentsMaxLineBytes() {
        #expect(AgentSideHandler.maxLineBytes(inHello: Self.hello(#"{"maxLineBytes":2097152}"#)) == 2_097_152)
    }

    /// NIO's frame decoder traps on a cap past 4 GiB - 1: an agent configured beyond it gets that cap, not a crash.
    @Test func aCapPastWhatAWebSocketFrameHoldsIsClamped() {
        #expect(AgentSideHandler.maxLineBytes(inHello: Self.hello(#"{"maxLineBytes":1099511627776}"#)) == Int(UInt32.max))
    }

    @Test func noCapWithoutAPositiveMaxLineBytes() {
        #expect(AgentSideHandler.maxLineBytes(inHello: Self.hello(#"{"maxLineBytes":0}"#)) == nil)
        #expect(AgentSideHandler.maxLineBytes(inHello: Self.hello(#"{}"#)) == nil)
        #expect(AgentSideHandler.maxLineBytes(inHello: ByteBuffer(string: #"{"jsonrpc":"2.0","method":"flow.changed"}"#)) == nil)
    }
}
