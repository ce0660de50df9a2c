import AgentProtocol
import ConsentCore
import CopyPrinting
import Logging
import NIOConcurrencyHelpers
import Speech
import StaffCredentials

// What each family of method handlers may use of the agent.
//
// The handlers in `Methods/` (and `flow.complete`'s steps in `Completion/FlowCompletion.swift`) are written
// against these protocols, not against `AgentCore`: a handler reaches only what its context names, the compiler
// holds it to that, and a reader sees at a glance what a method can touch. Each context is actor-bound, so a
// handler still runs serialised with every other change of the flows; `AgentCore` is the one actor that conforms
// (at the end of this file). The flows themselves are one value, `FlowTable`, whose changes return the actions the
// actor carries out (`perform`).

/// The studies served: `study.get`, `study.asset`, and the study a new flow or a spoken start screen is in.
protocol StudyContext: Actor {
    /// One per id, each language the version served for it; a reload replaces them.
    var studies: [Study] { get }
    /// How study approvals are checked; nil: they are not.
    var approvalPolicy: ApprovalPolicy? { get }
}

/// The flows (`FlowTable`), the clock, and what a flow reply shows: the step methods, `flow.get`, `flow.extend`.
protocol FlowContext: Actor {
    var table: FlowTable { get set }
    var now: @Sendable () -> Duration { get }
    var settings: AgentCore.Settings { get }
    var logger: Logger { get }
    /// Flows whose completion a stop interrupted after their record was kept, by flow id (`flow.get`).
    var keptBeforeRestart: [String: String] { get }
    /// Carries out what a change of the table says must follow (`Flows/AgentCore+Flows.swift`).
    func perform(_ actions: [FlowAction])
    /// What a flow reply and `flow.changed` carry (`Flows/AgentCore+FlowView.swift`).
    func flowValue(_ id: String, _ entry: FlowEntry) -> RPCValue
}

/// The signature pads (`pads.list`, `signature.*`).
protocol PadContext: Actor {
    nonisolated var pads: any PadProviding { get }
}

/// The records on disk and the pool that reads them (`records.get`, `uploads.status`, withdrawal and re-consent).
protocol RecordContext: Actor {
    var records: RecordStore { get set }
    var disk: DiskWork { get }
    var settings: AgentCore.Settings { get }
    var logger: Logger { get }
}

/// `events.subscribe`: the running flows, the pads, and the outbox that adds the connection to the hub in order.
protocol EventContext: FlowContext, PadContext {
    nonisolated var outbox: Outbox { get }
}

/// `signature.begin`, `signature.clear`, `signature.submit`.
protocol SignatureContext: FlowContext, PadContext {}

/// `staff.unlock`, `staff.attestIdentity`: the staff settings, the lock-out, and the pool of slow hashes.
protocol StaffContext: FlowContext {
    var staff: StaffSettings? { get }
    var staffLockout: StaffLockout? { get set }
    var staffLockoutFile: StaffLockoutFile? { get }
    var hashing: HashWork { get }
}

/// `copy.print`, `printer.status`, and the copy `printCopy: always` prints when a record is written.
protocol PrintContext: FlowContext {
    var printing: PrintSettings? { get }
    var printer: CopyPrinter? { get }
    var lastCopyJob: Int? { get set }
    var lastCopyJobState: PrinterStatus.JobState? { get set }
    var lastCopy: (state: ParticipantCopy.State, reason: ParticipantCopy.Reason?, job: Int?)? { get set }
    /// Where the copy is stamped (the PDF rewritten with its QR code).
    var disk: DiskWork { get }
}

/// `speech.get`: what the flow's screen shows, or a start screen of a study, spoken.
protocol SpeechContext: FlowContext, StudyContext {
    var speech: SpeechSynthesizer? { get }
    /// The flow's view model as its UIs get it.
    func view(_ id: String, _ entry: FlowEntry) -> StepViewModel
}

/// `flow.start`: a study (approved), and for a withdrawal or re-consent the earlier record and its passcode.
protocol StartContext: FlowContext, StudyContext, RecordContext {
    var staff: StaffSettings? { get }
    /// Wrong withdrawal PINs by record id.
    var passcodeTries: AttemptLimiter { get set }
    /// Where the passcode's slow hash runs.
    var hashing: HashWork { get }
    /// The study's approval for a new consent (`Studies/AgentCore+Approval.swift`); throws when it has none.
    func admit(_ study: Study) throws -> StudyApprovalBinding?
}

/// `flow.complete` (`Completion/FlowCompletion.swift`): the record makers, the audit head, the linked record.
protocol CompletionContext: PrintContext, RecordContext {
    var recordMaker: (any RecordMaking)? { get }
    var auditor: FlowAuditor { get }
}

extension AgentCore: StudyContext, EventContext, SignatureContext, StaffContext, PrintContext, SpeechContext,
    StartContext, CompletionContext
{}
