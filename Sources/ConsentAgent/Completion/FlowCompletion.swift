import AgentProtocol
import ConsentCore
import ConsentPDF
import ConsentSigning
import Foundation
import Logging
import UploadQueue

/// `flow.complete`, step by step. The reply waits until the record is durable.
///
///  1. `validate`: the flow is ready (not ended, not expired, not being completed), its outcome is whole, the
///     agent has a record maker and is not stopping.
///  2. `markCompleting`: from here nothing else acts on the flow (`FlowBusy`) and it does not expire
///     (`FlowTable.beginCompleting`, the one in-memory record of a completion running).
///  3. `readLinkedRecord`: a withdrawal, re-consent or change verifies the earlier record off the actor
///     (`DiskWork`), then a withdrawal or change claims it: a second withdrawal or change of the same record is
///     refused while this one runs.
///  4. `writeRecord`: the record-maker chain (`RecordMakerChain`): journal the completion, compose and sign the
///     record, write it durably, queue it for upload.
///  5. `finish`: the table keeps the record (`FlowTable.recordKept`): the flow is completed; its copy is held for
///     printing; the audit log gets the record (and the withdrawal the flow claimed); the flow ends
///     (`flow.completed`, `flow.changed`).
///  6. `printWithoutAsking` (`printCopy: always`), then `reply`. After the reply is handed to the connection,
///     `AgentCore.handle` ends the journal entry (`RecordMaking.completionReported`).
///
/// A failure in 3 or 4 gives the flow back as it was (`giveBack`, `FlowTable.abandonCompleting`), to retry. Every
/// step changes the flow through a transition of the table (`change`), which alone decides what is audited.
extension CompletionContext {
    func complete(_ params: FlowCompleteParams) async throws -> RPCValue {
        var plan = try validate(params)
        try markCompleting(plan)
        do { try await readLinkedRecord(&plan) } catch { throw giveBack(plan, error) }
        let receipt: RecordReceipt
        do { receipt = try await writeRecord(plan) } catch { throw giveBack(plan, recordFailure(error, flow: plan.flow)) }
        let entry = try finish(plan, receipt)
        printWithoutAsking(plan.flow)
        return reply(plan.flow, entry, receipt)
    }

    // MARK: 1. Validate

    private func validate(_ params: FlowCompleteParams) throws -> CompletionPlan {
        let id = params.flow, instant = now()
        let before = try runningEntry(id).session.step
        let entry = try change { try $0.expiringIfIdle(id, now: instant) }
        if entry.session.step != before {
            throw ConsentCoreError(.flowFinished, "the flow expired")
        }
        guard !entry.session.step.isFinished else {
            throw ConsentCoreError(.flowFinished, "the flow has ended (\(entry.session.step.rawValue))")
        }
        let outcome = try entry.session.outcome()
        guard let recordMaker else {
            throw AgentError(.noRecordMaker, "this agent has no record maker; it cannot complete consents")
        }
        guard !table.isStopping else { throw AgentError(.shuttingDown, "the agent is shutting down; complete after restart") }
        return CompletionPlan(flow: id, entry: entry, outcome: outcome, options: params.options, recordMaker: recordMaker)
    }

    // MARK: 2. Mark completing

    private func markCompleting(_ plan: CompletionPlan) throws {
        let id = plan.flow
        try change { try $0.beginCompleting(id) }
    }

    // MARK: 3. Read the linked record

    /// For a withdrawal, re-consent or change: the earlier record is still intact (verified off the actor) and not
    /// withdrawn (another flow may have withdrawn it meanwhile); the new record is made for the same Patient
    /// unless the UI gives one, de-identified when the earlier one was, and names the first record of its chain. A
    /// change also takes the earlier record's Consent, to send it again inactive; a change or withdrawal is refused
    /// when another change amended the record meanwhile, and claims it (`FlowTable`) until its own record is kept.
    private func readLinkedRecord(_ plan: inout CompletionPlan) async throws {
        guard let link = plan.outcome.link else { return }
        let store = records, record = link.recordID, wantsPatient = plan.options.patient == nil
        let isChange = link.kind == .change
        let (linked, amendedConsent, read) = try await disk.run {
            () throws -> ((RecordManifest, JSONValue?, String), JSONValue?, RecordStore) in
            var store = store
            let manifest = try store.verifiedManifest(record)
            return (
                (manifest, wantsPatient ? store.patient(record) : nil, store.enrollmentRecord(of: record)),
                isChange ? store.consent(record) : nil, store)
        }
        records = read
        plan.options.amendedConsent = amendedConsent
        // Back on the actor: the answer holds when it returns, and the claims below follow it without a suspension
        // between them.
        let standing = try await standing(of: record)
        if standing.withdrawn {
            throw AgentError(.alreadyWithdrawn, "the record was already withdrawn; records.get names the withdrawal")
        }
        if standing.amended, link.kind == .change || link.kind == .withdrawal {
            // Another change was kept, or is being written, since this flow started: a change's answers start from
            // a record that no longer stands (two changes of one record must not both be kept), and a withdrawal of
            // it would leave the change standing.
            logger.notice("refused: the record was changed meanwhile", metadata: ["flow": "\(plan.flow)"])
            throw AgentError(.alreadyAmended, "the record was changed already; records.get names the change in amendedBy")
        }
        if wantsPatient { plan.options.patient = linked.1 }
        if linked.0.deidentified { plan.options.deidentify = true }
        plan.outcome.link?.enrollmentRecordID = linked.2
        let id = plan.flow
        if link.kind == .withdrawal { change { $0.claimWithdrawal(of: record, by: id) } }
        if isChange { change { $0.claimAmendment(of: record, by: id) } }
    }

