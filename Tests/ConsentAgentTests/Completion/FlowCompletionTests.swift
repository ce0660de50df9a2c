import AgentProtocol
import ConsentCore
import ConsentSigning
import CopyPrinting
import Foundation
import Logging
import NIOConcurrencyHelpers
import Testing

@testable import ConsentAgent

/// `flow.complete`'s steps (`Completion/FlowCompletion.swift`) driven directly through a fake completion context:
/// a record maker that fails or refuses, a journal that cannot be written, an earlier record that cannot be read.
/// Each failure must give the flow back as it was (kept, to retry, nothing wiped), audit nothing, and tell the
/// client what the protocol says; the fault tests reach the same paths only through a subprocess.
@Suite struct FlowCompletionTests {
    static let given = "Zebedee", family = "Quillfeather-Oyelaran"

    /// Everything `complete` may use, with the agent's real `FlowTable`; what the table hands back to carry out
    /// (audit lines, events, log lines) is kept in `performed` instead.
    actor Context: CompletionContext {
        private(set) var table = FlowTable(maximumEnded: 8, maximumRunning: 8)
        let now: @Sendable () -> Duration
        let settings: AgentCore.Settings
        let logger = Logger(label: "test")
        let keptBeforeRestart: [String: String] = [:]
        let printing: PrintSettings? = nil
        let printer: CopyPrinter? = nil
        var lastCopyJob: Int?
        var lastCopyJobState: PrinterStatus.JobState?
        var lastCopy: (state: ParticipantCopy.State, reason: ParticipantCopy.Reason?, job: Int?)?
        let disk = DiskWork(pool: .singleton)
        var records: RecordStore
        private(set) var recordMaker: (any RecordMaking)?
        /// What the table's transitions returned, in order: what the agent would audit, publish and log.
        private(set) var performed: [FlowAction] = []

        init(state: URL, clock: ManualClock, recordMaker: (any RecordMaking)?) {
            let settings = AgentCore.Settings(inactivityTimeout: .seconds(600), stateDirectory: state)
            self.settings = settings
            self.records = RecordStore(stateDirectory: state)
            self.recordMaker = recordMaker
            self.now = { clock.now }
        }

        func use(_ maker: any RecordMaking) { recordMaker = maker }

        func perform(_ actions: [FlowAction]) { performed += actions }

        func flowValue(_ id: String, _ entry: FlowEntry) -> RPCValue {
            ["flow": .string(id), "step": .string(entry.session.step.rawValue)]
        }

        func change(_ transition: (inout FlowTable) throws -> [FlowAction]) rethrows {
            let actions = try transition(&table)
            perform(actions)
        }

        func change<Value>(_ transition: (inout FlowTable) throws -> FlowChange<Value>) rethrows -> Value {
            let change = try transition(&table)
            perform(change.actions)
            return change.value
        }

        func auditHead() async -> String? { "audit-head" }

        /// Starts a flow, as `flow.start` does.
        func start(_ id: String, _ session: ConsentSession) {
            change { $0.start(id, FlowEntry(session: session, driver: 1), by: 1, now: .zero) }
        }

        func forgetPerformed() { performed = [] }
    }

    /// A record maker that answers what it is told to, and remembers what it was asked.
    final class Maker: RecordMaking, Sendable {
        enum Answer: Sendable { case fail(any Error & Sendable), keep }
        private let answer: Answer
        private let asked = NIOLockedValueBox<[CompletionOptions]>([])
        let state: URL

        init(_ answer: Answer, state: URL) {
            self.answer = answer
            self.state = state
        }

        var calls: [CompletionOptions] { asked.withLockedValue { $0 } }

        func makeRecord(for outcome: ConsentOutcome, study: Study, options: CompletionOptions) async throws -> RecordReceipt {
            asked.withLockedValue { $0.append(options) }
            switch answer {
            case .fail(let error): throw error
            case .keep:
                return RecordReceipt(
                    id: "r-kept", directory: state.appendingPathComponent("records/r-kept"), files: ["manifest.json"],
                    manifestSHA256: String(repeating: "ab", count: 32))
            }
        }
    }

    let clock = ManualClock()
    let state: URL

    init() throws {
        state = try TestSupport.temporaryDirectory()
    }

    /// A consent walked to `done`, with the participant's name: what `flow.complete` is asked for.
    private func doneConsent(_ context: Context, _ id: String = "f-1") async throws {
        await context.start(id, try .sampleAtDone(id, given: Self.given, family: Self.family))
    }

