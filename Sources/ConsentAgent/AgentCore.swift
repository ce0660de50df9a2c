import AgentProtocol
import AuditTrail
import ConsentCore
import CopyPrinting
import FileBytes
import StaffCredentials
import Foundation
import HTMLSanitizer
import Logging
import Speech

/// The consent flows of this agent and everything that acts on them, serialised by the actor.
///
/// Connections hand it requests (`handle`, in `AgentCore+Dispatch.swift`, which routes each method to its params
/// type and handler in `Methods/`); it answers each through the connection's handle *before* returning, from inside the actor, so a reply is always delivered after the
/// events the same step published (both hop onto the connection's loop in order). Time is injected: `now` is a
/// monotonic `Duration` and the inactivity expiry runs from `expireIdleFlows()`, which the service calls on a
/// timer and tests call directly.
public actor AgentCore {
    public struct Settings: Sendable {
        /// A flow with no accepted action for this long expires (and forgets what it collected).
        public var inactivityTimeout: Duration
        /// This long before a flow expires, its UIs get `flow.expiring` (nil: no warning); `flow.extend` gives more.
        public var inactivityWarning: Duration?
        /// Fewer points than this is `SignatureTooShort`: a tap or a dot is not a signature.
        public var minimumSignaturePoints: Int
        /// Less ink than this, in widths of the signing area, is `SignatureTooShort` for UI-drawn strokes too.
        public var minimumInkLength: Double
        /// Ended flows are kept (wiped) for `flow.get` until this many have ended.
        public var maximumEndedFlows: Int
        /// The state directory; records live in `<stateDirectory>/records/<id>/`.
        public var stateDirectory: URL
        /// At most this many flows run at once (`maxFlows`); `flow.start` beyond it is `Overloaded`. It also bounds
        /// the `events.subscribe` snapshot, which lists the running flows.
        public var maximumFlows: Int
        /// A running flow whose every connection has closed expires this long after the last one closed
        /// (`closedConnectionFlowGraceSeconds`), unless a connection acts on it again meanwhile.
        public var closedConnectionGrace: Duration
        /// How the withdrawal and re-consent texts write the day the earlier record was signed: in the configured
        /// `timeZone`, with the configured `locale`'s regional conventions for the flow's language.
        public var dates: ParticipantDateStyle

        public init(
            inactivityTimeout: Duration = ConsentSession.defaultInactivityTimeout, minimumSignaturePoints: Int = 10,
            maximumEndedFlows: Int = 256, stateDirectory: URL, minimumInkLength: Double = 0.15,
            maximumFlows: Int = 64, closedConnectionGrace: Duration = .seconds(60),
            dates: ParticipantDateStyle = ParticipantDateStyle(), inactivityWarning: Duration? = nil
        ) {
            self.dates = dates
            // A warning as long as the timeout or longer would come at once; then it comes halfway.
            self.inactivityWarning = inactivityWarning.map { $0 < inactivityTimeout ? $0 : inactivityTimeout / 2 }
            self.minimumInkLength = minimumInkLength
            self.inactivityTimeout = inactivityTimeout
            self.minimumSignaturePoints = minimumSignaturePoints
            self.maximumEndedFlows = maximumEndedFlows
            self.stateDirectory = stateDirectory
            self.maximumFlows = maximumFlows
            self.closedConnectionGrace = closedConnectionGrace
        }
    }

    struct FlowEntry {
        var session: ConsentSession
        /// `flow.complete` is writing the record; nothing else may touch the flow meanwhile.
        var isCompleting = false
        var recordID: String?
        /// Where the flow stood after its last accepted action (the audit trail's "ended at").
        var mark: FlowMark
        /// The connection that started the flow: the only one that sees the eligibility answers (`FlowVisibility`).
        var driver: UInt64?
        /// The participant's copy, once the record is written and a printer is set (PHI: dropped with the flow).
        var copy: ParticipantCopy?
        /// The inactivity deadline `flow.expiring` was sent for (`warnExpiringFlows`), so it is sent once per deadline.
        var warnedDeadline: Duration?

        init(session: ConsentSession, driver: UInt64? = nil) {
            self.session = session
            self.mark = FlowMark(session)
            self.driver = driver
        }
    }

    /// The studies served (one per id; each language the version served for it); a reload replaces them.
    var studies: [Study]
    let settings: Settings
    nonisolated let hub: EventHub
    let recordMaker: (any RecordMaking)?
    nonisolated let pads: any PadProviding
    let now: @Sendable () -> Duration
    /// Read-aloud's synthesizer (`speech.get`); nil: the kiosk does not speak (`SpeechUnavailable`).
    let speech: SpeechSynthesizer?
    let eventClock: EventClock
    let auditor: FlowAuditor
    var logger: Logger

    var flows: [String: FlowEntry] = [:]
    var endedFlows: [String] = []
    /// Sanitised study HTML, by study, language and the HTML as the study has it (a fixed, finite set).
    var sanitizedHTML: [String: String] = [:]
    /// The running completions, for a graceful stop.
    var completions = CompletionDrain()
    /// Wrong withdrawal PINs by record id.
    var passcodeAttempts: [String: PasscodeAttempts] = [:]
    /// The records this agent wrote (read for withdrawal, re-consent and `records.get`).
    var records: RecordStore
    /// Flows whose completion a stop interrupted after their record was kept (found at start by
    /// `CompletionRecovery`), by flow id: `flow.get` tells a reconnecting UI their record instead of `UnknownFlow`.
    var keptBeforeRestart: [String: String] = [:]
    /// The connections that acted on each running flow (started it or sent a request naming it).
    var flowConnections: [String: Set<UInt64>] = [:]
    /// Running flows whose connections have all closed, with when the last one closed.
    var orphanedSince: [String: Duration] = [:]
    /// Where and when the participant's copy is printed (nil: never), and the CUPS destination it is printed on.
    let printing: PrintSettings?
    let printer: CopyPrinter?
    /// CUPS's number of the last copy sent, and its last state seen, for the staff page.
    var lastCopyJob: Int?
    var lastCopyJobState: PrinterStatus.JobState?
    /// The completed flows whose copy still holds its PDF, oldest first (`holdCopy`).
    var heldCopies: [String] = []
    /// The person obtaining consent's countersignature (`staffCountersignature: required`); nil: off.
    let staff: StaffSettings?
    /// Wrong staff PINs by staff id, kept in the state directory (`StaffLockout`).
    var staffLockout: StaffLockout?
    /// How study approvals are checked (`approvalKeys`); nil: they are not.
    var approvalPolicy: ApprovalPolicy?
    /// The approvals whose coming expiry was audited, by study folder, language and day (one line a day each).
    var expiryAudited: Set<String> = []

    public init(
        studies: [Study], settings: Settings, hub: EventHub, recordMaker: (any RecordMaking)?,
        pads: any PadProviding = NoPadProvider(), auditLog: AuditLog? = nil, logger: Logger,
        eventClock: EventClock = .system, now: (@Sendable () -> Duration)? = nil, keptBeforeRestart: [String: String] = [:],
        printing: PrintSettings? = nil, staff: StaffSettings? = nil, speech: SpeechSynthesizer? = .shared,
        approvalPolicy: ApprovalPolicy? = nil
    ) {
        self.staff = staff
        self.staffLockout = staff.map {
            StaffLockout(path: $0.lockoutStatePath ?? StateLayout(root: settings.stateDirectory.path).staffLockout,
                duration: $0.lockoutSeconds)
        }
        self.speech = speech
        self.approvalPolicy = approvalPolicy
        self.keptBeforeRestart = keptBeforeRestart
        self.printing = printing
        self.printer = printing.map { CopyPrinter(destination: $0.destination) }
        precondition(!studies.isEmpty, "the agent needs at least one study")
        self.studies = studies
        self.settings = settings
        self.hub = hub
        self.recordMaker = recordMaker
        self.records = RecordStore(stateDirectory: settings.stateDirectory)
        self.pads = pads
        // Pad ink and hot-plug go straight to the hub from the pad's own thread, never through the actor, so they
        // never wait behind a record being written.
        pads.publishEvents(to: hub)
        self.logger = logger
        self.auditor = FlowAuditor(log: auditLog, logger: logger)
        self.eventClock = eventClock
        let start = ContinuousClock.now
        self.now = now ?? { ContinuousClock.now - start }
        // A pad plugged in or out changes the actions of the flows on a signing page (`view`): tell their UIs. The
        // provider calls from its own thread; the hop onto the actor keeps it off the pad's path.
        pads.onPadsChanged { [weak self] in
            Task { await self?.padsChanged() }
        }
    }

    // MARK: Lifecycle

    /// Expires every running flow idle for longer than the inactivity timeout, and every flow whose connections
    /// closed longer than the grace ago; warns the UIs of flows about to expire (`flow.expiring`).
    public func expireIdleFlows() {
        let instant = now()
        warnExpiringFlows(at: instant)
        for (id, var entry) in flows where !entry.session.step.isFinished && !entry.isCompleting {
            var expired = entry.session.expireIfIdle(now: instant)
            if !expired, let since = orphanedSince[id], instant - since >= settings.closedConnectionGrace {
                expired = entry.session.expireNow()
                if expired { logger.info("flow expired: its connections closed", metadata: ["flow": "\(id)"]) }
            }
            guard expired else { continue }
            flows[id] = entry
            flowEnded(id, entry)
        }
    }

    /// Lets `connection` act on `flow` only if it drives it, or may take it over (Protocol/README.md, "Who may act on
    /// a flow"): every holder of the kiosk's credential reaches the agent as the same peer, so a second page could
    /// otherwise type another name into, or sign, the participant's flow. The flow's driver is the connection that
    /// started it; when that connection closes (a reload, a bridge restart), the next connection that acts on the
    /// flow drives it. A staff connection (capability `records`) may cancel any flow. Unknown and finished flows
    /// pass: the method answers them with its own error.
    func takeTheWheel(of flow: String, for method: Method, from connection: ConnectionHandle) throws {
        guard var entry = flows[flow], !entry.session.step.isFinished else { return }
        switch entry.driver {
        case connection.id:
            return
        case nil:
            entry.driver = connection.id
            flows[flow] = entry
            logger.info("flow taken over by another connection", metadata: ["flow": "\(flow)"])
        case .some:
            if method == .flowCancel, connection.capabilities.contains(.records) { return }
            throw AgentError(
                .flowDrivenElsewhere,
                "another connection drives this flow; this one may observe it (flow.get, events) but not act on it")
        }
    }

    /// A connection acted on a running flow: it keeps the flow alive past the close of its other connections.
    func adopt(_ flow: String, by connection: UInt64) {
        guard let entry = flows[flow], !entry.session.step.isFinished else { return }
        flowConnections[flow, default: []].insert(connection)
        orphanedSince[flow] = nil
    }

    /// A connection closed: the running flows only it acted on start their grace period.
    public func connectionClosed(_ connection: UInt64) {
        let instant = now()
        // Its flows have no driver until a connection acts on them again (`takeTheWheel`).
        for (id, entry) in flows where entry.driver == connection {
            flows[id]?.driver = nil
        }
        for (flow, var owners) in flowConnections where owners.contains(connection) {
            owners.remove(connection)
            if owners.isEmpty {
                flowConnections[flow] = nil
                orphanedSince[flow] = instant
            } else {
                flowConnections[flow] = owners
            }
        }
    }

    /// Refuses new completions from now on.
    public func beginShutdown() {
        completions.stop()
    }

    /// Returns once no record is being written, or after `timeout` with records still being written: a stuck
    /// disk must not hold a shutdown forever (systemd would SIGKILL it anyway, without the goodbye to the UIs).
    ///
    /// - Returns: how many `flow.complete` writes are still running (0 when all finished).
    public func waitForCompletions(timeout: Duration) async -> Int {
        guard completions.inFlight > 0 else { return 0 }
        let waiter = completions.newWaiter()
        let timer = Task {
            try? await Task.sleep(for: timeout)
            self.releaseDrainWaiter(waiter)
        }
        await withCheckedContinuation { completions.park(waiter, $0) }
        timer.cancel()
        if completions.inFlight > 0 {
            logger.error("shutdown: records still being written after the bound", metadata: [
                "unfinished": "\(completions.inFlight)", "timeout": "\(timeout)",
            ])
        }
        return completions.inFlight
    }

    private func releaseDrainWaiter(_ waiter: UInt64) {
        completions.release(waiter)?.resume()
    }

    /// A `flow.complete` ended: a stop waiting for the last one goes on.
    func completionFinished() {
        for waiter in completions.end() { waiter.resume() }
    }

    // MARK: Flows

    func study(_ id: String?) throws -> Study {
        guard let id else { return studies[0] }
        guard let study = studies.first(where: { $0.id == id }) else {
            throw AgentError(.unknownStudy, "no study has this id; study.get lists the available ones")
        }
        return study
    }

    /// The study in a language; nil picks the study's default language.
    func study(_ id: String?, language: String?) throws -> Study {
        let study = try study(id)
        guard let language else { return study }
        return try translation(of: study, language)
    }

    /// The study (any of its languages) in `language`.
    func translation(of study: Study, _ language: String) throws -> Study {
        let all = studies.first { $0.id == study.id } ?? study
        guard let translated = all.inLanguage(language) else {
            let known = all.languages.map(\.tag).joined(separator: ", ")
            throw AgentError(.unknownLanguage, "the study has no consent in this language; it has \(known)")
        }
        return translated
    }

    /// One entry of `study.get`'s `languages`.
    static func languageValue(_ language: StudyLanguage, title: String) -> RPCValue {
        [
            "tag": .string(language.tag), "name": .string(language.name), "version": .string(language.version),
            "default": .bool(language.isDefault), "title": .string(title),
        ]
    }

    /// The flow, ready for an action: known and not being completed.
    func runningEntry(_ id: String) throws -> FlowEntry {
        guard let entry = flows[id] else {
            throw AgentError(.unknownFlow, "no flow has this id; start one with flow.start")
        }
        guard !entry.isCompleting else {
            throw AgentError(.flowBusy, "the flow is being completed; wait for the flow.complete reply")
        }
        return entry
    }

    /// Applies an action, publishes what changed, and returns the flow's reply.
    func apply(_ action: ConsentAction, to id: String) throws -> RPCValue {
        var entry = try runningEntry(id)
        let before = entry.session.step
        let mark = entry.mark
        do {
            try entry.session.apply(action, now: now())
        } catch {
            if entry.session.step != before {
                // The action found the flow expired; record and announce that.
                flows[id] = entry
                flowEnded(id, entry)
            }
            throw error
        }
        auditor.applied(action, id, from: mark, to: entry.session)
        if !entry.session.step.isFinished { entry.mark = FlowMark(entry.session) }
        flows[id] = entry
        if entry.session.step != before {
            logger.info("flow step", metadata: ["flow": "\(id)", "step": "\(entry.session.step.rawValue)"])
        }
        if entry.session.step.isFinished {
            flowEnded(id, entry)
        } else {
            publishChanged(id, entry)
        }
        return flowValue(id, entry)
    }

    /// Announces an ended flow, stops its pad capture, and forgets the oldest ended flows.
    func flowEnded(_ id: String, _ entry: FlowEntry) {
        let step = entry.session.step
        logger.info("flow ended", metadata: ["flow": "\(id)", "step": "\(step.rawValue)"])
        auditor.ended(id, entry.session, at: entry.mark)
        switch step {
        case .declined: hub.publish(AgentEvent(.flowDeclined, data: ["flow": .string(id)], clock: eventClock))
        case .expired: hub.publish(AgentEvent(.flowExpired, data: ["flow": .string(id)], clock: eventClock))
        case .completed:
            hub.publish(AgentEvent(
                .flowCompleted, data: ["flow": .string(id), "record": entry.recordID.map(RPCValue.string) ?? .null],
                clock: eventClock))
        default: break
        }
        publishChanged(id, entry)
        flowConnections[id] = nil
        orphanedSince[id] = nil
        if pads.capture(of: id) != nil {
            let pads = self.pads
            Task { await pads.cancelCapture(flow: id) }
        }
        endedFlows.append(id)
        while endedFlows.count > settings.maximumEndedFlows {
            flows.removeValue(forKey: endedFlows.removeFirst())
        }
    }

    /// A pad came or went: every running flow on a signing page (the review's or the staff step's) gets
    /// `flow.changed`, with `beginSignature` now offered or withdrawn (`view`).
    func padsChanged() {
        for (id, entry) in flows where !entry.isCompleting && entry.session.signingRole != nil {
            publishChanged(id, entry)
        }
    }

    func publishChanged(_ id: String, _ entry: FlowEntry) {
        let full = flowValue(id, entry)
        var event = AgentEvent(.flowChanged, data: FlowVisibility.withheld(full), clock: eventClock)
        if let driver = entry.driver { event.driverCopy = (driver, full) }
        hub.publish(event)
    }

    /// `{flow, study, step, view}`: what every flow reply and `flow.changed` carries. No name or signature: the
    /// view model says whether one was given, never what it is. The eligibility answers are in it; connections
    /// that do not drive the flow get it through `FlowVisibility.withheld`.
    func flowValue(_ id: String, _ entry: FlowEntry) -> RPCValue {
        var value: [String: RPCValue] = [
            "flow": .string(id),
            "study": .string(entry.session.study.id),
            "language": .string(entry.session.study.language),
            "version": .string(entry.session.study.version),
            "step": .string(entry.session.step.rawValue),
            "view": (try? RPCValue(encoding: view(id, entry))) ?? .null,
        ]
        if let record = entry.recordID { value["record"] = .string(record) }
        if let copy = entry.copy?.value { value["copy"] = copy }
        switch entry.session.purpose {
        case .consent: break
        case .withdrawal(let target): value["withdraws"] = .string(target.recordID)
        case .reconsent(let basis): value["previous"] = .string(basis.previousRecordID)
        }
        return .object(value)
    }

    /// The flow's view model as UIs get it: the study's HTML sanitised, and the signing area of the pad that
    /// captures for the flow.
    func view(_ id: String, _ entry: FlowEntry) -> StepViewModel {
        var model = entry.session.viewModel
        let study = entry.session.study
        if let html = model.scene?.learnMoreHTML { model.scene?.learnMoreHTML = sanitized(html, of: study) }
        if let html = model.sharing?.learnMoreHTML { model.sharing?.learnMoreHTML = sanitized(html, of: study) }
        if let html = model.review?.html { model.review?.html = sanitized(html, of: study) }
        if model.review?.signingArea != nil, let pad = pads.capture(of: id) {
            model.review?.signingArea = .pad(pad.id, widthMM: pad.widthMM, heightMM: pad.heightMM)
        }
        // The session offers a pad capture on every signing page; only the agent knows whether a pad is there. With
        // none, `signature.begin` could only answer `NoPad`, so the view does not list it (nor its label): a UI
        // that offers the listed actions shows no dead button, and draws the signature itself (`ui-strokes`).
        if model.actions.contains(.beginSignature), !pads.hasUsablePad() {
            model.actions.removeAll { $0 == .beginSignature }
            model.labels[ConsentActionName.beginSignature.rawValue] = nil
        }
        addCopy(to: &model, entry)
        return model
    }

    /// The sanitised form of a study page, parsed once per page and language (whose images it may show).
    func sanitized(_ html: String, of study: Study) -> String {
        let key = "\(study.id)\u{0}\(study.language)\u{0}\(html)"
        if let known = sanitizedHTML[key] { return known }
        let safe = HTMLSanitizer.sanitize(html, assets: Set(study.assets.keys))
        // Study pages are a fixed set; the bound only guards against a bug feeding it generated text.
        if sanitizedHTML.count > 4096 { sanitizedHTML.removeAll() }
        sanitizedHTML[key] = safe
        return safe
    }

    static func makeFlowID() -> String {
        "f-" + UUID().uuidString.lowercased().replacingOccurrences(of: "-", with: "").prefix(16)
    }
}
