import AgentProtocol
import ConsentCore
import NIOCore
import Testing

@testable import ConsentAgent

@Suite struct OutboundQueueTests {
    private func ink(_ stroke: Int, _ n: Int) -> AgentEvent {
        AgentEvent(ink: InkBatch(flow: "f", pad: "p", stroke: stroke, points: (0..<n).map { StrokePoint(x: 0.5, y: 0.5, t: Double($0)) }))
    }

    private func parsed(_ buffer: ByteBuffer?) -> RPCValue? {
        buffer.flatMap { try? RPCValue.parse($0.readableBytesView) }
    }

    @Test func inkOfOneStrokeCoalescesWhileQueued() {
        var q = OutboundQueue(limits: .init(maximumMessages: 10, maximumBytes: 1 << 20))
        let r1 = q.appendEvent(ink(0, 2), seq: 1)
        #expect(r1 == .appended)
        let r2 = q.coalesce(ink(0, 3))
        #expect(r2)
        let r3 = q.coalesce(ink(1, 1))
        #expect(!r3, "another stroke is not merged")
        #expect(q.count == 1)
        let merged = parsed(q.popFirst())
        #expect(merged?["params"]?["data"]?["points"]?.arrayValue?.count == 5)
        #expect(merged?["params"]?["seq"] == 1)
    }

    @Test func pastTheBoundEventsAreReplacedByOneOverflowButRepliesStay() {
        var q = OutboundQueue(limits: .init(maximumMessages: 3, maximumBytes: 1 << 20))
        q.appendReply(RPCMessage.result(id: .integer(1), [:]).jsonLine)
        let r4 = q.appendEvent(AgentEvent(.flowExpired, data: ["flow": "a"]), seq: 1)
        #expect(r4 == .appended)
        let r5 = q.appendEvent(AgentEvent(.flowExpired, data: ["flow": "b"]), seq: 2)
        #expect(r5 == .appended)
        let r6 = q.appendEvent(AgentEvent(.flowExpired, data: ["flow": "c"]), seq: 3)
        #expect(r6 == .overflowed(consumedSeq: true))
        let r7 = q.appendEvent(AgentEvent(.flowExpired, data: ["flow": "d"]), seq: 4)
        #expect(r7 == .overflowed(consumedSeq: false))
        let r8 = q.coalesce(ink(0, 1))
        #expect(!r8, "nothing merges into a pending overflow")
        #expect(q.count == 2)
        let r9 = q.popFirst()
        #expect(parsed(r9)?["id"] == 1)
        let overflow = parsed(q.popFirst())
        #expect(overflow?["method"] == "events.overflow")
        #expect(overflow?["params"]?["data"]?["dropped"] == 4)
        #expect(overflow?["params"]?["seq"] == 3)
        let r10 = q.appendEvent(AgentEvent(.flowExpired, data: ["flow": "e"]), seq: 4)
        #expect(r10 == .appended, "normal again once read")
    }

    @Test func byteBoundAlsoOverflows() {
        var q = OutboundQueue(limits: .init(maximumMessages: 100, maximumBytes: 300))
        let r11 = q.appendEvent(ink(0, 5), seq: 1)
        #expect(r11 == .appended)
        let r12 = q.appendEvent(ink(1, 50), seq: 2)
        #expect(r12 == .overflowed(consumedSeq: true))
    }
}
