import AgentProtocol
import NIOCore

/// The messages of one connection that the socket has not taken yet, bounded in messages and bytes.
///
/// While the client keeps up the queue stays empty: the handler writes straight through. When the client lags
/// (the channel is not writable) messages wait here, and:
/// 1. a new ink batch that continues the last queued batch of the same stroke is merged into it;
/// 2. past either bound, every queued event is dropped and one `events.overflow` takes their place; until the
///    client has read it, further events are dropped too and counted in it (the client resyncs with `flow.get`);
/// 3. replies are never dropped: the in-flight cap already bounds them.
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
        case overflow(seq: Int64, dropped: Int, at: AgentEvent)
    }

    let limits: Limits
    private var entries = CircularBuffer<Entry>()
    private(set) var byteCount = 0
    /// Index of the pending overflow notice in `entries`, while there is one.
    private var hasPendingOverflow = false

    init(limits: Limits) {
        self.limits = limits
    }

    var isEmpty: Bool { entries.isEmpty }
    var count: Int { entries.count }

    mutating func appendReply(_ bytes: ByteBuffer) {
        byteCount += bytes.readableBytes
        entries.append(.reply(bytes))
    }

    /// Merges an ink batch into the last queued one when it continues the same stroke.
    mutating func coalesce(_ event: AgentEvent) -> Bool {
        guard let batch = event.ink, !hasPendingOverflow, let last = entries.last,
            case .event(let seq, var queued, let oldBytes) = last, var queuedBatch = queued.ink, queuedBatch.canMerge(batch)
        else { return false }
        queuedBatch.points.append(contentsOf: batch.points)
        queued.ink = queuedBatch
        let bytes = Self.render(seq: seq, queued)
        byteCount += bytes.readableBytes - oldBytes.readableBytes
        entries[entries.index(before: entries.endIndex)] = .event(seq: seq, queued, bytes)
        return true
    }

    /// Queues an event under `seq`, or drops it when the client is past the bounds.
    mutating func appendEvent(_ event: AgentEvent, seq: Int64) -> AppendResult {
        if hasPendingOverflow {
            addToOverflow(1)
            return .overflowed(consumedSeq: false)
        }
        let bytes = Self.render(seq: seq, event)
        if entries.count + 1 <= limits.maximumMessages, byteCount + bytes.readableBytes <= limits.maximumBytes {
            byteCount += bytes.readableBytes
            entries.append(.event(seq: seq, event, bytes))
            return .appended
        }
        var kept = CircularBuffer<Entry>()
        var dropped = 1
        for entry in entries {
            if case .event(_, _, let b) = entry {
                dropped += 1
                byteCount -= b.readableBytes
            } else {
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
        case .overflow(let seq, let dropped, let at):
            hasPendingOverflow = false
            var notice = at
            notice.name = .eventsOverflow
            notice.ink = nil
            notice.data = ["dropped": .integer(Int64(dropped)), "resync": "flow.get"]
            return Self.render(seq: seq, notice)
        }
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
    static func render(seq: Int64, _ event: AgentEvent) -> ByteBuffer {
        let params: RPCValue = [
            "seq": .integer(seq),
            "time": .string(EventClock.rfc3339(milliseconds: event.wallMilliseconds)),
            "mono_us": .integer(event.monotonicMicroseconds),
            "data": event.renderedData,
        ]
        return RPCMessage.notification(event.name, params).jsonLine
    }
}
