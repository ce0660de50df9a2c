import AgentProtocol
import ConsentCore
import Foundation
import Logging

/// Every flow the agent holds, as one value: the flows by id, which of them ended, which connections keep each
/// one alive, which completed flows still hold their copy's PDF, and the `CompletionLedger`, the one record of
/// which completions and withdrawals run.
///
/// The actor (`AgentCore`) owns one. Its storage is private: a flow changes only through one of the named
/// transitions below (`start`, `apply`, `extend`, `beginCompleting`, `recordKept`, …), which change the table and
/// hand back what must follow (`FlowAction`: an event, an audit line, a log line, a capture to cancel, waiters to
/// resume) for the actor to carry out (`FlowContext.change`), in the manner of swift-nio's state machines: nothing
/// here does I/O, and the time is passed in. No caller takes an entry out, changes it and stores it back.
struct FlowTable {
    /// The running flows and the last ended ones (kept, wiped, for `flow.get`), by id.
    private var byID: [String: FlowEntry] = [:]
    /// Ended flows, oldest first.
    private var ended: [String] = []
    /// The connections that acted on each running flow (started it or sent a request naming it).
    private var connections: [String: Set<UInt64>] = [:]
    /// Running flows whose connections have all closed, with when the last one closed.
    private var orphanedSince: [String: Duration] = [:]
    /// The completed flows whose copy still holds its PDF, oldest first (`holdCopy`).
    private var heldCopies: [String] = []
    /// The last connections that closed, newest last: a `flow.start` of one of them may still be on its way (it
    /// awaits the verification of a record), and its flow must not be driven by a connection that is gone.
    private var recentlyClosed: [UInt64] = []
    /// Which completions and withdrawals run, and the `flow.complete` requests in hand.
    private var ledger = CompletionLedger()
    /// Ended flows are kept until this many have ended.
    let maximumEnded: Int
    /// At most this many flows run at once.
    let maximumRunning: Int

    /// How many completed flows keep their copy's PDF for `copy.print`: the kiosk's last few participants.
    static let maximumHeldCopies = 4

    init(maximumEnded: Int, maximumRunning: Int) {
        self.maximumEnded = maximumEnded
        self.maximumRunning = maximumRunning
    }

    // MARK: Reading

    subscript(id: String) -> FlowEntry? { byID[id] }

    /// Every flow held, by id (a copy: changes go through the transitions).
    var entries: [String: FlowEntry] { byID }

    /// Which completions and withdrawals run (a copy: changes go through the completion transitions).
    var completions: CompletionLedger { ledger }

    /// Whether the flow's record is being written.
    func isCompleting(_ id: String) -> Bool { ledger.isCompleting(id) }

    /// Whether a running completion withdraws `record`.
    func isWithdrawing(_ record: String) -> Bool { ledger.isWithdrawing(record) }

    /// How many withdrawals this agent has kept (`CompletionLedger.withdrawalsKept`).
    var withdrawalsKept: Int { ledger.withdrawalsKept }
    /// Whether a running completion changes `record`'s answers (`CompletionLedger.isAmending`).
    func isAmending(_ record: String) -> Bool { ledger.isAmending(record) }
    /// How many changes of answers this agent has kept (`CompletionLedger.amendmentsKept`).
    var amendmentsKept: Int { ledger.amendmentsKept }

    /// Set once the agent stops: `flow.start` and `flow.complete` are refused from then on.
    var isStopping: Bool { ledger.isStopping }

    /// How many `flow.complete` requests are in hand.
    var completionsInHand: Int { ledger.inFlight }

    /// The flows that have not ended, by id.
    var running: [(id: String, entry: FlowEntry)] {
        byID.filter { !$0.value.session.step.isFinished }.map { (id: $0.key, entry: $0.value) }
    }

    /// Whether another flow may start (`maxFlows`).
    var hasRoom: Bool { running.count < maximumRunning }

    /// The flow, ready for an action: known and not being completed.
    func ready(_ id: String) throws -> FlowEntry {
        guard let entry = byID[id] else {
            throw AgentError(.unknownFlow, "no flow has this id; start one with flow.start")
        }
        guard !isCompleting(id) else {
            throw AgentError(.flowBusy, "the flow is being completed; wait for the flow.complete reply")
        }
        return entry
    }

