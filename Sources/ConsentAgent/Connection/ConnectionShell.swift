import NIOCore

/// Whatever carries out a `ConnectionStateMachine`'s actions: `RPCConnectionHandler` on a channel, and the fuzz
/// harnesses (Fuzz/Targets/FuzzConnection, FuzzRequest, FuzzProtocol) with the client and the core played by
/// them. They all run `execute`, so what a harness drives is what the agent runs.
///
/// A class, so that a shell's callbacks may reach the machine again (a close fires `channelInactive` at once):
/// every access to `machine` is a short one of its own.
protocol ConnectionShell: AnyObject {
    var machine: ConnectionStateMachine { get set }
    /// Whether the channel takes more bytes now (a client that does not read its replies makes it false).
    var isWritable: Bool { get }
    /// Whether an event published to this connection may still be on its way to it (`session.sync` waits for it);
    /// true unless the shell knows (the default).
    var eventsInFlight: Bool { get }
    func write(_ bytes: ByteBuffer)
    /// Sends what `write` gave; called once after a run of writes.
    func flush()
    /// Every action but `.flush`, which `execute` carries out with `write`, `flush` and the machine's `flushed`.
    func perform(_ action: ConnectionStateMachine.Action)
}

extension ConnectionShell {
    var eventsInFlight: Bool { true }

    /// The one executor: `actions` in order. `.flush` writes the queued lines while the channel takes them, flushes,
    /// and carries out what the machine then decides (the lines that waited for the client to read, or the close)
    /// before the rest. A loop rather than a call for each `.flush`: when every reply is large enough to back the
    /// connection up (`rpc.discover`'s), each flush lets one more request in and asks for another flush, and a
    /// client that pipelines thousands of them and then reads fast would otherwise deepen the stack by one call each.
    func execute(_ actions: [ConnectionStateMachine.Action]) {
        var queue = actions[...]
        while let action = queue.popFirst() {
            guard action == .flush else {
                perform(action)
                continue
            }
            var wrote = false
            while isWritable, let bytes = machine.popOutbound() {
                write(bytes)
                wrote = true
            }
            if wrote { flush() }
            queue = machine.flushed(isWritable: isWritable, eventsInFlight: eventsInFlight)[...] + queue
        }
    }
}
