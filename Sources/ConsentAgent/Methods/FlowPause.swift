import AgentProtocol
import ConsentCore
import Foundation
import PausedFlows

/// A paused flow's code and its day, as the flow's view shows them (`FlowEntry.pause`).
struct PauseTicket: Sendable {
    /// The sealed file's id (`PausedFlowStore.id(of:)`): what the audit log names the pause by.
    var id: String
    var code: ResumeCode
    var expires: Date
}

/// What a paused flow's sealed file holds: which study, language and version it was paused on, and where the
/// participant stopped (`PausedConsent`: no name, signature or PIN).
struct PausedFlowState: Codable, Sendable {
    var study: String
    var language: String
    /// The version hash of the language's study files: a resume on another version starts over.
    var version: String
    /// When it was paused (RFC 3339, UTC).
    var pausedAt: String
    var consent: PausedConsent
}

extension AgentCore {
    /// The lock-out's one key for resume codes: a code names no record, so wrong codes are counted for the kiosk.
    static let resumeTriesKey = "resume"

    /// `flow.pause`: "I want to think about it", before the signature. The flow's place and answers are sealed under
    /// a new resume code (`PausedFlowStore`) for `resumeDays` days; only once that is on disk does the flow end
    /// `paused` (its view shows the code), so a failed write leaves the participant where they were.
    ///
    /// - Returns: the flow, with `resumeCode` and `expires`.
    func pauseFlow(_ params: FlowParams) async throws -> RPCValue {
        let id = params.flow
        guard settings.resumeDays > 0 else {
            throw ConsentCoreError(.invalidAction, "pausing is turned off on this kiosk (resumeDays is 0)")
        }
        let point = try change { $0.pausePoint(id, now: now()) }.get()
        guard let entry = flows[id] else { throw AgentError(.unknownFlow, "no flow has this id; start one with flow.start") }
        let study = entry.session.study
        let wall = eventClock.wallMilliseconds()
        let state = PausedFlowState(
            study: study.id, language: study.language, version: study.version,
            pausedAt: EventClock.rfc3339(milliseconds: wall), consent: point)
        let bytes = try JSONEncoder().encode(state)
        let code = ResumeCode.random()
        let expires = Date(timeIntervalSince1970: Double(wall) / 1000 + Double(settings.resumeDays) * 86_400)
        let store = pausedFlows
        let fileID: String
        do {
            fileID = try await disk.run { try store.seal(bytes, code: code, expires: expires) }
        } catch {
            logger.error("flow.pause: the paused flow could not be kept", metadata: ["flow": "\(id)", "error": "\(error)"])
            throw AgentError(.recordFailed, "the paused flow could not be kept on this kiosk; the flow goes on where it was")
        }
        let ticket = PauseTicket(id: fileID, code: code, expires: expires)
        let ended: FlowEntry
        do {
            ended = try change { $0.pause(id, at: point, ticket: ticket, now: now()) }.get()
        } catch {
            // Moved on (or ended) while the file was written: its place would be stale.
            _ = try? await disk.run { try store.remove(fileID) }
            throw error
        }
        guard case .object(var value) = flowValue(id, ended) else { return flowValue(id, ended) }
        value["resumeCode"] = .string(code.description)
        value["expires"] = .string(Self.rfc3339(expires))
        return .object(value)
    }

