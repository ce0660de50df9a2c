import AgentProtocol
import ConsentCore
import Logging

/// The actor's side of the `FlowTable`: it names a transition of the table (`change`) and carries out what the
/// table hands back (`perform`). Every change of a flow goes through `change`, here or in a handler.
extension AgentCore {
    /// Which completions run, and the `flow.complete` requests in hand, as a graceful stop counts them.
    var completions: CompletionLedger { table.completions }

    /// Carries out what a change of the table says must follow, in order.
    func perform(_ actions: [FlowAction]) {
        for action in actions {
            switch action {
            case .started(let id, let entry):
                logger.info("flow started", metadata: [
                    "flow": "\(id)", "study": "\(entry.session.study.id)", "language": "\(entry.session.study.language)",
                ])
                auditor.started(id, entry.session)
                publishChanged(id, entry)
            case .applied(let consentAction, let id, let mark, let session):
                auditor.applied(consentAction, id, from: mark, to: session)
            case .changed(let id, let entry):
                publishChanged(id, entry)
            case .ended(let id, let entry):
                announceEnd(id, entry)
            case .recordKept(let id, let entry, let receipt):
                logger.info("record written", metadata: ["flow": "\(id)", "record": "\(receipt.id)"])
                auditor.completed(id, entry.session, receipt: receipt)
            case .withdrawalKept(let id, let session, let original):
                auditor.withdrawn(id, session, original: original)
            case .amendmentKept(let id, let session, let original):
                auditor.amended(id, session, original: original)
            case .staffCalled(let id, let entry):
                logger.info("staff called", metadata: ["flow": "\(id)", "step": "\(entry.session.step.rawValue)"])
                auditor.staffCalled(id, entry.session)
                outbox.publish(AgentEvent(.staffCalled, data: .object(staffCallData(id, entry)), clock: eventClock))
            case .staffAnswered(let id, let entry, let waited):
                logger.info("staff call answered", metadata: ["flow": "\(id)"])
                auditor.staffAnswered(id, entry.session)
                var data = staffCallData(id, entry)
                data["waitedSeconds"] = .integer(max(0, waited.components.seconds))
                outbox.publish(AgentEvent(.staffAnswered, data: .object(data), clock: eventClock))
            case .expiring(let id, let deadline, let instant):
                let left = Self.secondsLeft(until: deadline, from: instant)
                outbox.publish(AgentEvent(
                    .flowExpiring, data: ["flow": .string(id), "secondsLeft": .integer(Int64(left))], clock: eventClock))
            case .resume(let waiters):
                for waiter in waiters { waiter.resume() }
            case .log(let level, let message, let metadata):
                logger.log(level: level, message, metadata: metadata)
            }
        }
    }

    /// What `staff.called` and `staff.answered` say: the flow, the kiosk, the screen (its step, and its page or
    /// scene: never what was entered there), when, and who called. No PHI.
    private func staffCallData(_ id: String, _ entry: FlowEntry) -> [String: RPCValue] {
        let session = entry.session
        let wall = eventClock.wallMilliseconds()
        var data: [String: RPCValue] = [
            "flow": .string(id), "kioskId": .string(settings.kioskID), "step": .string(session.step.rawValue),
            "at": .string(EventClock.rfc3339(milliseconds: wall)),
        ]
        switch session.position {
        case .review(let page): data["page"] = .string(page.rawValue)
        case .staff(let progress): data["page"] = .string(progress.page.rawValue)
        case .visual(let scene): data["scene"] = .integer(Int64(scene))
        default: break
        }
        if let call = session.staffCall { data["reason"] = .string(call.reason.rawValue) }
        return data
    }

    /// Announces an ended flow (its end event, then `flow.changed`) and stops its pad capture.
    private func announceEnd(_ id: String, _ entry: FlowEntry) {
        let step = entry.session.step
        logger.info("flow ended", metadata: ["flow": "\(id)", "step": "\(step.rawValue)"])
        auditor.ended(id, entry.session, at: entry.mark, pause: entry.pause?.id)
        switch step {
        case .declined: outbox.publish(AgentEvent(.flowDeclined, data: ["flow": .string(id)], clock: eventClock))
        case .expired: outbox.publish(AgentEvent(.flowExpired, data: ["flow": .string(id)], clock: eventClock))
        case .completed:
            outbox.publish(AgentEvent(
                .flowCompleted, data: ["flow": .string(id), "record": entry.recordID.map(RPCValue.string) ?? .null],
                clock: eventClock))
        default: break
        }
        publishChanged(id, entry)
        if pads.capture(of: id) != nil {
            let pads = self.pads
            Task { await pads.cancelCapture(flow: id) }
        }
    }

