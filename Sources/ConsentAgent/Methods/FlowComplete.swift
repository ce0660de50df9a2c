import AgentProtocol
import ConsentCore
import ConsentPDF
import ConsentSigning
import FileBytes
import Foundation
import Logging

/// `flow.complete {flow, patient?, deidentify?, location?}`: the patient and the location are checked as FHIR here,
/// so bad input is `InvalidParams` naming the member, never `RecordFailed` ("try again").
struct FlowCompleteParams {
    var flow: String
    var options = CompletionOptions()

    init(_ params: [String: RPCValue]) throws {
        let reader = try ParamsReader(params, allowed: ["flow", "patient", "deidentify", "location"])
        flow = try reader.string("flow")
        if let patient = reader.optionalValue("patient") {
            guard case .object = patient else {
                throw RPCErrorObject.invalidParams(field: "patient", "patient must be a FHIR Patient object")
            }
            let json = patient
            do { try FHIRInputCheck.patient(json, today: Date()) } catch let error as FHIRInputCheck.Fault {
                throw RPCErrorObject.invalidParams(field: error.field, "\(error.field) \(error.message)")
            }
            options.patient = json
        }
        options.deidentify = try reader.optionalBool("deidentify") ?? false
        if let location = reader.optionalValue("location") {
            guard case .object = location else {
                throw RPCErrorObject.invalidParams(field: "location", "location must be a FHIR Address object")
            }
            let json = location
            do { try FHIRInputCheck.address(json) } catch let error as FHIRInputCheck.Fault {
                throw RPCErrorObject.invalidParams(field: error.field, "\(error.field) \(error.message)")
            }
            options.location = json
        }
    }
}

extension AgentCore {
    /// Writes the record, then marks the flow completed; the reply waits until the record is durable.
    func complete(_ params: FlowCompleteParams) async throws -> RPCValue {
        let id = params.flow
        var entry = try runningEntry(id)
        if entry.session.expireIfIdle(now: now()) {
            flows[id] = entry
            flowEnded(id, entry)
            throw ConsentCoreError(.flowFinished, "the flow expired")
        }
        guard !entry.session.step.isFinished else {
            throw ConsentCoreError(.flowFinished, "the flow has ended (\(entry.session.step.rawValue))")
        }
        var outcome = try entry.session.outcome()
        guard let recordMaker else {
            throw AgentError(.noRecordMaker, "this agent has no record maker; it cannot complete consents")
        }
        guard !completions.isStopping else { throw AgentError(.shuttingDown, "the agent is shutting down; complete after restart") }
        var options = params.options
        if let link = outcome.link {
            try prepareLinked(link, options: &options)
            outcome.link?.enrollmentRecordID = records.enrollmentRecord(of: link.recordID)
        }
        let withdrawn = outcome.link?.kind == .withdrawal ? outcome.link?.recordID : nil
        if let withdrawn { records.beginWithdrawal(of: withdrawn) }
        defer { if let withdrawn { records.endWithdrawal(of: withdrawn) } }
        entry.isCompleting = true
        flows[id] = entry
        options.auditHead = auditor.head
        options.flow = id
        logger.debug("writing the record", metadata: ["flow": "\(id)"])
        let receipt: RecordReceipt
        do {
            receipt = try await recordMaker.makeRecord(for: outcome, study: entry.session.study, options: options)
        } catch {
            flows[id]?.isCompleting = false
            if let refused = Self.refusedInput(error) {
                // Checked at the params already; this is the defence in depth, and not a storage fault.
                logger.notice("record refused its input", metadata: ["flow": "\(id)", "field": "\(refused.details["field"]?.stringValue ?? "")"])
                throw refused
            }
            var metadata: Logger.Metadata = ["flow": "\(id)", "error": "\(type(of: error))"]
            if let code = Self.storageErrno(of: error) { metadata["errno"] = "\(code.rawValue)"; metadata["errnoName"] = "\(code)" }
            logger.error("record failed", metadata: metadata)
            if error is AgentError { throw error }
            throw AgentError(.recordFailed, "the record could not be written; nothing was kept, try flow.complete again")
        }
        entry.isCompleting = false
        entry.recordID = receipt.id
        if printing != nil, let pdf = receipt.consentPDF, let digest = receipt.manifestSHA256,
            let mark = VerificationMark(recordID: receipt.id, manifestSHA256: digest)
        {
            entry.copy = ParticipantCopy(pdf: pdf, mark: mark)
        }
        let copy = entry.copy
        try entry.session.markCompleted()
        flows[id] = entry
        if let copy { holdCopy(copy, of: id) }
        logger.info("record written", metadata: ["flow": "\(id)", "record": "\(receipt.id)"])
        auditor.completed(id, entry.session, receipt: receipt)
        if let withdrawn { auditor.withdrawn(id, entry.session, original: withdrawn) }
        flowEnded(id, entry)
        printWithoutAsking(id)
        guard case .object(var value) = flowValue(id, entry) else { return flowValue(id, entry) }
        value["directory"] = .string(receipt.directory.path)
        value["files"] = .array(receipt.files.map(RPCValue.string))
        return .object(value)
    }

    /// A signing error that says the client's patient or location is unusable, as the params error it is.
    private static func refusedInput(_ error: any Error) -> RPCErrorObject? {
        guard let error = error as? ConsentSigningError else { return nil }
        switch error.code {
        case .notAPatient, .invalidPatient, .invalidBirthDate:
            return .invalidParams(field: "patient", "patient is not a usable FHIR Patient")
        case .invalidLocation:
            return .invalidParams(field: "location", "location is not a usable FHIR Address")
        default:
            return nil
        }
    }

    /// The errno under a storage fault, for the log (ENOSPC, EROFS, EMFILE, EIO say what to fix).
    static func storageErrno(of error: any Error) -> POSIXErrorCode? {
        if let posix = error as? POSIXError { return posix.code }
        if let failure = error as? FileBytes.Failure { return POSIXErrorCode(rawValue: failure.errno) }
        if let signing = error as? ConsentSigningError, let cause = signing.cause { return storageErrno(of: cause) }
        return nil
    }
}