    /// `flow.start {resume}`: the paused flow of the code, on its study in its language; where it stopped when the
    /// version is the same, else from the beginning (its first screen says which). A code is used once: its file
    /// is deleted when the new flow starts. A wrong or expired code is `UnknownResumeCode`, counted like a wrong
    /// withdrawal passcode (five in a row lock resuming on this kiosk for 15 minutes: `PasscodeLocked`).
    func resumeFlow(_ typed: String, _ connection: ConnectionHandle) async throws -> RPCValue {
        let (seconds, attoseconds) = now().components
        let instant = Double(seconds) + Double(attoseconds) / 1e18
        guard case .counted = resumeTries.admit(Self.resumeTriesKey, now: instant) else {
            throw AgentError(.passcodeLocked, "too many wrong resume codes on this kiosk; staff can help, or try again later")
        }
        let store = pausedFlows, wall = Date(timeIntervalSince1970: Double(eventClock.wallMilliseconds()) / 1000)
        var opened: PausedFlowStore.Opened?
        if let code = ResumeCode(typed: typed) {
            do {
                opened = try await disk.run { try store.open(code, now: wall) }
            } catch {
                logger.error("flow.start: the pause key cannot be read", metadata: ["error": "\(error)"])
                throw AgentError(.recordFailed, "the kiosk cannot read its paused flows; ask staff")
            }
        }
        guard let opened, let state = try? JSONDecoder().decode(PausedFlowState.self, from: opened.state) else {
            logger.notice("unknown resume code", metadata: ["failures": "\(resumeTries.failures(Self.resumeTriesKey, now: instant))"])
            throw AgentError(.unknownResumeCode, "no paused flow has this code, or its day has passed; check it, or start again")
        }
        resumeTries.reset(Self.resumeTriesKey)
        guard let served = studies.first(where: { $0.id == state.study }) else {
            throw AgentError(.unknownStudy, "the paused flow's study is no longer served by this agent")
        }
        var study = served.inLanguage(state.language) ?? served
        study.approval = try admit(study)
        guard !table.isStopping else { throw AgentError(.shuttingDown, "the agent is shutting down") }
        guard table.hasRoom else {
            throw AgentError(.overloaded, "the agent runs as many flows as it may (maxFlows); end or cancel one, or retry later")
        }
        let id = Self.makeFlowID()
        let session = ConsentSession.resuming(
            state.consent, sameVersion: study.version == state.version, id: id, study: study, now: now(),
            inactivityTimeout: settings.inactivityTimeout, staffCountersignature: staff != nil)
        let entry = FlowEntry(session: session, driver: connection.id)
        let driver = connection.id, started = now()
        change { $0.start(id, entry, by: driver, now: started) }
        auditor.resumed(id, session, pause: opened.id, continued: session.resumption == .continued)
        logger.info("paused flow resumed", metadata: [
            "flow": "\(id)", "pause": "\(opened.id)", "outcome": "\(session.resumption?.rawValue ?? "-")",
        ])
        do {
            try await disk.run { try store.remove(opened.id) }
        } catch {
            // The new flow runs; the code would open the same place again until its day.
            logger.error("the resumed flow's sealed file could not be deleted", metadata: ["pause": "\(opened.id)"])
        }
        return flowValue(id, entry)
    }

    /// Deletes the paused flows past their day (audit line each, no PHI): at start, then from the expiry timer at
    /// most once a minute.
    public func prunePausedFlows() async {
        let instant = now()
        if let last = lastPausePrune, instant - last < .seconds(60) { return }
        lastPausePrune = instant
        let store = pausedFlows, wall = Date(timeIntervalSince1970: Double(eventClock.wallMilliseconds()) / 1000)
        guard let deleted = try? await disk.run({ store.pruneExpired(now: wall) }), !deleted.isEmpty else { return }
        logger.info("expired paused flows deleted", metadata: ["count": "\(deleted.count)"])
        auditor.pausesExpired(deleted)
        await outbox.delivered()
    }

    /// The paused view of a paused flow: its code and the day it works until, in the flow's language.
    func addPause(to model: inout StepViewModel, _ entry: FlowEntry) {
        guard entry.session.step == .paused, let ticket = entry.pause else { return }
        let study = entry.session.study
        let screens = ScreenTexts(language: study.language)
        let day = settings.dates.text(ticket.expires, language: study.texts.language)
        model.paused = StepViewModel.PausedView(
            code: ticket.code.description, codeLabel: screens.pausedCodeLabel, expires: Self.rfc3339(ticket.expires),
            text: screens.pausedUntil(date: day))
    }

    static func rfc3339(_ date: Date) -> String {
        EventClock.rfc3339(milliseconds: Int64((date.timeIntervalSince1970 * 1000).rounded(.down)))
    }
}
