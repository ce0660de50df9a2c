import CCups
import Dispatch

/// A CUPS destination the participant's copy is printed on: the job is handed to CUPS over IPP (libcups), from
/// memory, so no file of ours holds the copy anywhere; CUPS keeps the job's document in its spool only as long as
/// its own `PreserveJobFiles` says (docs/OPERATIONS.md).
///
/// Every call blocks on the network and runs on the printer's own serial queue, never on a caller's thread: the
/// agent awaits it without holding its actor. libcups keeps its default connection and last error per thread, so
/// each call does its whole exchange within one block.
public final class CopyPrinter: Sendable {
    /// The CUPS destination (queue) name.
    public let destination: String
    private let queue = DispatchQueue(label: "consent-kiosk.copy-printing")

    public init(destination: String) {
        self.destination = destination
    }

    /// Hands `document` (a PDF) to CUPS as one job named `title`, and returns once CUPS has accepted it.
    ///
    /// - Parameter title: the job's name as CUPS lists it to anyone who may see the queue: never PHI.
    /// - Throws: `CopyPrintingError.unavailable` when the destination is unknown, unreachable, stopped or not
    ///   accepting jobs (nothing was sent); `.failed` with CUPS's status when the submission went wrong.
    public func print(_ document: [UInt8], title: String) async throws(CopyPrintingError) -> Int {
        let destination = destination
        let result: Result<Int, CopyPrintingError> = await withCheckedContinuation { continuation in
            queue.async { continuation.resume(returning: Self.submit(document, title: title, to: destination)) }
        }
        return try result.get()
    }

    /// The destination's state, and the state of `job` when given (nil when CUPS no longer lists it).
    public func status(job: Int? = nil) async -> PrinterStatus {
        let destination = destination
        return await withCheckedContinuation { continuation in
            queue.async { continuation.resume(returning: Self.status(of: destination, job: job)) }
        }
    }

    private static func submit(_ document: [UInt8], title: String, to destination: String) -> Result<Int, CopyPrintingError> {
        let printer = status(of: destination, job: nil)
        guard printer.state == .idle || printer.state == .printing, printer.acceptingJobs else {
            return .failure(.unavailable(state: printer.state.rawValue, reason: printer.reason))
        }
        let job = Int(cupsCreateJob(nil, destination, title, 0, nil))
        guard job > 0 else { return .failure(.failed(state: lastStatus())) }
        guard cupsStartDocument(nil, destination, Int32(job), "consent.pdf", CUPS_FORMAT_PDF, 1) == HTTP_STATUS_CONTINUE
        else {
            let state = lastStatus()
            _ = cupsCancelJob2(nil, destination, Int32(job), 0)
            return .failure(.failed(state: state))
        }
        let written = document.withUnsafeBufferPointer { buffer in
            buffer.baseAddress.map { base in
                base.withMemoryRebound(to: CChar.self, capacity: buffer.count) { cupsWriteRequestData(nil, $0, buffer.count) }
            } ?? HTTP_STATUS_CONTINUE
        }
        let finished = cupsFinishDocument(nil, destination)
        guard written == HTTP_STATUS_CONTINUE, finished.rawValue < IPP_STATUS_REDIRECTION_OTHER_SITE.rawValue else {
            let state = lastStatus()
            _ = cupsCancelJob2(nil, destination, Int32(job), 0)
            return .failure(.failed(state: state))
        }
        return .success(job)
    }

    /// CUPS's last IPP status on this thread, by its RFC 8011 keyword (`server-error-not-accepting-jobs`); the
    /// human text that goes with it may quote a job's name, so it is never used.
    private static func lastStatus() -> String {
        String(cString: ippErrorString(cupsLastError()))
    }

    private static func status(of destination: String, job: Int?) -> PrinterStatus {
        guard let dest = cupsGetNamedDest(nil, destination, nil) else {
            return PrinterStatus(state: .unavailable, reason: lastStatus(), acceptingJobs: false, job: nil)
        }
        defer { cupsFreeDests(1, dest) }
        func option(_ name: String) -> String? {
            cupsGetOption(name, dest.pointee.num_options, dest.pointee.options).map { String(cString: $0) }
        }
        let state: PrinterStatus.State =
            switch option("printer-state") {
            case "3": .idle
            case "4": .printing
            case "5": .stopped
            default: .unavailable
            }
        let reasons = option("printer-state-reasons").flatMap { $0 == "none" ? nil : $0 }
        var status = PrinterStatus(
            state: state, reason: reasons, acceptingJobs: option("printer-is-accepting-jobs") != "false", job: nil)
        if let job { status.job = jobState(job, on: destination) }
        return status
    }

    private static func jobState(_ id: Int, on destination: String) -> PrinterStatus.JobState? {
        var jobs: UnsafeMutablePointer<cups_job_t>?
        let count = Int(cupsGetJobs2(nil, &jobs, destination, 0, CUPS_WHICHJOBS_ALL))
        guard count > 0, let jobs else { return nil }
        defer { cupsFreeJobs(Int32(count), jobs) }
        for index in 0..<count where Int(jobs[index].id) == id {
            return PrinterStatus.JobState(ipp: jobs[index].state)
        }
        return nil
    }
}

/// What a staff page may see of the printer: its state, CUPS's reasons, the last job's state. Never a job's name
/// or document.
public struct PrinterStatus: Sendable, Hashable {
    public enum State: String, Sendable, Hashable {
        case idle, printing, stopped
        /// CUPS does not know the destination, or cannot be reached.
        case unavailable
    }

    public enum JobState: String, Sendable, Hashable {
        case pending, held, processing, stopped, cancelled, aborted, completed

        init?(ipp: ipp_jstate_t) {
            switch ipp {
            case IPP_JSTATE_PENDING: self = .pending
            case IPP_JSTATE_HELD: self = .held
            case IPP_JSTATE_PROCESSING: self = .processing
            case IPP_JSTATE_STOPPED: self = .stopped
            case IPP_JSTATE_CANCELED: self = .cancelled
            case IPP_JSTATE_ABORTED: self = .aborted
            case IPP_JSTATE_COMPLETED: self = .completed
            default: return nil
            }
        }

        /// Whether the job will change no more.
        public var isFinal: Bool { self == .cancelled || self == .aborted || self == .completed }
    }

    public var state: State
    /// CUPS's `printer-state-reasons` keywords (`paused`, `media-empty-error`), or nil when there are none.
    public var reason: String?
    public var acceptingJobs: Bool
    public var job: JobState?

    public init(state: State, reason: String?, acceptingJobs: Bool, job: JobState?) {
        self.state = state
        self.reason = reason
        self.acceptingJobs = acceptingJobs
        self.job = job
    }
}

/// Why a copy was not printed; both name CUPS's state by its keywords, never a job's name or document.
public enum CopyPrintingError: Error, Sendable, Hashable {
    /// The destination is unknown, unreachable, stopped or refusing jobs; nothing was sent.
    case unavailable(state: String, reason: String?)
    /// CUPS refused or lost the submission; `state` is its IPP status keyword.
    case failed(state: String)
}
