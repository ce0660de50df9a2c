import AgentProtocol
import AuditTrail
import ConsentCore
import CopyPrinting
import FileBytes
import StaffCredentials
import Foundation
import HTMLSanitizer
import Logging
import NIOConcurrencyHelpers
import NIOPosix
import PausedFlows
import Speech

/// The consent flows of this agent and everything that acts on them, serialised by the actor.
///
/// The flows' state is one value, `FlowTable` (`Flows/`), whose changes hand back the actions the actor carries out
/// (`AgentCore+Flows.swift`); `flow.complete` runs as the named steps of `Completion/FlowCompletion.swift`; blocking
/// reads run on a thread pool (`DiskWork`) while the actor serves on.
///
/// Connections hand it requests (`handle`, in `AgentCore+Dispatch.swift`, which routes each method to its params
/// type and handler in `Methods/`); what a step makes happen (audit lines, events, the reply) leaves through the
/// `Outbox`, one serial queue, so a reply is always delivered after the events the same step published, and the
/// actor never waits for the audit log's disk. Time is injected: `now` is a
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
        /// The same for a flow that has not reached the name (`ConsentSession.isBeforeTheName`;
        /// `closedConnectionFlowBeforeNameGraceSeconds`); at most `closedConnectionGrace`.
        public var closedConnectionGraceBeforeTheName: Duration
        /// How the withdrawal and re-consent texts write the day the earlier record was signed: in the configured
        /// `timeZone`, with the configured `locale`'s regional conventions for the flow's language.
        public var dates: ParticipantDateStyle
        /// The kiosk's id (`kioskId`, else the host name), which `staff.called` names so a desk serving several
        /// kiosks knows where to go.
        public var kioskID: String
        /// A paused flow's code works this many days (`resumeDays`, default 7); 0: the kiosk does not offer pausing.
        public var resumeDays: Int

        public init(
            inactivityTimeout: Duration = ConsentSession.defaultInactivityTimeout, minimumSignaturePoints: Int = 10,
            maximumEndedFlows: Int = 256, stateDirectory: URL, minimumInkLength: Double = 0.15,
            maximumFlows: Int = 64, closedConnectionGrace: Duration = .seconds(60),
            closedConnectionGraceBeforeTheName: Duration = .seconds(10),
            dates: ParticipantDateStyle = ParticipantDateStyle(), inactivityWarning: Duration? = nil,
            kioskID: String = "kiosk", resumeDays: Int = 7
        ) {
            self.kioskID = kioskID
            self.resumeDays = max(0, resumeDays)
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
            self.closedConnectionGraceBeforeTheName = closedConnectionGraceBeforeTheName
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
    /// Audit lines, events and replies, carried out in order off the actor (`Outbox/Outbox.swift`).
    nonisolated let outbox: Outbox
    let auditor: FlowAuditor
    var logger: Logger

    /// Every flow, and which of them are being completed: the flows' one owner (`Flows/FlowTable.swift`), changed
    /// only through `change`.
    private(set) var table: FlowTable
    /// Sanitised study HTML, by study, language and the HTML as the study has it (a fixed, finite set).
    var sanitizedHTML: [String: String] = [:]
    /// Wrong withdrawal PINs by record id: five in a row lock the record's withdrawal for 15 minutes.
    var passcodeTries = AttemptLimiter(limit: 5, refill: .afterLockout(seconds: 15 * 60))
    /// Wrong resume codes on this kiosk (`flow.start {resume}`): the withdrawal passcode's rule, one key for all.
    var resumeTries = AttemptLimiter(limit: 5, refill: .afterLockout(seconds: 15 * 60))
    /// The paused flows (`flow.pause`), sealed under the kiosk's pause key in the state directory.
    let pausedFlows: PausedFlowStore
    /// When expired paused flows were last looked for (`prunePausedFlows`).
    var lastPausePrune: Duration?
    /// The records this agent wrote (read for withdrawal, re-consent and `records.get`).
    var records: RecordStore
    /// Where blocking reads (a record's verification, the upload queue) run while the actor serves on.
    let disk: DiskWork
    /// Where the slow hashes of staff PINs and withdrawal passcodes run: never on `disk`.
    let hashing: HashWork
    /// Flows whose completion a stop interrupted after their record was kept (found at start by
    /// `CompletionRecovery`), by flow id: `flow.get` tells a reconnecting UI their record instead of `UnknownFlow`.
    var keptBeforeRestart: [String: String] = [:]
    /// Where and when the participant's copy is printed (nil: never), and the CUPS destination it is printed on.
    let printing: PrintSettings?
    let printer: CopyPrinter?
    /// CUPS's number of the last copy sent, and its last state seen, for the staff page.
    var lastCopyJob: Int?
    var lastCopyJobState: PrinterStatus.JobState?
    /// What the participant was told of that copy: printing, printed, or failed and why.
    var lastCopy: (state: ParticipantCopy.State, reason: ParticipantCopy.Reason?, job: Int?)?
    /// When the last form to take home was sent (`copy.printBlank`, `BlankForm.interval`).
    var lastBlankForm: Duration?
    /// The person obtaining consent's countersignature (`staffCountersignature: required`); nil: off.
    let staff: StaffSettings?
    /// Wrong staff PINs per flow and per kiosk (`StaffLockout`), counted here on the actor before each hash; the
    /// kiosk's count is saved to `staffLockoutFile` off the actor (`hashing`), the newest count last.
    var staffLockout: StaffLockout?
    let staffLockoutFile: StaffLockoutFile?
    /// How study approvals are checked (`approvalKeys`); nil: they are not.
    var approvalPolicy: ApprovalPolicy?
    /// The approvals whose coming expiry was audited, by study folder, language and day (one line a day each).
    var expiryAudited: Set<String> = []

    public init(
        studies: [Study], settings: Settings, hub: EventHub, recordMaker: (any RecordMaking)?,
        pads: any PadProviding = NoPadProvider(), auditLog: AuditLog? = nil, logger: Logger,
        eventClock: EventClock = .system, now: (@Sendable () -> Duration)? = nil, keptBeforeRestart: [String: String] = [:],
        printing: PrintSettings? = nil, staff: StaffSettings? = nil, speech: SpeechSynthesizer? = .shared,
        approvalPolicy: ApprovalPolicy? = nil, diskPool: NIOThreadPool = .singleton, hashPool: NIOThreadPool? = nil
    ) {
        self.disk = DiskWork(pool: diskPool)
        self.hashing = HashWork(pool: hashPool ?? HashWork.shared)
        self.staff = staff
        let lockoutFile = staff.map {
            StaffLockoutFile(path: $0.lockoutStatePath ?? StateLayout(root: settings.stateDirectory.path).staffLockout)
        }
        self.staffLockoutFile = lockoutFile
        self.staffLockout = staff.map { StaffLockout(duration: $0.lockoutSeconds, kept: lockoutFile?.read()) }
        self.speech = speech
        self.approvalPolicy = approvalPolicy
        self.keptBeforeRestart = keptBeforeRestart
        self.printing = printing
        self.printer = printing.map { CopyPrinter(destination: $0.destination) }
        precondition(!studies.isEmpty, "the agent needs at least one study")
        self.studies = studies
        self.settings = settings
        self.table = FlowTable(maximumEnded: settings.maximumEndedFlows, maximumRunning: settings.maximumFlows)
        self.hub = hub
        self.recordMaker = recordMaker
        self.records = RecordStore(stateDirectory: settings.stateDirectory)
        self.pausedFlows = PausedFlowStore(stateDirectory: settings.stateDirectory.path)
        self.pads = pads
        // Pad ink and hot-plug go straight to the hub from the pad's own thread, never through the actor, so they
        // never wait behind a record being written.
        pads.publishEvents(to: hub)
        self.logger = logger
        self.outbox = Outbox(log: auditLog, hub: hub, logger: logger)
        self.auditor = FlowAuditor(outbox: outbox, logger: logger)
        self.eventClock = eventClock
        let start = ContinuousClock.now
        self.now = now ?? { ContinuousClock.now - start }
        // A pad plugged in or out changes the actions of the flows on a signing page (`view`): tell their UIs. The
        // provider calls from its own thread; the hop onto the actor keeps it off the pad's path.
        pads.onPadsChanged { [weak self] in
            Task { await self?.padsChanged() }
        }
    }
}

extension AgentCore {
    /// Runs one of the table's transitions and carries out what it returns (`FlowContext.change`): the only writer of
    /// `table`.
    func change(_ transition: (inout FlowTable) throws -> [FlowAction]) rethrows {
        let actions = try transition(&table)
        perform(actions)
    }

    func change<Value>(_ transition: (inout FlowTable) throws -> FlowChange<Value>) rethrows -> Value {
        let change = try transition(&table)
        perform(change.actions)
        return change.value
    }

    /// The audit chain head a record signs (`CompletionContext`).
    func auditHead() async -> String? { await auditor.head() }
}