    // MARK: Transitions of one flow

    /// A new flow, driven by `connection`; when that connection closed meanwhile, driven by none and orphaned
    /// from `now` on, as if it had closed just after.
    mutating func start(_ id: String, _ entry: FlowEntry, by connection: UInt64, now: Duration) -> [FlowAction] {
        var entry = entry
        if recentlyClosed.contains(connection) {
            entry.driver = nil
            byID[id] = entry
            orphanedSince[id] = now
        } else {
            byID[id] = entry
            _ = adopt(id, by: connection)
        }
        return [.started(id, entry)]
    }

    /// Keeps the flow as it is now and tells its UIs (`flow.changed`).
    private mutating func update(_ id: String, _ entry: FlowEntry) -> [FlowAction] {
        byID[id] = entry
        return [.changed(id, entry)]
    }

    /// Keeps the flow, now ended, and forgets the oldest ended flows beyond `maximumEnded`.
    private mutating func end(_ id: String, _ entry: FlowEntry) -> [FlowAction] {
        byID[id] = entry
        connections[id] = nil
        orphanedSince[id] = nil
        ended.append(id)
        while ended.count > maximumEnded {
            byID.removeValue(forKey: ended.removeFirst())
        }
        return [.ended(id, entry)]
    }

    /// Applies a participant's or staff member's action to a ready flow.
    ///
    /// - Returns: the flow after it, or why it was refused (an action that found the flow expired ends it), and
    ///   what must follow either way.
    mutating func apply(_ action: ConsentAction, to id: String, now: Duration) -> FlowChange<Result<FlowEntry, any Error>> {
        var entry: FlowEntry
        do { entry = try ready(id) } catch { return FlowChange(.failure(error)) }
        let before = entry.session.step
        let mark = entry.mark
        let wasCalled = entry.session.staffCall != nil
        do {
            try entry.session.apply(action, now: now)
        } catch {
            // An action that found the flow expired records and announces that.
            return FlowChange(.failure(error), entry.session.step != before ? end(id, entry) : [])
        }
        var actions: [FlowAction] = [.applied(action, id, from: mark, entry.session)]
        // The comprehension check that stopped called a member of staff (`ConsentSession.apply`).
        if wasCalled == false, entry.session.staffCall != nil, !entry.session.step.isFinished {
            actions.append(.staffCalled(id, entry))
        }
        if !entry.session.step.isFinished { entry.mark = FlowMark(entry.session) }
        if entry.session.step != before {
            actions.append(.log(.info, "flow step", ["flow": "\(id)", "step": "\(entry.session.step.rawValue)"]))
        }
        actions += entry.session.step.isFinished ? end(id, entry) : update(id, entry)
        return FlowChange(.success(entry), actions)
    }

    /// The ready flow, expired first when it has been idle too long (then it is ended, and the caller refuses).
    mutating func expiringIfIdle(_ id: String, now: Duration) throws -> FlowChange<FlowEntry> {
        var entry = try ready(id)
        guard entry.session.expireIfIdle(now: now) else { return FlowChange(entry) }
        return FlowChange(entry, end(id, entry))
    }

    /// `flow.extend`: the ready flow's inactivity clock starts again and its expiry may be warned of again; nothing
    /// else changes, so no `flow.changed` follows. A flow that expired before the request came is ended and refused.
    mutating func extend(_ id: String, now: Duration) -> FlowChange<Result<FlowEntry, any Error>> {
        var entry: FlowEntry
        do { entry = try ready(id) } catch { return FlowChange(.failure(error)) }
        // Only the request that finds the flow expiring ends it: one that comes after the wipe (the entry is kept for
        // flow.get) is refused without ending it again, which would write a second `expired` audit line, publish
        // flow.expired again and push other ended flows, copies held for printing among them, out of the table.
        let before = entry.session.step
        do {
            try entry.session.extend(now: now)
        } catch {
            return FlowChange(.failure(error), entry.session.step != before ? end(id, entry) : [])
        }
        entry.warnedDeadline = nil
        byID[id] = entry
        return FlowChange(.success(entry), [.log(.debug, "flow extended", ["flow": "\(id)"])])
    }

