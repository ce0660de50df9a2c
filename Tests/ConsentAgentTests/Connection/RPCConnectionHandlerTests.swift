import AgentProtocol
import Foundation
import NIOCore
import NIOEmbedded
import Testing

@testable import ConsentAgent

@Suite struct RPCConnectionHandlerTests {
    let clock = ManualClock()

    @Test func helloThenGatingThenNegotiation() async throws {
        let core = try TestSupport.core(clock: clock, state: try TestSupport.temporaryDirectory())
        let channel = try await TestSupport.channel(core: core)
        let hello = try await channel.nextMessage()
        #expect(hello["method"] == "hello")
        #expect(hello["params"]?["protocol"] == "consent-kiosk-agent")

        try await channel.send(#"{"jsonrpc":"2.0","id":1,"method":"flow.start"}"#)
        #expect(try await channel.nextMessage()["error"]?["data"]?["type"] == "NotNegotiated")
        try await channel.send(#"{"jsonrpc":"2.0","id":2,"method":"session.negotiate","params":{"client":"t","version":1}}"#)
        #expect(try await channel.nextMessage()["result"]?["version"] == 1)
        try await channel.send(#"{"jsonrpc":"2.0","id":3,"method":"session.sync"}"#)
        #expect(try await channel.nextMessage()["result"]?["seq"] == 0)
        _ = try await channel.finish(acceptAlreadyClosed: true)
    }

    @Test func flowEventsPrecedeTheReplyAndCarrySeq() async throws {
        let core = try TestSupport.core(clock: clock, state: try TestSupport.temporaryDirectory())
        let channel = try await TestSupport.channel(core: core)
        _ = try await channel.nextMessage()
        try await channel.send(#"{"jsonrpc":"2.0","id":1,"method":"session.negotiate","params":{"client":"t","version":1}}"#)
        _ = try await channel.nextMessage()
        try await channel.send(#"{"jsonrpc":"2.0","id":2,"method":"events.subscribe","params":{"topics":["flow"]}}"#)
        let subscribed = try await channel.nextMessage()
        #expect(subscribed["result"]?["seq"] == 0)
        try await channel.send(#"{"jsonrpc":"2.0","id":3,"method":"flow.start"}"#)
        let event = try await channel.nextMessage()
        #expect(event["method"] == "flow.changed")
        #expect(event["params"]?["seq"] == 1)
        let reply = try await channel.nextMessage()
        #expect(reply["id"] == 3)
        let flow = try #require(reply["result"]?["flow"]?.stringValue)
        #expect(event["params"]?["data"]?["flow"]?.stringValue == flow)

        // The injected clock drives the inactivity expiry.
        clock.advance(by: .seconds(601))
        await core.expireIdleFlows()
        let expired = try await channel.nextMessage()
        #expect(expired["method"] == "flow.expired")
        #expect(expired["params"]?["seq"] == 2)
        let changed = try await channel.nextMessage()
        #expect(changed["params"]?["data"]?["step"] == "expired")
        try await channel.send(#"{"jsonrpc":"2.0","id":4,"method":"flow.next","params":{"flow":"\#(flow)","step":"eligibility"}}"#)
        #expect(try await channel.nextMessage()["error"]?["data"]?["type"] == "FlowExpired")
        _ = try await channel.finish(acceptAlreadyClosed: true)
    }

    @Test func overLongLineThenTheNextIsServed() async throws {
        let core = try TestSupport.core(clock: clock, state: try TestSupport.temporaryDirectory())
        let channel = try await TestSupport.channel(core: core, maximumLineBytes: 64)
        _ = try await channel.nextMessage()
        try await channel.send(String(repeating: "x", count: 500))
        try await channel.send(#"{"jsonrpc":"2.0","id":"d","method":"rpc.discover"}"#)
        let error = try await channel.nextMessage()
        #expect(error["error"]?["data"]?["type"] == "LineTooLong")
        #expect(error["id"] == .null)
        #expect(try await channel.nextMessage()["result"]?["openrpc"] == "1.3.2")
        _ = try await channel.finish(acceptAlreadyClosed: true)
    }

    @Test func aClientThatStaysUnwritableIsClosed() async throws {
        let core = try TestSupport.core(clock: clock, state: try TestSupport.temporaryDirectory())
        let channel = try await TestSupport.channel(core: core, killTimeout: .seconds(5))
        _ = try await channel.nextMessage()
        channel.isWritable = false
        try await channel.testingEventLoop.executeInContext { channel.pipeline.fireChannelWritabilityChanged() }
        await channel.testingEventLoop.advanceTime(by: .seconds(4))
        #expect(channel.isActive)
        await channel.testingEventLoop.advanceTime(by: .seconds(2))
        #expect(!channel.isActive)
    }

    /// A client that never negotiates gets one NotNegotiated line (id null) and is closed; a
    /// negotiated one is left alone.
    @Test func aClientThatNeverNegotiatesIsClosed() async throws {
        let core = try TestSupport.core(clock: clock, state: try TestSupport.temporaryDirectory())
        let idle = try await TestSupport.channel(core: core)
        _ = try await idle.nextMessage()
        await idle.testingEventLoop.advanceTime(by: .seconds(29))
        #expect(idle.isActive)
        await idle.testingEventLoop.advanceTime(by: .seconds(2))
        let notice = try await idle.nextMessage()
        #expect(notice["error"]?["data"]?["type"] == "NotNegotiated")
        #expect(notice["id"] == .null)
        await idle.testingEventLoop.run()
        #expect(!idle.isActive)

        let negotiated = try await TestSupport.channel(core: core, id: 2)
        _ = try await negotiated.nextMessage()
        try await negotiated.send(#"{"jsonrpc":"2.0","id":1,"method":"session.negotiate","params":{"client":"t","version":1}}"#)
        #expect(try await negotiated.nextMessage()["result"]?["version"] == 1)
        await negotiated.testingEventLoop.advanceTime(by: .seconds(60))
        #expect(negotiated.isActive)
        _ = try await negotiated.finish(acceptAlreadyClosed: true)
    }

    @Test func repliesWaitWhileUnwritableAndFlowWhenWritable() async throws {
        let core = try TestSupport.core(clock: clock, state: try TestSupport.temporaryDirectory())
        let channel = try await TestSupport.channel(core: core)
        _ = try await channel.nextMessage()
        channel.isWritable = false
        try await channel.testingEventLoop.executeInContext { channel.pipeline.fireChannelWritabilityChanged() }
        try await channel.send(#"{"jsonrpc":"2.0","id":1,"method":"rpc.discover"}"#)
        #expect(try await channel.readOutbound(as: ByteBuffer.self) == nil)
        channel.isWritable = true
        try await channel.testingEventLoop.executeInContext { channel.pipeline.fireChannelWritabilityChanged() }
        #expect(try await channel.nextMessage()["id"] == 1)
        _ = try await channel.finish(acceptAlreadyClosed: true)
    }
}
