import AgentProtocol
import ConsentCore
import ConsentPDF
import CopyPrinting
import Foundation

/// `copy.print {flow}`.
struct CopyPrintParams {
    var flow: String

    init(_ params: [String: RPCValue]) throws {
        flow = try ParamsReader(params, allowed: ["flow"]).string("flow")
    }
}

/// The participant's copy of a completed flow's record: the signed PDF (PHI, in memory only, dropped with the
/// flow) and the mark stamped on it when it is printed.
struct ParticipantCopy {
    var pdf: Data
    var mark: VerificationMark
    var state: State = .notPrinted
    var job: Int?

    enum State: String {
        case notPrinted, printing, printed, failed
    }

    /// What flow replies carry of it: the state and CUPS's job number, nothing of the document.
    var value: RPCValue? {
        guard state != .notPrinted else { return nil }
        var value: [String: RPCValue] = ["state": .string(state.rawValue)]
        if let job { value["job"] = .integer(Int64(job)) }
        return .object(value)
    }
}

extension PrintContext {
    /// `copy.print`: stamps the record's verification mark on the copy of its `consent.pdf` and hands it to CUPS;
    /// answers `{job}` once CUPS accepted the job. A copy is printed once: a participant who needs another asks
    /// staff, who can have the paper checked (`consentctl copy check`) but print none from `/staff`.
    func printCopy(_ params: CopyPrintParams, _ connection: ConnectionHandle) async throws -> RPCValue {
        let id = params.flow
        guard let entry = flows[id] else { throw AgentError(.unknownFlow, "no flow has this id") }
        // The participant's own screen prints: the connection that drove the flow, or, when that one closed (a
        // reload), a participant's connection; never a staff page (capability records), which prints nothing.
        let mayPrint = entry.driver.map { $0 == connection.id } ?? !connection.capabilities.contains(.records)
        guard mayPrint else {
            throw AgentError(.flowDrivenElsewhere, "only the connection that drove the flow prints its copy")
        }
        guard let printer, printing != nil else {
            throw RPCErrorObject.domain(
                .printerUnavailable, "this kiosk has no printer for the participant's copy", details: ["state": "unavailable"])
        }
        guard entry.session.step == .completed, let copy = entry.copy else {
            throw ConsentCoreError(.invalidAction, "the copy is printed once the record is written (step completed)")
        }
        guard copy.state == .notPrinted || copy.state == .failed, !copy.pdf.isEmpty else {
            throw ConsentCoreError(.invalidAction, "the copy was sent to the printer already; staff can help with another")
        }
        return .object(["flow": .string(id), "job": .integer(Int64(try await submitCopy(of: id, copy, to: printer)))])
    }

    /// Stamps and submits off the actor; the flow's copy says `printing` meanwhile, so a second request is refused.
    func submitCopy(of id: String, _ copy: ParticipantCopy, to printer: CopyPrinter) async throws -> Int {
        setCopyState(id, .printing, job: nil)
        let pdf = copy.pdf, mark = copy.mark
        do {
            let stamped = try await disk.run { try mark.stamp(pdf) }
            // The job's name is seen by anyone who may list the queue: the record id only, never a name.
            let job = try await printer.print([UInt8](stamped), title: "consent copy \(mark.recordID)")
            setCopyState(id, .printing, job: job)
            // CUPS has the document now; the agent keeps no copy of it longer than it must.
            table.dropCopyPDF(of: id)
            lastCopyJob = job
            logger.info("participant's copy sent to the printer", metadata: ["flow": "\(id)", "job": "\(job)"])
            watchCopyJob(job, of: id, on: printer)
            return job
        } catch let error as CopyPrintingError {
            setCopyState(id, .failed, job: nil)
            switch error {
            case .unavailable(let state, let reason):
                logger.warning("printer unavailable for the participant's copy", metadata: ["flow": "\(id)", "state": "\(state)", "reason": "\(reason ?? "")"])
                var details: [String: RPCValue] = ["state": .string(state)]
                if let reason { details["reason"] = .string(reason) }
                throw RPCErrorObject.domain(
                    .printerUnavailable, "the printer is \(state)\(reason.map { " (\($0))" } ?? ""); the record is kept, staff can print its copy",
                    details: details)
            case .failed(let state):
                logger.warning("printing the participant's copy failed", metadata: ["flow": "\(id)", "state": "\(state)"])
                throw RPCErrorObject.domain(
                    .printFailed, "CUPS did not take the copy (\(state)); the record is kept, staff can print its copy",
                    details: ["state": .string(state)])
            }
        } catch {
            setCopyState(id, .failed, job: nil)
            logger.error("the participant's copy could not be made", metadata: ["flow": "\(id)", "error": "\(type(of: error))"])
            throw RPCErrorObject.domain(
                .printFailed, "the copy could not be made; the record is kept, staff can print its copy",
                details: ["state": "copy-not-made"])
        }
    }

