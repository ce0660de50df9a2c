import AgentProtocol
import AuditTrail
import Dispatch
import Logging

/// Everything the agent core sends out, in the order the actor decided it: audit lines, events and replies, carried
/// out on one serial queue off the actor.
///
/// The actor changes a flow and hands what follows to the outbox without waiting; the outbox appends the audit
/// line (a write, and an fsync when a flow ends), then publishes the event, then hands the reply to the
/// connection. So the actor never blocks on the audit log's disk, and the order the UIs and the log see is still
/// the order of the decisions:
///
/// - an event is published after its audit line is written, and a reply is handed over after the events and
///   audit lines of the step it answers (`AgentCore.handle` awaits `delivered()` before it returns);
/// - `events.subscribe` adds the connection to the hub here (`subscribe`), at the place of its snapshot in the
///   order: events decided before the snapshot are not sent to it again, events decided after reach it after the
///   reply.
///
/// Pad ink and hot-plug events do not come through here: the pad's thread publishes them to the hub directly.
final class Outbox: Sendable {
    private let queue = DispatchQueue(label: "consentd.outbox")
    private let log: AuditLog?
    private let hub: EventHub
    private let logger: Logger

    init(log: AuditLog?, hub: EventHub, logger: Logger) {
        self.log = log
        self.hub = hub
        self.logger = logger
    }

    /// Whether audit lines are kept (no log: tests and tools that do not audit).
    var keepsAudit: Bool { log != nil }

    /// Appends an audit line. A write that fails is logged as an error and the flow goes on (`FlowAuditor`).
    func audit(_ event: AuditEvent) {
        guard let log else { return }
        let logger = self.logger
        queue.async {
            do { _ = try log.append(event) } catch { logger.error("audit: append failed", metadata: ["error": "\(error)"]) }
        }
    }

    /// Publishes an event to the subscribed connections.
    func publish(_ event: AgentEvent) {
        let hub = self.hub
        queue.async { hub.publish(event) }
    }

    /// Adds a connection to the hub with its topics (`events.subscribe`).
    func subscribe(_ connection: ConnectionHandle, topics: Set<Topic>) {
        let hub = self.hub
        queue.async { hub.subscribe(connection, topics: topics) }
    }

    /// Hands the answer of one request to its connection.
    func reply(_ connection: ConnectionHandle, _ id: RPCID, _ outcome: DispatchOutcome) {
        queue.async { connection.finish(id, outcome) }
    }

    /// Returns once everything handed to the outbox before this call is carried out.
    func delivered() async {
        await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in queue.async { done.resume() } }
    }

    /// The audit chain's head once every line handed over before is written: what the next record signs.
    func auditHead() async -> String? {
        guard let log else { return nil }
        return await withCheckedContinuation { (head: CheckedContinuation<String?, Never>) in
            queue.async { head.resume(returning: log.head.hex) }
        }
    }
}
