import AgentProtocol
import ConsentCore
import ConsentPDF
import CopyPrinting
import Foundation
import NIOConcurrencyHelpers

/// The participant's copy of a completed flow's record: the signed PDF (PHI, in memory only, dropped with the
/// flow) and the mark stamped on it when it is printed.
struct ParticipantCopy {
    var pdf: Data
    var mark: VerificationMark
    var state: State = .notPrinted
    var job: Int?
    /// Why a `failed` copy was not printed (Flow.copy.reason), for the staff page.
    var reason: Reason?

    enum State: String {
        case notPrinted, printing, printed, failed
    }

    enum Reason: String {
        /// CUPS had not finished the job `printTimeoutSeconds` after it took it; the agent cancelled it.
        case timedOut
        /// CUPS ended the job without printing it (`aborted`, `cancelled`).
        case jobAborted, jobCancelled
        /// `PrinterUnavailable`, `PrintFailed`: CUPS did not take the job.
        case printerUnavailable, printFailed
        /// The copy could not be stamped.
        case copyNotMade
    }

    /// What flow replies carry of it: the state, CUPS's job number and why it failed, nothing of the document.
    var value: RPCValue? {
        guard state != .notPrinted else { return nil }
        var value: [String: RPCValue] = ["state": .string(state.rawValue)]
        if let job { value["job"] = .integer(Int64(job)) }
        if state == .failed, let reason { value["reason"] = .string(reason.rawValue) }
        return .object(value)
    }
}

/// How long `copy.print` waits for CUPS to take the job before it answers without the job's number: replies come
/// in request order on a connection, so while it waited every later request of the participant's screen waited
/// too. A local cupsd takes a job in a fraction of this.
enum CopyReply {
    static let bound: Duration = .seconds(2)
}

extension PrintContext {
    /// `copy.print`: stamps the record's verification mark on the copy of its `consent.pdf` and hands it to CUPS;
    /// answers `{flow, job}` once CUPS accepted the job, or `{flow}` when CUPS has not answered within
    /// `CopyReply.bound` (the copy is `printing` meanwhile; Flow.copy follows with the job, and to printed or
    /// failed). A copy is printed once: a participant who needs another asks staff, who can have the paper
    /// checked (`consentctl copy check`) but print none from `/staff`.
    func printCopy(_ params: FlowParams, _ connection: ConnectionHandle) async throws -> RPCValue {
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
        // `printing` before anything is awaited: a second request is refused from here on.
        setCopyState(id, .printing, job: nil)
        let submission = Task { try await self.submitCopy(of: id, copy, to: printer) }
        guard let taken = await Self.result(of: submission, within: CopyReply.bound) else {
            logger.notice("CUPS has not taken the participant's copy yet; answered without its job", metadata: ["flow": "\(id)"])
            return .object(["flow": .string(id)])
        }
        return .object(["flow": .string(id), "job": .integer(Int64(try taken.get()))])
    }

    /// `task`'s result if it ends within `bound`; nil if not (it goes on, and reports through the flow).
    static func result<T: Sendable>(of task: Task<T, any Error>, within bound: Duration) async -> Result<T, any Error>? {
        let waiting = NIOLockedValueBox<CheckedContinuation<Result<T, any Error>?, Never>?>(nil)
        let answer = { @Sendable (value: Result<T, any Error>?) in
            let continuation = waiting.withLockedValue { pending in
                defer { pending = nil }
                return pending
            }
            continuation?.resume(returning: value)
        }
        return await withCheckedContinuation { continuation in
            waiting.withLockedValue { $0 = continuation }
            let timer = Task {
                try? await Task.sleep(for: bound)
                answer(nil)
            }
            Task {
                let result = await task.result
                // The answer first: a cancelled timer's sleep ends at once, and its `answer(nil)` must find the
                // continuation taken.
                answer(result)
                timer.cancel()
            }
        }
    }

    /// Stamps and submits off the actor; the caller has set the flow's copy to `printing` (one `flow.changed`), so
    /// a second request is refused meanwhile.
    func submitCopy(of id: String, _ copy: ParticipantCopy, to printer: CopyPrinter) async throws -> Int {
        let pdf = copy.pdf, mark = copy.mark
        do {
            let stamped = try await disk.run { try mark.stamp(pdf) }
            // The job's name is seen by anyone who may list the queue: the record id only, never a name.
            let job = try await printer.print([UInt8](stamped), title: "consent copy \(mark.recordID)")
            setCopyState(id, .printing, job: job)
            // CUPS has the document now; the agent keeps no copy of it longer than it must.
            change { $0.dropCopyPDF(of: id) }
            lastCopyJob = job
            lastCopyJobState = nil
            lastCopy = (.printing, nil, job)
            logger.info("participant's copy sent to the printer", metadata: ["flow": "\(id)", "job": "\(job)"])
            watchCopyJob(job, of: id, on: printer, timeout: printing?.timeout ?? PrintSettings.defaultTimeout)
            return job
        } catch let error as CopyPrintingError {
            switch error {
            case .unavailable(let state, let reason):
                copyNotTaken(id, .printerUnavailable)
                logger.warning("printer unavailable for the participant's copy", metadata: ["flow": "\(id)", "state": "\(state)", "reason": "\(reason ?? "")"])
                var details: [String: RPCValue] = ["state": .string(state)]
                if let reason { details["reason"] = .string(reason) }
                throw RPCErrorObject.domain(
                    .printerUnavailable, "the printer is \(state)\(reason.map { " (\($0))" } ?? ""); the record is kept, staff can print its copy",
                    details: details)
            case .failed(let state):
                copyNotTaken(id, .printFailed)
                logger.warning("printing the participant's copy failed", metadata: ["flow": "\(id)", "state": "\(state)"])
                throw RPCErrorObject.domain(
                    .printFailed, "CUPS did not take the copy (\(state)); the record is kept, staff can print its copy",
                    details: ["state": .string(state)])
            }
        } catch {
            copyNotTaken(id, .copyNotMade)
            logger.error("the participant's copy could not be made", metadata: ["flow": "\(id)", "error": "\(type(of: error))"])
            throw RPCErrorObject.domain(
                .printFailed, "the copy could not be made; the record is kept, staff can print its copy",
                details: ["state": "copy-not-made"])
        }
    }