    // MARK: Time and connections

    /// Expires every running flow idle for longer than the inactivity timeout, and every flow whose connections
    /// closed longer than the grace ago; warns the UIs of flows about to expire (`flow.expiring`). Returns once
    /// their audit lines and events are out (`Outbox`).
    public func expireIdleFlows() async {
        let instant = now()
        warnExpiringFlows(at: instant)
        let grace = settings.closedConnectionGrace, graceBeforeTheName = settings.closedConnectionGraceBeforeTheName
        change { $0.expireIdle(now: instant, grace: grace, graceBeforeTheName: graceBeforeTheName) }
        await outbox.delivered()
    }

    /// Warns the UIs of every running flow whose inactivity deadline is within the warning time (`flow.expiring`).
    func warnExpiringFlows(at instant: Duration) {
        guard let warning = settings.inactivityWarning, warning > .zero else { return }
        change { $0.warnExpiring(now: instant, warning: warning) }
    }

    /// A connection acted on a running flow: it keeps the flow alive past the close of its other connections.
    func adopt(_ flow: String, by connection: UInt64) {
        change { $0.adopt(flow, by: connection) }
    }

    /// A connection closed: the running flows only it acted on start their grace period.
    public func connectionClosed(_ connection: UInt64) {
        let instant = now()
        change { $0.connectionClosed(connection, now: instant) }
    }

    /// A pad came or went: every running flow on a signing page (the review's or the staff step's) gets
    /// `flow.changed`, with `beginSignature` now offered or withdrawn (`view`).
    func padsChanged() {
        for (id, entry) in flows where !table.isCompleting(id) && entry.session.signingRole != nil {
            publishChanged(id, entry)
        }
    }

    // MARK: A graceful stop

    /// Refuses new completions from now on.
    public func beginShutdown() {
        change { $0.stop() }
    }

    /// Returns once no record is being written, or after `timeout` with records still being written: a stuck
    /// disk must not hold a shutdown forever (systemd would SIGKILL it anyway, without the goodbye to the UIs).
    ///
    /// - Returns: how many `flow.complete` writes are still running (0 when all finished).
    public func waitForCompletions(timeout: Duration) async -> Int {
        guard table.completionsInHand > 0 else { return 0 }
        let waiter = change { $0.newDrainWaiter() }
        let timer = Task {
            try? await Task.sleep(for: timeout)
            self.releaseDrainWaiter(waiter)
        }
        await withCheckedContinuation { continuation in change { $0.parkDrainWaiter(waiter, continuation) } }
        timer.cancel()
        if table.completionsInHand > 0 {
            logger.error("shutdown: records still being written after the bound", metadata: [
                "unfinished": "\(table.completionsInHand)", "timeout": "\(timeout)",
            ])
        }
        return table.completionsInHand
    }

    private func releaseDrainWaiter(_ waiter: UInt64) {
        change { $0.releaseDrainWaiter(waiter) }
    }
}

/// What every flow method does with the table: find a ready flow, apply an action, let a connection drive it.
extension FlowContext {
    /// The flows by id, as the table holds them (read-only: changes go through `change`).
    var flows: [String: FlowEntry] { table.entries }

    /// The flow, ready for an action: known and not being completed.
    func runningEntry(_ id: String) throws -> FlowEntry {
        try table.ready(id)
    }

    /// Applies an action, publishes what changed, and returns the flow's reply.
    func apply(_ action: ConsentAction, to id: String) throws -> RPCValue {
        let instant = now()
        let result = change { $0.apply(action, to: id, now: instant) }
        return flowValue(id, try result.get())
    }

    /// The ready flow, expired first when it has been idle too long (then it is ended and announced).
    func expiringIfIdle(_ id: String) throws -> FlowEntry {
        let instant = now()
        return try change { try $0.expiringIfIdle(id, now: instant) }
    }

    /// Lets `connection` act on `flow` only if it drives it or may take it over (`FlowTable.takeTheWheel`): every
    /// holder of the kiosk's credential reaches the agent as the same peer, so a second page could otherwise type
    /// another name into, or sign, the participant's flow. A staff connection (capability `records`) may cancel any
    /// flow.
    func takeTheWheel(of flow: String, for method: Method, from connection: ConnectionHandle) throws {
        let mayCancel = method == .flowCancel && connection.capabilities.contains(.records), driver = connection.id
        try change { try $0.takeTheWheel(of: flow, by: driver, mayCancel: mayCancel) }
    }
}