    // MARK: 4. Write the record

    private func writeRecord(_ plan: CompletionPlan) async throws -> RecordReceipt {
        var options = plan.options
        options.auditHead = await auditHead()
        options.flow = plan.flow
        logger.debug("writing the record", metadata: ["flow": "\(plan.flow)"])
        return try await plan.recordMaker.makeRecord(for: plan.outcome, study: plan.entry.session.study, options: options)
    }

    // MARK: 5. Finish

    private func finish(_ plan: CompletionPlan, _ receipt: RecordReceipt) throws -> FlowEntry {
        let id = plan.flow
        var copy: ParticipantCopy?
        if printing != nil, let pdf = receipt.consentPDF, let digest = receipt.manifestSHA256,
            let mark = VerificationMark(recordID: receipt.id, manifestSHA256: digest)
        {
            copy = ParticipantCopy(pdf: pdf, mark: mark)
        }
        return try change { try $0.recordKept(id, receipt, copy: copy) }
    }

    // MARK: 6. Reply

    private func reply(_ id: String, _ entry: FlowEntry, _ receipt: RecordReceipt) -> RPCValue {
        guard case .object(var value) = flowValue(id, entry) else { return flowValue(id, entry) }
        value["directory"] = .string(receipt.directory.path)
        value["files"] = .array(receipt.files.map(RPCValue.string))
        return .object(value)
    }

    // MARK: When 3 or 4 fails

    /// Gives the flow back as it was, to retry, and answers `error`.
    private func giveBack(_ plan: CompletionPlan, _ error: any Error) -> any Error {
        let id = plan.flow
        change { $0.abandonCompleting(id) }
        return error
    }

    /// The error a failed write answers: the client's input refused, an agent error as it is, else `RecordFailed`.
    private func recordFailure(_ error: any Error, flow id: String) -> any Error {
        if let refused = Self.refusedInput(error) {
            // Checked at the params already; this is the defence in depth, and not a storage fault.
            logger.notice("record refused its input", metadata: ["flow": "\(id)", "field": "\(refused.details["field"]?.stringValue ?? "")"])
            return refused
        }
        var metadata: Logger.Metadata = ["flow": "\(id)", "error": "\(type(of: error))"]
        if let code = Self.storageErrno(of: error) { metadata["errno"] = "\(code.rawValue)"; metadata["errnoName"] = "\(code)" }
        logger.error("record failed", metadata: metadata)
        if error is AgentError { return error }
        return AgentError(.recordFailed, "the record could not be written; nothing was kept, try flow.complete again")
    }
}

/// What the steps hand on: the flow, what it consented to, and the options the record is made with.
struct CompletionPlan {
    var flow: String
    var entry: FlowEntry
    var outcome: ConsentOutcome
    var options: CompletionOptions
    var recordMaker: any RecordMaking
}

/// The record makers `flow.complete` runs (step 4), outermost first:
///
///  1. `JournaledRecordMaker`: journals the completion (`<state>/completing/<flow>`) around everything below, so a
///     stop at any point is found at the next start (`CompletionRecovery`); outermost, so the entry lasts until
///     the record is written and queued.
///  2. `QueueingRecordMaker` (when an upload endpoint is configured): queues the durable record for upload.
///  3. `SignedRecordMaker`: composes and signs the record (`ConsentRecordComposer`), names it in the journal, keeps
///     the sealed upload copy of an encrypted record, and writes it durably (`RecordWriter`).
enum RecordMakerChain {
    /// - Parameter sealsUploadPayload: records are stored encrypted and uploaded, so the queue keeps a sealed copy
    ///   to send (the record itself holds only envelopes for its recipient).
    static func make(
        writer: SignedRecordMaker, upload: UploadService?, sealsUploadPayload: Bool, stateDirectory: URL, logger: Logger
    ) -> any RecordMaking {
        var writer = writer
        var maker: any RecordMaking = writer
        if let upload {
            if sealsUploadPayload {
                let payloads = upload.payloads
                writer.sealUploadPayload = { try payloads.store(recordID: $0, bundle: $1) }
                maker = writer
            }
            maker = QueueingRecordMaker(base: maker, upload: upload, logger: logger)
        }
        return JournaledRecordMaker(base: maker, stateDirectory: stateDirectory)
    }
}