    /// Follows the job until CUPS says it is done; a job not done within `timeout` (`printTimeoutSeconds`; a queue
    /// stopped mid-job puts it back to pending, where it would wait for ever) is cancelled and the copy ends as
    /// failed, so the end screen asks the participant to see staff and the staff page says why.
    private func watchCopyJob(_ job: Int, of id: String, on printer: CopyPrinter, timeout: Duration) {
        Task { [weak self] in
            let clock = ContinuousClock()
            let deadline = clock.now + timeout
            var seen: PrinterStatus.JobState?
            while clock.now < deadline {
                try? await Task.sleep(for: min(.milliseconds(500), max(.zero, deadline - clock.now)))
                let status = await printer.status(job: job)
                if let state = status.job { seen = state }
                guard let state = status.job, state.isFinal else { continue }
                await self?.copyJobEnded(id, job: job, printed: state == .completed, state: state)
                return
            }
            // Cancelled, the job does not print once the participant has gone with the words "ask staff".
            let cancelled = await printer.cancel(job: job)
            await self?.copyJobTimedOut(id, job: job, seen: seen, cancelled: cancelled, after: timeout)
        }
    }

    private func copyJobEnded(_ id: String, job: Int, printed: Bool, state: PrinterStatus.JobState) {
        lastCopyJobState = state
        let reason: ParticipantCopy.Reason? = printed ? nil : (state == .cancelled ? .jobCancelled : .jobAborted)
        if job == lastCopyJob { lastCopy = (printed ? .printed : .failed, reason, job) }
        setCopyState(id, printed ? .printed : .failed, job: job, reason: reason)
        if !printed { logger.warning("the participant's copy was not printed", metadata: ["flow": "\(id)", "job": "\(job)", "state": "\(state.rawValue)"]) }
    }

    private func copyJobTimedOut(_ id: String, job: Int, seen: PrinterStatus.JobState?, cancelled: Bool, after timeout: Duration) {
        if cancelled { lastCopyJobState = .cancelled } else if let seen { lastCopyJobState = seen }
        if job == lastCopyJob { lastCopy = (.failed, .timedOut, job) }
        setCopyState(id, .failed, job: job, reason: .timedOut)
        logger.warning("the participant's copy did not print in time; the participant was asked to see staff", metadata: [
            "flow": "\(id)", "job": "\(job)", "state": "\(seen?.rawValue ?? "unknown")", "timeout": "\(timeout)",
            "cancelled": "\(cancelled)",
        ])
    }

    /// CUPS did not take the copy (or it could not be made): the copy fails, and is the last one the staff page shows.
    private func copyNotTaken(_ id: String, _ reason: ParticipantCopy.Reason) {
        lastCopy = (.failed, reason, nil)
        setCopyState(id, .failed, job: nil, reason: reason)
    }

    private func setCopyState(_ id: String, _ state: ParticipantCopy.State, job: Int?, reason: ParticipantCopy.Reason? = nil) {
        change { $0.setCopyState(id, state, job: job, reason: reason) }
    }

    /// `printCopy` "always": the copy is printed when the record is written, without being asked; a failure is
    /// logged and shown on the end screen, never undoes the consent.
    func printWithoutAsking(_ id: String) {
        guard printing?.mode == .always, let printer, let copy = flows[id]?.copy else { return }
        setCopyState(id, .printing, job: nil)
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
            value["lastJob"] = .object(["job": .integer(Int64(job))].merging(
                (status.job ?? lastCopyJobState).map { ["state": .string($0.rawValue)] } ?? [:]) { a, _ in a })
        }
        // What the participant was told of the last copy: printing, printed, or failed and why (timedOut: CUPS had
        // not finished it in printTimeoutSeconds, and the agent cancelled it), with its job once CUPS took it.
        if let copy = lastCopy {
            var last: [String: RPCValue] = ["state": .string(copy.state.rawValue)]
            if let reason = copy.reason { last["reason"] = .string(reason.rawValue) }
            if let job = copy.job { last["job"] = .integer(Int64(job)) }
            value["lastCopy"] = .object(last)
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
