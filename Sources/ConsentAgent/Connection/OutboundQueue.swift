import AgentProtocol
import NIOCore

/// The messages of one connection that the socket has not taken yet, bounded in messages and bytes.
///
/// While the client keeps up the queue stays empty: the handler writes straight through. When the client lags
/// (the channel is not writable) messages wait here, and:
/// 1. a new ink batch that continues the last queued batch of the same stroke is merged into it (its points'
///    bytes appended: a merge renders nothing, however long the stroke grows);
/// 2. past either bound, every queued event is dropped and one `events.overflow` takes their place; until the
///    client has read it, further events are dropped too and counted in it (the client resyncs with `flow.get`);
/// 3. replies are never dropped: the connection takes no further request while they wait for the client
///    (`ConnectionStateMachine.isBackedUp`), so what a client that does not read holds is one reply, whatever its
///    size (the in-flight cap counts requests, and 16 `speech.get` replies were 14 MB).
struct OutboundQueue {
    struct Limits: Sendable, Hashable {
        var maximumMessages: Int
        var maximumBytes: Int

        static let `default` = Limits(maximumMessages: 1000, maximumBytes: 8 << 20)
    }

    enum AppendResult: Equatable {
        case appended
        case coalesced
        /// The event was dropped; `consumedSeq` tells whether the overflow notice took the offered seq.
        case overflowed(consumedSeq: Bool)
    }

    private enum Entry {
        case reply(ByteBuffer)
        case event(seq: Int64, AgentEvent, ByteBuffer)
        /// An `ink.points` event, its line rendered around the points: `head` ends with `"points":[`, `tail`
        /// starts with `]`. The points' bytes stay in the event's batch until the line is taken, so merging the
        /// next batch of the stroke appends bytes and renders nothing.
        case ink(seq: Int64, AgentEvent, head: ByteBuffer, tail: ByteBuffer)
        case overflow(seq: Int64, dropped: Int, at: AgentEvent)
    }

    let limits: Limits
    private var entries = CircularBuffer<Entry>()
    private(set) var byteCount = 0
    /// Index of the pending overflow notice in `entries`, while there is one.
    private var hasPendingOverflow = false
    /// How many event lines were rendered (tests: merging ink renders none).
    private(set) var renderCount = 0

    init(limits: Limits) {
        self.limits = limits
    }

    var isEmpty: Bool { entries.isEmpty }
    var count: Int { entries.count }

    mutating func appendReply(_ bytes: ByteBuffer) {
        byteCount += bytes.readableBytes
        entries.append(.reply(bytes))
    }

    /// Merges an ink batch into the last queued one when it continues the same stroke: its points' bytes are
    /// appended, nothing is rendered again.
    mutating func coalesce(_ event: AgentEvent) -> Bool {
        guard let batch = event.ink, !hasPendingOverflow, lastInkContinues(with: batch),
            case .ink(let seq, var queued, let head, let tail) = entries.removeLast(), var merged = queued.ink
        else { return false }
        // Out of the queue and out of the event, the points' buffer has one owner and grows in place.
        queued.ink = nil
        let before = merged.pointsJSON.readableBytes
        merged.append(batch)
        byteCount += merged.pointsJSON.readableBytes - before
        queued.ink = merged
        entries.append(.ink(seq: seq, queued, head: head, tail: tail))
        return true
    }

    private func lastInkContinues(with batch: InkBatch) -> Bool {
        guard case .ink(_, let queued, _, _)? = entries.last, let last = queued.ink else { return false }
        return last.canMerge(batch)
    }

    /// Queues an event under `seq`, or drops it when the client is past the bounds.
    mutating func appendEvent(_ event: AgentEvent, seq: Int64) -> AppendResult {
        if hasPendingOverflow {
            addToOverflow(1)
            return .overflowed(consumedSeq: false)
        }
        let entry: Entry
        let size: Int
        if let batch = event.ink {
            let (head, tail) = renderInk(seq: seq, event, batch)
            entry = .ink(seq: seq, event, head: head, tail: tail)
            size = head.readableBytes + batch.pointsJSON.readableBytes + tail.readableBytes
        } else {
            let bytes = Self.render(seq: seq, event)
            renderCount += 1
            entry = .event(seq: seq, event, bytes)
            size = bytes.readableBytes
        }
        if entries.count + 1 <= limits.maximumMessages, byteCount + size <= limits.maximumBytes {
            byteCount += size
            entries.append(entry)
            return .appended
        }
        var kept = CircularBuffer<Entry>()
        var dropped = 1
        for entry in entries {
            switch entry {
            case .event(_, _, let b):
                dropped += 1
                byteCount -= b.readableBytes
            case .ink(_, let queued, let head, let tail):
                dropped += 1
                byteCount -= head.readableBytes + (queued.ink?.pointsJSON.readableBytes ?? 0) + tail.readableBytes
            case .reply, .overflow:
                kept.append(entry)
            }
        }
        entries = kept
        entries.append(.overflow(seq: seq, dropped: dropped, at: event))
        hasPendingOverflow = true
        return .overflowed(consumedSeq: true)
    }