    /// `staff.call`: a member of staff is called for the ready flow; one already called stays called, and nothing
    /// follows. A flow that expired before the request came is ended and refused.
    mutating func callStaff(_ id: String, now: Duration) -> FlowChange<Result<FlowEntry, any Error>> {
        var entry: FlowEntry
        do { entry = try ready(id) } catch { return FlowChange(.failure(error)) }
        let before = entry.session.step
        let opened: Bool
        do {
            opened = try entry.session.callStaff(now: now)
        } catch {
            return FlowChange(.failure(error), entry.session.step != before ? end(id, entry) : [])
        }
        guard opened else { return FlowChange(.success(entry)) }
        return FlowChange(.success(entry), [.staffCalled(id, entry)] + update(id, entry))
    }

    /// `staff.answer`: the flow's call is closed and its inactivity clock starts again (warned of again when it
    /// comes near); a flow without an open call is left as it is.
    mutating func answerStaff(_ id: String, now: Duration) -> FlowChange<Result<FlowEntry, any Error>> {
        var entry: FlowEntry
        do { entry = try ready(id) } catch { return FlowChange(.failure(error)) }
        let call: StaffCall?
        do { call = try entry.session.answerStaff(now: now) } catch { return FlowChange(.failure(error)) }
        guard let call else { return FlowChange(.success(entry)) }
        entry.warnedDeadline = nil
        return FlowChange(.success(entry), [.staffAnswered(id, entry, waited: now - call.since)] + update(id, entry))
    }

    /// `flow.pause`, first half: what the ready flow would seal where it is, without ending it (one that expired
    /// before the request came is ended and refused).
    mutating func pausePoint(_ id: String, now: Duration) -> FlowChange<Result<PausedConsent, any Error>> {
        var entry: FlowEntry
        do { entry = try ready(id) } catch { return FlowChange(.failure(error)) }
        let before = entry.session.step
        do {
            let point = try entry.session.pausePoint(now: now)
            return FlowChange(.success(point))
        } catch {
            return FlowChange(.failure(error), entry.session.step != before ? end(id, entry) : [])
        }
    }

    /// `flow.pause`, second half, once `point` is sealed on disk as `ticket`: the flow ends `paused`, its view
    /// showing the code. Refused when the flow moved since `point` (the sealed place would be stale).
    mutating func pause(
        _ id: String, at point: PausedConsent, ticket: PauseTicket, now: Duration
    ) -> FlowChange<Result<FlowEntry, any Error>> {
        var entry: FlowEntry
        do { entry = try ready(id) } catch { return FlowChange(.failure(error)) }
        let before = entry.session.step
        do {
            try entry.session.pause(at: point, now: now)
        } catch {
            return FlowChange(.failure(error), entry.session.step != before ? end(id, entry) : [])
        }
        // The audit's "ended at" is where it was paused: `mark` is left as the last action set it.
        entry.pause = ticket
        return FlowChange(.success(entry), end(id, entry))
    }

    // MARK: Transitions of a completion (the ledger's steps)

    /// The flow's record is about to be written: from now on nothing else may act on it (`FlowBusy`), and it does
    /// not expire.
    mutating func beginCompleting(_ id: String) throws -> [FlowAction] {
        _ = try ready(id)
        ledger.begin(id)
        return []
    }

    /// The completing flow withdraws `record`: until it ends, the record counts as withdrawn (`isWithdrawing`).
    mutating func claimWithdrawal(of record: String, by id: String) -> [FlowAction] {
        ledger.claim(record, by: id)
        return []
    }

    /// The completing flow changes `record`'s answers: until it ends, the record counts as amended (`isAmending`).
    mutating func claimAmendment(of record: String, by id: String) -> [FlowAction] {
        ledger.claimAmendment(record, by: id)
        return []
    }

    /// The completion kept no record (refused or failed): the flow is as it was, to retry, and a withdrawal it
    /// claimed is let go.
    mutating func abandonCompleting(_ id: String) -> [FlowAction] {
        ledger.abandon(id)
        return []
    }