    private func complete(_ context: Context, _ id: String = "f-1") async throws -> RPCValue {
        try await context.complete(try FlowCompleteParams(["flow": .string(id)]))
    }

    /// What the table handed over to be audited (the lines `FlowAuditor` writes for them) since the last look.
    private func audited(_ context: Context) async -> [String] {
        await context.performed.compactMap {
            switch $0 {
            case .started(let id, _): "started \(id)"
            case .applied(_, let id, _, _): "applied \(id)"
            case .ended(let id, let entry): "ended \(id) \(entry.session.step.rawValue)"
            case .recordKept(let id, _, let receipt): "recordKept \(id) \(receipt.id)"
            case .withdrawalKept(let id, _, let original): "withdrawalKept \(id) \(original)"
            case .amendmentKept(let id, _, let original): "amendmentKept \(id) \(original)"
            case .staffCalled(let id, _): "staffCalled \(id)"
            case .staffAnswered(let id, _, _): "staffAnswered \(id)"
            case .changed, .expiring, .resume, .log: nil
            }
        }
    }

    /// The flow is as it was before `flow.complete`: at `done`, no record, not being completed, the name kept.
    private func expectGivenBack(_ context: Context, _ id: String = "f-1", sourceLocation: SourceLocation = #_sourceLocation) async throws {
        let table = await context.table
        let entry = try #require(table[id], sourceLocation: sourceLocation)
        #expect(entry.session.step == .done && entry.recordID == nil, sourceLocation: sourceLocation)
        #expect(!table.isCompleting(id), "the flow is given back, to retry", sourceLocation: sourceLocation)
        #expect(entry.session.givenName == Self.given, "nothing is wiped: the retry needs the name", sourceLocation: sourceLocation)
        let lines = await audited(context)
        #expect(lines.isEmpty, "nothing is audited", sourceLocation: sourceLocation)
    }

    @Test func aStorageFaultKeepsNothingAuditsNothingAndTellsTheClientToTryAgain() async throws {
        let maker = Maker(.fail(POSIXError(.ENOSPC)), state: state)
        let context = Context(state: state, clock: clock, recordMaker: maker)
        try await doneConsent(context)
        await context.forgetPerformed()

        let error = await #expect(throws: AgentError.self) { try await complete(context) }
        #expect(error?.code == .recordFailed)
        #expect(error?.message == "the record could not be written; nothing was kept, try flow.complete again")
        #expect(maker.calls.map(\.flow) == ["f-1"] && maker.calls.first?.auditHead == "audit-head", "the maker was asked with the flow and the audit head")
        try await expectGivenBack(context)

        // The retry is the same flow, and keeps its record.
        await context.use(Maker(.keep, state: state))
        let reply = try await complete(context)
        #expect(reply["step"] == "completed" && reply["directory"] != nil && reply["files"] == ["manifest.json"])
        let lines = await audited(context)
        #expect(lines == ["recordKept f-1 r-kept", "ended f-1 completed"])
    }

    @Test func aRefusedPatientIsTheClientsInvalidParamsAndTheFlowStays() async throws {
        let maker = Maker(.fail(ConsentSigningError(.invalidPatient, "the Patient has no usable name")), state: state)
        let context = Context(state: state, clock: clock, recordMaker: maker)
        try await doneConsent(context)
        await context.forgetPerformed()

        let error = await #expect(throws: RPCErrorObject.self) { try await complete(context) }
        #expect(error?.type == .invalidParams && error?.details["field"] == "patient")
        try await expectGivenBack(context)
    }

    @Test func aJournalThatCannotBeWrittenFailsTheCompletionBeforeAnythingIsComposed() async throws {
        // `<state>/completing` is a file: the journal's entry cannot be made under it.
        try Data().write(to: state.appendingPathComponent("completing"))
        let base = Maker(.keep, state: state)
        let context = Context(state: state, clock: clock, recordMaker: JournaledRecordMaker(base: base, stateDirectory: state))
        try await doneConsent(context)
        await context.forgetPerformed()

        let error = await #expect(throws: AgentError.self) { try await complete(context) }
        #expect(error?.code == .recordFailed)
        #expect(base.calls.isEmpty, "nothing was composed")
        try await expectGivenBack(context)
    }

