import AgentProtocol

/// One event for the clients: its wire name, its `data`, and when it happened.
///
/// Timestamps are taken when the event happens, not when a lagging client finally reads it. Ink batches keep
/// their points apart from `data` so a lagging client's queue can merge consecutive batches of one stroke.
public struct AgentEvent: Sendable {
    public var name: EventName
    public var data: RPCValue
    public var ink: InkBatch?
    /// The connection that drives the flow and the fuller `data` only it receives (see `FlowVisibility`);
    /// every other subscriber gets `data`.
    public var driverCopy: (connection: UInt64, data: RPCValue)?
    /// Wall-clock time, milliseconds since 1970 (UTC).
    public var wallMilliseconds: Int64
    /// Monotonic time, microseconds since the agent started.
    public var monotonicMicroseconds: Int64

    public init(_ name: EventName, data: RPCValue, clock: EventClock = .system) {
        self.name = name
        self.data = data
        self.ink = nil
        self.driverCopy = nil
        self.wallMilliseconds = clock.wallMilliseconds()
        self.monotonicMicroseconds = clock.monotonicMicroseconds()
    }

    public init(ink: InkBatch, clock: EventClock = .system) {
        self.init(.inkPoints, data: .null, clock: clock)
        self.ink = ink
    }

    /// The event as `connection` receives it.
    public func seen(by connection: UInt64) -> AgentEvent {
        guard let copy = driverCopy, copy.connection == connection else { return self }
        var event = self
        event.data = copy.data
        event.driverCopy = nil
        return event
    }

    /// The `data` member as sent: ink batches are rendered from their points.
    public var renderedData: RPCValue { ink?.value ?? data }
}