    /// The completing flow's record is durable (`receipt`): the flow is completed with its record, holds its copy
    /// (`holdCopy`), is audited as completed and, when it withdraws a record or changes its answers, as that
    /// withdrawal or change, and ends. A flow that is not at the end of its consent cannot be completed: the
    /// completion is abandoned and that is thrown.
    mutating func recordKept(_ id: String, _ receipt: RecordReceipt, copy: ParticipantCopy?) throws -> FlowChange<FlowEntry> {
        guard isCompleting(id), var entry = byID[id] else {
            ledger.abandon(id)
            throw AgentError(.unknownFlow, "no flow with this id is being completed")
        }
        entry.recordID = receipt.id
        entry.copy = copy
        do { try entry.session.markCompleted() } catch {
            ledger.abandon(id)
            throw error
        }
        byID[id] = entry
        var actions = copy.map { holdCopy($0, of: id) } ?? []
        actions.append(.recordKept(id, entry, receipt))
        let claimed = ledger.kept(id)
        if let withdrawn = claimed.withdrew { actions.append(.withdrawalKept(id, entry.session, original: withdrawn)) }
        if let amended = claimed.amended { actions.append(.amendmentKept(id, entry.session, original: amended)) }
        actions += end(id, entry)
        return FlowChange(entry, actions)
    }

    // MARK: Time

    /// Expires every running flow idle for longer than its inactivity timeout, and every flow whose connections
    /// closed longer than `grace` ago, or `graceBeforeTheName` for a flow that has not reached the name (at most
    /// `grace`): a UI whose connection closed that early (a crashed loop of `flow.start`s, 200 of them, held every
    /// `maxFlows` slot for a minute) lets its slot go in seconds, while a participant who has typed their name keeps
    /// the time a reloaded UI needs to take the flow up again. A flow being completed is left alone: its record is
    /// being written.
    mutating func expireIdle(now: Duration, grace: Duration, graceBeforeTheName: Duration) -> [FlowAction] {
        var actions: [FlowAction] = []
        for (id, var entry) in byID where !entry.session.step.isFinished && !isCompleting(id) {
            var expired = entry.session.expireIfIdle(now: now)
            let orphanGrace = entry.session.isBeforeTheName ? min(grace, graceBeforeTheName) : grace
            if !expired, let since = orphanedSince[id], now - since >= orphanGrace {
                expired = entry.session.expireNow()
                if expired { actions.append(.log(.info, "flow expired: its connections closed", ["flow": "\(id)"])) }
            }
            guard expired else { continue }
            actions += end(id, entry)
        }
        return actions
    }

    /// Marks every running flow whose inactivity deadline is within `warning` of `now` as warned, once per
    /// deadline (an action or `flow.extend` moves the deadline, and the next approach warns again).
    mutating func warnExpiring(now: Duration, warning: Duration) -> [FlowAction] {
        var actions: [FlowAction] = []
        // A flow waiting for a member of staff does not expire, so nothing is warned of.
        for (id, entry) in byID where !entry.session.step.isFinished && !isCompleting(id) && entry.session.staffCall == nil {
            let deadline = entry.session.deadline
            guard deadline - now <= warning, deadline > now, entry.warnedDeadline != deadline else { continue }
            byID[id]?.warnedDeadline = deadline
            actions.append(.expiring(id, deadline: deadline, instant: now))
        }
        return actions
    }

    // MARK: Connections

    /// Lets `connection` act on `flow` only if it drives it, or may take it over (Protocol/README.md, "Who may act
    /// on a flow"): the flow's driver is the connection that started it; when that connection closed, the next
    /// connection that acts on the flow drives it. `mayCancel`: a staff connection cancelling, which may act on any
    /// flow. Unknown and finished flows pass: the method answers them with its own error.
    mutating func takeTheWheel(of flow: String, by connection: UInt64, mayCancel: Bool) throws -> [FlowAction] {
        guard let entry = byID[flow], !entry.session.step.isFinished else { return [] }
        switch entry.driver {
        case connection:
            return []
        case nil:
            byID[flow]?.driver = connection
            return [.log(.info, "flow taken over by another connection", ["flow": "\(flow)"])]
        case .some:
            if mayCancel { return [] }
            throw AgentError(
                .flowDrivenElsewhere,
                "another connection drives this flow; this one may observe it (flow.get, events) but not act on it")
        }
    }