    /// Follows the job until CUPS says it is done (or two minutes pass), so the end screen can say so.
    private func watchCopyJob(_ job: Int, of id: String, on printer: CopyPrinter) {
        Task { [weak self] in
            for _ in 0..<240 {
                try? await Task.sleep(for: .milliseconds(500))
                let status = await printer.status(job: job)
                guard let state = status.job, state.isFinal else { continue }
                await self?.copyJobEnded(id, job: job, printed: state == .completed, state: state)
                return
            }
        }
    }

    private func copyJobEnded(_ id: String, job: Int, printed: Bool, state: PrinterStatus.JobState) {
        lastCopyJobState = state
        setCopyState(id, printed ? .printed : .failed, job: job)
        if !printed { logger.warning("the participant's copy was not printed", metadata: ["flow": "\(id)", "job": "\(job)", "state": "\(state.rawValue)"]) }
    }

    private func setCopyState(_ id: String, _ state: ParticipantCopy.State, job: Int?) {
        perform(table.setCopyState(id, state, job: job))
    }

    /// `printCopy` "always": the copy is printed when the record is written, without being asked; a failure is
    /// logged and shown on the end screen, never undoes the consent.
    func printWithoutAsking(_ id: String) {
        guard printing?.mode == .always, let printer, let copy = flows[id]?.copy else { return }
        Task { [weak self] in _ = try? await self?.submitCopy(of: id, copy, to: printer) }
    }

    /// `printer.status`: the printer's state and the last copy's job state for a staff page; no PHI.
    func printerStatus(_: NoParams) async throws -> RPCValue {
        guard let printer else { return ["configured": false] }
        let job = lastCopyJob
        let status = await printer.status(job: job)
        var value: [String: RPCValue] = [
            "configured": true, "printer": .string(printer.destination), "state": .string(status.state.rawValue),
            "acceptingJobs": .bool(status.acceptingJobs),
        ]
        if let reason = status.reason { value["reason"] = .string(reason) }
        if let job {
            let state = status.job ?? lastCopyJobState
            value["lastJob"] = .object(["job": .integer(Int64(job))].merging(state.map { ["state": .string($0.rawValue)] } ?? [:]) { a, _ in a })
        }
        return .object(value)
    }

    /// The printed copy's parts of a flow reply, and `printCopy` in the view while the participant may ask for it.
    func addCopy(to model: inout StepViewModel, _ entry: FlowEntry) {
        // Every record gets a copy: a consent, a re-consent, a withdrawal.
        guard printing?.mode == .offer else { return }
        let offered: Bool
        switch entry.session.step {
        case .done: offered = true
        case .completed:
            offered = entry.copy.map { ($0.state == .notPrinted || $0.state == .failed) && !$0.pdf.isEmpty } ?? false
        default: offered = false
        }
        guard offered else { return }
        model.actions.append(.printCopy)
        model.labels[ConsentActionName.printCopy.rawValue] = ScreenTexts(language: entry.session.study.language).printCopy
    }
}
