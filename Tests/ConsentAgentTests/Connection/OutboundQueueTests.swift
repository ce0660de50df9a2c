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

    /// A lagging client's queue merges ink by appending the points' bytes: however many batches arrive, nothing is
    /// rendered again, and the line is byte for byte the one rendering the merged event whole gives.
    @Test func mergingInkRendersNothingAndGivesTheSameLine() {
        var q = OutboundQueue(limits: .init(maximumMessages: 10, maximumBytes: 1 << 20))
        // A flow id holding the text the queue cuts the line at, escaped quotes and all.
        let flow = #"f"points":[]\"#
        func point(_ i: Int) -> StrokePoint {
            let pressure: Double? = i % 2 == 0 ? nil : 0.5
            return StrokePoint(x: 0.25, y: 1.0 / Double(i + 3), t: Double(i) * 2.5, p: pressure)
        }
        func batch(_ from: Int, _ n: Int) -> InkBatch {
            InkBatch(flow: flow, pad: "/dev/input/event7", stroke: 2, points: (from..<(from + n)).map(point), role: .witness)
        }
        let first = AgentEvent(ink: batch(0, 2))
        #expect(q.appendEvent(first, seq: 7) == .appended)
        let rendered = q.renderCount
        var whole = batch(0, 2)
        for i in 0..<100 {
            let merged = q.coalesce(AgentEvent(ink: batch(2 + i, 1)))
            #expect(merged)
            whole.append(batch(2 + i, 1))
        }
        #expect(q.renderCount == rendered, "merging rendered the line again")
        #expect(q.byteCount > 100 * 20)
        let line = q.popFirst()
        #expect(q.byteCount == 0)
        #expect(line == OutboundQueue.render(seq: 7, first, data: whole.value))
        #expect(parsed(line)?["params"]?["data"]?["points"]?.arrayValue?.count == 102)
        #expect(parsed(line)?["params"]?["data"]?["flow"]?.stringValue == flow)
    }

    /// The queue writes ink lines member by member (not through the generic rendering): without a role, with a pad
    /// name beyond ASCII, and at any time and seq, they are the generic rendering's bytes.
    @Test(arguments: [
        (Int64(0), Int64(0), Int64(1)), (Int64(1_795_000_000_123), Int64(987_654_321), Int64.max),
        (Int64(253_402_300_799_999), Int64(1), Int64(42)), (Int64(-1), Int64(-5), Int64(-7)),
    ])
    func inkLinesAreTheGenericRendering(wall: Int64, mono: Int64, seq: Int64) {
        let clock = EventClock(wallMilliseconds: { wall }, monotonicMicroseconds: { mono })
        for role in [nil, SigningRole.participant] {
            var q = OutboundQueue(limits: .init(maximumMessages: 10, maximumBytes: 1 << 20))
            let batch = InkBatch(
                flow: "f-1", pad: "Stift \u{00e9}\u{1F58A}\n", stroke: 3,
                points: [StrokePoint(x: 0, y: 1, t: 0.001, p: nil), StrokePoint(x: 1e-7, y: 0.5, t: 3_600_000, p: 1)],
                role: role)
            let event = AgentEvent(ink: batch, clock: clock)
            #expect(q.appendEvent(event, seq: seq) == .appended)
            #expect(q.popFirst() == OutboundQueue.render(seq: seq, event, data: batch.value))
        }
    }

    /// The timestamp written digit by digit is the string version's text, quoted.
    @Test func timestampsWrittenIntoTheLineAreTheStringVersion() {
        for milliseconds: Int64 in [0, 999, 1_000, 951_782_400_000, 1_795_000_000_123, 253_402_300_799_999, 253_402_300_800_000, -1, -86_400_001] {
            var buffer = ByteBuffer()
            EventClock.writeRFC3339String(milliseconds: milliseconds, to: &buffer)
            #expect(String(buffer: buffer) == "\"" + EventClock.rfc3339(milliseconds: milliseconds) + "\"", "\(milliseconds)")
        }
    }
}