    /// A connection acted on a running flow: it keeps the flow alive past the close of its other connections.
    mutating func adopt(_ flow: String, by connection: UInt64) -> [FlowAction] {
        guard let entry = byID[flow], !entry.session.step.isFinished else { return [] }
        connections[flow, default: []].insert(connection)
        orphanedSince[flow] = nil
        return []
    }

    /// A connection closed: its flows have no driver until a connection acts on them again, and the running flows
    /// only it acted on start their grace period.
    mutating func connectionClosed(_ connection: UInt64, now: Duration) -> [FlowAction] {
        recentlyClosed.append(connection)
        if recentlyClosed.count > 64 { recentlyClosed.removeFirst() }
        for (id, entry) in byID where entry.driver == connection {
            byID[id]?.driver = nil
        }
        for (flow, var owners) in connections where owners.contains(connection) {
            owners.remove(connection)
            if owners.isEmpty {
                connections[flow] = nil
                orphanedSince[flow] = now
            } else {
                connections[flow] = owners
            }
        }
        return []
    }

    // MARK: The participant's copy

    /// Keeps the copy of a flow just completed, and lets go of the PDF of the oldest copies still held beyond
    /// `maximumHeldCopies`: an unprinted copy is PHI in memory, and a participant who walked away never asks.
    private mutating func holdCopy(_ copy: ParticipantCopy, of id: String) -> [FlowAction] {
        byID[id]?.copy = copy
        heldCopies.append(id)
        var actions: [FlowAction] = []
        while heldCopies.count > Self.maximumHeldCopies {
            let oldest = heldCopies.removeFirst()
            if byID[oldest]?.copy?.state == .notPrinted || byID[oldest]?.copy?.state == .failed {
                byID[oldest]?.copy = nil
                actions.append(.log(.info, "the participant's copy is no longer held", ["flow": "\(oldest)"]))
            }
        }
        return actions
    }

    /// The copy is printing, printed or failed (`job`: CUPS's number for it, once known; `reason`: why it failed).
    mutating func setCopyState(
        _ id: String, _ state: ParticipantCopy.State, job: Int?, reason: ParticipantCopy.Reason? = nil
    ) -> [FlowAction] {
        guard var entry = byID[id], entry.copy != nil else { return [] }
        entry.copy?.state = state
        entry.copy?.reason = state == .failed ? reason : nil
        if let job { entry.copy?.job = job }
        return update(id, entry)
    }

    /// CUPS has the document: the agent keeps no copy of it longer than it must.
    mutating func dropCopyPDF(of id: String) -> [FlowAction] {
        byID[id]?.copy?.pdf = .init()
        return []
    }

    // MARK: Requests in hand, for a graceful stop

    /// Refuses new flows and completions from now on.
    mutating func stop() -> [FlowAction] {
        ledger.stop()
        return []
    }

    /// A `flow.complete` request reached the core.
    mutating func completionRequestArrived() -> [FlowAction] {
        ledger.requestArrived()
        return []
    }

    /// A `flow.complete` request was answered (written, refused or failed).
    mutating func completionRequestAnswered() -> [FlowAction] {
        let waiters = ledger.requestAnswered()
        return waiters.isEmpty ? [] : [.resume(waiters)]
    }

    /// A number for a stop about to wait for the requests in hand, so its timeout can take out that one alone.
    mutating func newDrainWaiter() -> FlowChange<UInt64> {
        FlowChange(ledger.newWaiter())
    }

    mutating func parkDrainWaiter(_ waiter: UInt64, _ continuation: CheckedContinuation<Void, Never>) -> [FlowAction] {
        ledger.park(waiter, continuation)
        return []
    }

    /// The waiter's timeout passed: it is resumed at once (nothing when it was resumed already).
    mutating func releaseDrainWaiter(_ waiter: UInt64) -> [FlowAction] {
        ledger.release(waiter).map { [.resume([$0])] } ?? []
    }
}
