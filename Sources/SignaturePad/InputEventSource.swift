/// What a read from an event source produced.
public enum InputEventReadStatus: Sendable, Hashable {
    /// Events were appended.
    case events
    /// Nothing arrived within the timeout.
    case timedOut
    /// The stream ended (end of file, closed pipe); no more events will come.
    case endOfStream
}

/// Anything that yields evdev events: a libevdev device, a pipe of raw `struct input_event` records, an evemu file.
///
/// This is the injection point (libinput's `open_restricted` lesson): capture logic is driven from any readable
/// event stream, so it can be tested and benchmarked without a kernel device.
public protocol InputEventSource {
    /// Appends the events available now, waiting at most `timeout` for the first one.
    ///
    /// - Throws: `SignaturePadError` (`.deviceGone` when the device disappeared).
    mutating func read(into events: inout [InputEvent], timeout: Duration) throws -> InputEventReadStatus
}

/// An in-memory source (tests, evemu replays): everything at once, then end of stream.
public struct ArrayEventSource: InputEventSource, Sendable {
    private var pending: [InputEvent]

    public init(_ events: [InputEvent]) { pending = events }

    public mutating func read(into events: inout [InputEvent], timeout: Duration) throws -> InputEventReadStatus {
        if pending.isEmpty { return .endOfStream }
        events.append(contentsOf: pending)
        pending.removeAll()
        return .events
    }
}

extension StrokeCapture {
    /// Drains `source` to its end (or until a read times out), handing each batch to `emit`.
    public mutating func run(
        _ source: inout some InputEventSource, timeout: Duration = .seconds(1), emit: (FrameInk) -> Void = { _ in }
    ) throws {
        var buffer: [InputEvent] = []
        while true {
            buffer.removeAll(keepingCapacity: true)
            let status = try source.read(into: &buffer, timeout: timeout)
            process(buffer, emit: emit)
            if status != .events { return }
        }
    }
}
