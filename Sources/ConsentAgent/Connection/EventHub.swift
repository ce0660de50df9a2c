import AgentProtocol
import NIOConcurrencyHelpers

/// Fans events out to the subscribed connections.
///
/// Publishing never waits for a client: it only hops onto each subscriber's event loop, where the connection's
/// bounded queue decides what happens to a lagging client. So a slow client can delay neither another client,
/// nor the core, nor the pad.
public final class EventHub: Sendable {
    private struct Subscriber {
        var handle: ConnectionHandle
        var topics: Set<Topic>
    }

    private let subscribers = NIOLockedValueBox<[UInt64: Subscriber]>([:])

    public init() {}

    /// Sets a connection's topics (a later call replaces the earlier). A closed connection is not added: its
    /// `remove` may have run already. (`ConnectionHandle.markClosed` runs before `remove`, and both sides take the
    /// lock, so one of them always sees the other.)
    public func subscribe(_ handle: ConnectionHandle, topics: Set<Topic>) {
        subscribers.withLockedValue {
            guard !handle.isClosed else { return }
            $0[handle.id] = Subscriber(handle: handle, topics: topics)
        }
    }

    public func remove(connection id: UInt64) {
        _ = subscribers.withLockedValue { $0.removeValue(forKey: id) }
    }

    public var subscriberCount: Int { subscribers.withLockedValue { $0.count } }

    public func publish(_ event: AgentEvent) {
        let topic = event.name.topic
        let targets = subscribers.withLockedValue { all in
            all.values.filter { topic.map($0.topics.contains) ?? true }.map(\.handle)
        }
        for target in targets { target.deliver(event.seen(by: target.id)) }
    }
}
