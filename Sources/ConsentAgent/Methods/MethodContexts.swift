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
// (at the end of this file). The flows themselves are one value, `FlowTable`: a handler reads it, and changes it only
// by naming one of its transitions in `change`, which carries out the actions the transition returns (`perform`).

/// The studies served: `study.get`, `study.asset`, and the study a new flow or a spoken start screen is in.
protocol StudyContext: Actor {
    /// One per id, each language the version served for it; a reload replaces them.
    var studies: [Study] { get }
    /// How study approvals are checked; nil: they are not.
    var approvalPolicy: ApprovalPolicy? { get }
}

/// The flows (`FlowTable`), the clock, and what a flow reply shows: the step methods, `flow.get`, `flow.extend`.
protocol FlowContext: Actor {
    /// Every flow, to read; it changes only through `change`.
    var table: FlowTable { get }
    var now: @Sendable () -> Duration { get }
    var settings: AgentCore.Settings { get }
    var logger: Logger { get }
    /// Flows whose completion a stop interrupted after their record was kept, by flow id (`flow.get`).
    var keptBeforeRestart: [String: String] { get }
    /// Carries out what a change of the table says must follow (`Flows/AgentCore+Flows.swift`).
    func perform(_ actions: [FlowAction])
    /// Runs one of the table's transitions (`{ $0.start(...) }`) and carries out the actions it returns, in order:
    /// the one way a flow changes. The transition must not read the context (the table is being changed).
    func change(_ transition: (inout FlowTable) throws -> [FlowAction]) rethrows
    /// The same for a transition that also answers (the flow after it, or why it was refused): the actions are
    /// carried out, then the answer returned.
    func change<Value>(_ transition: (inout FlowTable) throws -> FlowChange<Value>) rethrows -> Value
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
    /// Whether the start screen offers the form to take home (`copy.printBlank`), which its part `start` then reads.
    var printsBlankForms: Bool { get }
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
    /// `flow.start {resume}` (`Methods/FlowPause.swift`).
    func resumeFlow(_ code: String, _ connection: ConnectionHandle) async throws -> RPCValue
}

/// `flow.complete` (`Completion/FlowCompletion.swift`): the record makers, the audit head, the linked record.
protocol CompletionContext: PrintContext, RecordContext {
    var recordMaker: (any RecordMaking)? { get }
    /// The audit chain head to sign into the record's manifest, once every audit line before it is written.
    func auditHead() async -> String?
}

extension AgentCore: StudyContext, EventContext, SignatureContext, StaffContext, PrintContext, SpeechContext,
    StartContext, CompletionContext
{}