    @Test func aWithdrawalWhoseRecordCannotBeReadClaimsNothingAndWritesNothing() async throws {
        let maker = Maker(.keep, state: state)
        let context = Context(state: state, clock: clock, recordMaker: maker)
        await context.start("f-1", try .sampleWithdrawalAtDone("f-1", of: "r-gone", given: Self.given, family: Self.family))
        await context.forgetPerformed()

        let error = await #expect(throws: AgentError.self) { try await complete(context) }
        #expect(error?.code == .unknownRecord)
        #expect(maker.calls.isEmpty, "no record is made for a withdrawal of a record that is not there")
        let table = await context.table
        #expect(!table.isWithdrawing("r-gone") && table.withdrawalsKept == 0)
        try await expectGivenBack(context)
    }

    @Test func aFlowThatExpiredBeforeTheRequestIsEndedAuditedAndRefused() async throws {
        let maker = Maker(.keep, state: state)
        let context = Context(state: state, clock: clock, recordMaker: maker)
        try await doneConsent(context)
        await context.forgetPerformed()
        clock.advance(by: .seconds(601))

        let error = await #expect(throws: ConsentCoreError.self) { try await complete(context) }
        #expect(error?.code == .flowFinished && error?.message == "the flow expired")
        #expect(maker.calls.isEmpty)
        let lines = await audited(context), table = await context.table
        #expect(lines == ["ended f-1 expired"])
        let entry = try #require(table["f-1"])
        #expect(entry.session.givenName == nil, "an expired flow is wiped")
        #expect(!table.isCompleting("f-1"))
    }

    @Test func aStoppingAgentAndAnAgentWithoutARecordMakerRefuseBeforeMarkingTheFlow() async throws {
        let context = Context(state: state, clock: clock, recordMaker: nil)
        try await doneConsent(context)
        await context.forgetPerformed()
        let none = await #expect(throws: AgentError.self) { try await complete(context) }
        #expect(none?.code == .noRecordMaker)
        try await expectGivenBack(context)

        let maker = Maker(.keep, state: state)
        await context.use(maker)
        await context.change { $0.stop() }
        let stopping = await #expect(throws: AgentError.self) { try await complete(context) }
        #expect(stopping?.code == .shuttingDown)
        #expect(maker.calls.isEmpty)
        try await expectGivenBack(context)
    }
}

extension ConsentSession {
    /// Three points of a signature.
    static let someStrokes = SignatureStrokes(strokes: [[
        StrokePoint(x: 0.31, y: 0.27, t: 0, p: 0.5), StrokePoint(x: 0.6, y: 0.7, t: 40, p: 0.5),
        StrokePoint(x: 0.7, y: 0.6, t: 80, p: 0.5),
    ]])

    /// A consent to the sample study walked to `done` (eligible, sharing, the document agreed, the questions
    /// answered, named and signed), inactive for 600 s from then.
    static func sampleAtDone(_ id: String, given: String, family: String) throws -> ConsentSession {
        var session = ConsentSession(id: id, study: try TestSupport.sampleStudy(), now: .zero, inactivityTimeout: .seconds(600))
        try session.apply(.answerEligibility([true, true, false, true]), now: .zero)
        try session.apply(.next(.eligibility), now: .zero)
        try session.apply(.next(.keyInformation), now: .zero)
        while session.step == .visual { try session.apply(.next(.visual), now: .zero) }
        try session.apply(.chooseSharing(shareWidely: true), now: .zero)
        try session.apply(.answerOptional(["future-research": true, "contact-other-studies": false]), now: .zero)
        try session.apply(.agree, now: .zero)
        for (question, choice) in [1, 1, 0].enumerated() {
            try session.apply(.answerComprehension(question: question, choice: choice), now: .zero)
        }
        try session.apply(.setName(given: given, family: family), now: .zero)
        try session.apply(.submitSignature(someStrokes), now: .zero)
        try #require(session.step == .done)
        return session
    }

    /// A withdrawal of `record` walked to `done` (confirmed, named and signed).
    static func sampleWithdrawalAtDone(_ id: String, of record: String, given: String, family: String) throws -> ConsentSession {
        let target = WithdrawalTarget(recordID: record, studyTitle: "Sample", signedOn: "2026-11-27")
        var session = ConsentSession(
            id: id, study: try TestSupport.sampleStudy(), now: .zero, inactivityTimeout: .seconds(600), purpose: .withdrawal(target))
        try session.apply(.confirmWithdrawal(reason: nil), now: .zero)
        try session.apply(.setName(given: given, family: family), now: .zero)
        try session.apply(.submitSignature(someStrokes), now: .zero)
        try #require(session.step == .done)
        return session
    }
}