    /// Takes the oldest message, rendered as one line.
    mutating func popFirst() -> ByteBuffer? {
        guard let entry = entries.popFirst() else { return nil }
        switch entry {
        case .reply(let bytes):
            byteCount -= bytes.readableBytes
            return bytes
        case .event(_, _, let bytes):
            byteCount -= bytes.readableBytes
            return bytes
        case .ink(_, let event, var head, var tail):
            var points = event.ink?.pointsJSON ?? ByteBuffer()
            let size = head.readableBytes + points.readableBytes + tail.readableBytes
            byteCount -= size
            var line = ByteBufferAllocator().buffer(capacity: size)
            line.writeBuffer(&head)
            line.writeBuffer(&points)
            line.writeBuffer(&tail)
            return line
        case .overflow(let seq, let dropped, let at):
            hasPendingOverflow = false
            var notice = at
            notice.name = .eventsOverflow
            notice.ink = nil
            notice.data = ["dropped": .integer(Int64(dropped)), "resync": "flow.get"]
            renderCount += 1
            return Self.render(seq: seq, notice)
        }
    }

    /// The line of an `ink.points` event around its points: `head` up to `"points":[`, `tail` from its `]`.
    ///
    /// Written member by member, in the order `render` sorts them (jsonrpc, method, params; params: data, mono_us,
    /// seq, time; data: flow, pad, points, role, stroke) and with RPCValue's writers for every string and number,
    /// so the bytes are `render`'s (a test holds them to it): one per pen frame, where building the dictionaries,
    /// sorting their keys and searching the line for the cut cost three times the rest of the ink path.
    private mutating func renderInk(seq: Int64, _ event: AgentEvent, _ batch: InkBatch) -> (ByteBuffer, ByteBuffer) {
        renderCount += 1
        var head = ByteBufferAllocator().buffer(capacity: 64 + batch.flow.utf8.count + batch.pad.utf8.count)
        head.writeStaticString(#"{"jsonrpc":"2.0","method":"#)
        RPCValue.string(event.name.rawValue).write(to: &head)
        head.writeStaticString(#","params":{"data":{"flow":"#)
        RPCValue.string(batch.flow).write(to: &head)
        head.writeStaticString(#","pad":"#)
        RPCValue.string(batch.pad).write(to: &head)
        head.writeStaticString(#","points":["#)

        var tail = ByteBufferAllocator().buffer(capacity: 128)
        tail.writeStaticString("]")
        if let role = batch.role {
            tail.writeStaticString(#","role":"#)
            RPCValue.string(role.rawValue).write(to: &tail)
        }
        tail.writeStaticString(#","stroke":"#)
        RPCValue.integer(Int64(batch.stroke)).write(to: &tail)
        tail.writeStaticString(#"},"mono_us":"#)
        RPCValue.integer(event.monotonicMicroseconds).write(to: &tail)
        tail.writeStaticString(#","seq":"#)
        RPCValue.integer(seq).write(to: &tail)
        tail.writeStaticString(#","time":"#)
        EventClock.writeRFC3339String(milliseconds: event.wallMilliseconds, to: &tail)
        tail.writeStaticString("}}\n")
        return (head, tail)
    }

    private mutating func addToOverflow(_ n: Int) {
        for i in entries.indices.reversed() {
            if case .overflow(let seq, let dropped, let at) = entries[i] {
                entries[i] = .overflow(seq: seq, dropped: dropped + n, at: at)
                return
            }
        }
    }

    /// `{"jsonrpc":"2.0","method":<name>,"params":{"seq","time","mono_us","data"}}` as one line.
    static func render(seq: Int64, _ event: AgentEvent, data: RPCValue? = nil) -> ByteBuffer {
        let params: RPCValue = [
            "seq": .integer(seq),
            "time": .string(EventClock.rfc3339(milliseconds: event.wallMilliseconds)),
            "mono_us": .integer(event.monotonicMicroseconds),
            "data": data ?? event.renderedData,
        ]
        return RPCMessage.notification(event.name, params).jsonLine
    }
}
