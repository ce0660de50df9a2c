import CCups
import Dispatch
import NIOConcurrencyHelpers

/// A CUPS destination the participant's copy is printed on: the job is handed to CUPS over IPP (libcups), from
/// memory, so no file of ours holds the copy anywhere; CUPS keeps the job's document in its spool only as long as
/// its own `PreserveJobFiles` says (docs/OPERATIONS.md).
///
/// Every exchange blocks on the network, so it runs on a queue of the printer's own, never on a caller's thread:
/// the agent awaits it without holding its actor. Each exchange opens a connection of its own whose waits are
/// bounded (`Timeouts`; `ccups_connect` in the CCups shim), does its whole work within one block (libcups keeps its
/// last error per thread) and closes it. Exchanges run side by side: a server that accepted and never answers
/// holds up each exchange for at most its bounds, and never one behind another (a serial queue let one hung
/// status poll make `copy.print` wait 183 s and `printer.status` four minutes). Asks for the same status at the
/// same time (the job watcher's poll, a staff page's `printer.status`) share one exchange.
public final class CopyPrinter: Sendable {
    /// How long an exchange with CUPS may wait.
    public struct Timeouts: Sendable, Hashable {
        /// To connect to the server.
        public var connectMilliseconds: Int32
        /// For each read or write to make progress; an answer slower than this ends the exchange as unreachable.
        public var ioSeconds: Double

        /// 5 s each: a local cupsd answers in milliseconds, a print server on the clinic's network well within it.
        public static let standard = Timeouts(connectMilliseconds: 5000, ioSeconds: 5)

        public init(connectMilliseconds: Int32, ioSeconds: Double) {
            self.connectMilliseconds = connectMilliseconds
            self.ioSeconds = ioSeconds
        }
    }

    /// The CUPS destination (queue) name.
    public let destination: String
    public let timeouts: Timeouts
    private let queue = DispatchQueue(label: "consent-kiosk.copy-printing", attributes: .concurrent)
    /// The callers waiting for a status exchange in progress, by the job it asks about.
    private let waiting = NIOLockedValueBox<[Int?: [CheckedContinuation<PrinterStatus, Never>]]>([:])

    public init(destination: String, timeouts: Timeouts = .standard) {
        self.destination = destination
        self.timeouts = timeouts
    }

    /// Hands `document` (a PDF) to CUPS as one job named `title`, and returns once CUPS has accepted it.
    ///
    /// - Parameter title: the job's name as CUPS lists it to anyone who may see the queue: never PHI.
    /// - Throws: `CopyPrintingError.unavailable` when the destination is unknown, unreachable, stopped or not
    ///   accepting jobs (nothing was sent); `.failed` with CUPS's status when the submission went wrong.
    public func print(_ document: [UInt8], title: String) async throws(CopyPrintingError) -> Int {
        let destination = destination, timeouts = timeouts
        let result: Result<Int, CopyPrintingError> = await withCheckedContinuation { continuation in
            queue.async { continuation.resume(returning: Self.submit(document, title: title, to: destination, timeouts)) }
        }
        return try result.get()
    }

    /// The destination's state, and the state of `job` when given (nil when CUPS no longer lists it).
    public func status(job: Int? = nil) async -> PrinterStatus {
        let destination = destination, timeouts = timeouts
        return await withCheckedContinuation { continuation in
            let first = waiting.withLockedValue { waiting in
                defer { waiting[job, default: []].append(continuation) }
                return waiting[job] == nil
            }
            guard first else { return }
            queue.async {
                let status = Self.exchange(timeouts) { http in Self.status(of: destination, job: job, http) }
                    ?? PrinterStatus(state: .unavailable, reason: Self.unreachable, acceptingJobs: false, job: nil)
                let callers = self.waiting.withLockedValue { $0.removeValue(forKey: job) ?? [] }
                for caller in callers { caller.resume(returning: status) }
            }
        }
    }

    /// Cancels `job` (a copy that did not print in time, so it does not come out once the participant has gone);
    /// false when CUPS could not be reached or refused.
    public func cancel(job: Int) async -> Bool {
        let destination = destination, timeouts = timeouts
        return await withCheckedContinuation { continuation in
            queue.async {
                let cancelled = Self.exchange(timeouts) { http in
                    cupsCancelJob2(http, destination, Int32(job), 0).rawValue < IPP_STATUS_REDIRECTION_OTHER_SITE.rawValue
                }
                continuation.resume(returning: cancelled ?? false)
            }
        }
    }

    /// Runs `body` on a connection of its own with bounded waits; nil when the server cannot be reached.
    private static func exchange<T>(_ timeouts: Timeouts, _ body: (OpaquePointer) -> T) -> T? {
        guard let http = ccups_connect(timeouts.connectMilliseconds, timeouts.ioSeconds) else { return nil }
        defer { httpClose(http) }
        return body(http)
    }

    private static func submit(
        _ document: [UInt8], title: String, to destination: String, _ timeouts: Timeouts
    ) -> Result<Int, CopyPrintingError> {
        let outcome = exchange(timeouts) { http -> Result<Int, CopyPrintingError> in
            let printer = status(of: destination, job: nil, http)
            guard printer.state == .idle || printer.state == .printing, printer.acceptingJobs else {
                return .failure(.unavailable(state: printer.state.rawValue, reason: printer.reason))
            }
            let job = createJob(title: title, on: destination, http)
            guard job > 0 else { return .failure(.failed(state: lastStatus())) }
            guard cupsStartDocument(http, destination, Int32(job), "consent.pdf", CUPS_FORMAT_PDF, 1) == HTTP_STATUS_CONTINUE
            else {
                let state = lastStatus()
                cancelAfterFailure(job, on: destination, timeouts)
                return .failure(.failed(state: state))
            }
            let written = document.withUnsafeBufferPointer { buffer in
                buffer.baseAddress.map { base in
                    base.withMemoryRebound(to: CChar.self, capacity: buffer.count) { cupsWriteRequestData(http, $0, buffer.count) }
                } ?? HTTP_STATUS_CONTINUE
            }
            let finished = cupsFinishDocument(http, destination)
            guard written == HTTP_STATUS_CONTINUE, finished.rawValue < IPP_STATUS_REDIRECTION_OTHER_SITE.rawValue else {
                let state = lastStatus()
                cancelAfterFailure(job, on: destination, timeouts)
                return .failure(.failed(state: state))
            }
            return .success(job)
        }
        return outcome ?? .failure(.unavailable(state: PrinterStatus.State.unavailable.rawValue, reason: unreachable))
    }

    /// A job whose document did not arrive whole: cancelled on a fresh connection (the one that failed may be
    /// broken), so a half document never prints.
    private static func cancelAfterFailure(_ job: Int, on destination: String, _ timeouts: Timeouts) {
        _ = exchange(timeouts) { http in cupsCancelJob2(http, destination, Int32(job), 0) }
    }

    /// The reason of a server that could not be reached at all (no connection within the bound).
    private static let unreachable = String(cString: ippErrorString(IPP_STATUS_ERROR_SERVICE_UNAVAILABLE))

    /// CUPS's last IPP status on this thread, by its RFC 8011 keyword (`server-error-not-accepting-jobs`); the
    /// human text that goes with it may quote a job's name, so it is never used. No answer at all (a read or write
    /// that timed out, a connection that broke: libcups says internal-error) is the server being unavailable.
    private static func lastStatus() -> String {
        let status = cupsLastError()
        return status == IPP_STATUS_ERROR_INTERNAL ? unreachable : String(cString: ippErrorString(status))
    }

    /// `ipp://localhost/printers/<destination>`, as libcups' own calls name a local queue.
    private static func printerURI(_ destination: String) -> String {
        var uri = [CChar](repeating: 0, count: 1024)
        _ = httpAssembleURI(HTTP_URI_CODING_ALL, &uri, Int32(uri.count), "ipp", nil, "localhost", ippPort(), "/printers/\(destination)")
        return String(cString: uri)
    }

    /// An IPP request of `operation` on the destination, from this user; nil when libcups has no memory for it.
    private static func request(_ operation: ipp_op_t, on destination: String) -> OpaquePointer? {
        guard let request = ippNewRequest(operation) else { return nil }
        ippAddString(request, IPP_TAG_OPERATION, IPP_TAG_URI, "printer-uri", nil, printerURI(destination))
        ippAddString(request, IPP_TAG_OPERATION, IPP_TAG_NAME, "requesting-user-name", nil, cupsUser())
        return request
    }

    /// Create-Job; the job's id, or 0 when CUPS refused (its status in `lastStatus`).
    private static func createJob(title: String, on destination: String, _ http: OpaquePointer) -> Int {
        guard let create = request(IPP_OP_CREATE_JOB, on: destination) else { return 0 }
        ippAddString(create, IPP_TAG_OPERATION, IPP_TAG_NAME, "job-name", nil, title)
        guard let response = cupsDoRequest(http, create, "/printers/\(destination)") else { return 0 }
        defer { ippDelete(response) }
        guard ippGetStatusCode(response).rawValue < IPP_STATUS_REDIRECTION_OTHER_SITE.rawValue,
            let id = ippFindAttribute(response, "job-id", IPP_TAG_INTEGER)
        else { return 0 }
        return Int(ippGetInteger(id, 0))
    }

    private static func status(of destination: String, job: Int?, _ http: OpaquePointer) -> PrinterStatus {
        let unavailable = { PrinterStatus(state: .unavailable, reason: lastStatus(), acceptingJobs: false, job: nil) }
        guard let ask = request(IPP_OP_GET_PRINTER_ATTRIBUTES, on: destination) else { return unavailable() }
        ccups_request_printer_state(ask)
        guard let response = cupsDoRequest(http, ask, "/") else { return unavailable() }
        defer { ippDelete(response) }
        let code = ippGetStatusCode(response)
        guard code.rawValue < IPP_STATUS_REDIRECTION_OTHER_SITE.rawValue else {
            return PrinterStatus(state: .unavailable, reason: String(cString: ippErrorString(code)), acceptingJobs: false, job: nil)
        }
        let state: PrinterStatus.State =
            switch ippFindAttribute(response, "printer-state", IPP_TAG_ENUM).map({ ippGetInteger($0, 0) }) {
            case 3: .idle
            case 4: .printing
            case 5: .stopped
            default: .unavailable
            }
        // As cupsGetNamedDest listed them: the keywords joined by commas, "none" for none.
        let reasons = ippFindAttribute(response, "printer-state-reasons", IPP_TAG_KEYWORD).map { attribute in
            (0..<ippGetCount(attribute)).compactMap { ippGetString(attribute, $0, nil).map { String(cString: $0) } }
                .joined(separator: ",")
        }.flatMap { $0 == "none" || $0.isEmpty ? nil : $0 }
        let accepting = ippFindAttribute(response, "printer-is-accepting-jobs", IPP_TAG_BOOLEAN).map { ippGetBoolean($0, 0) != 0 } ?? true
        var status = PrinterStatus(state: state, reason: reasons, acceptingJobs: accepting, job: nil)
        if let job { status.job = jobState(job, on: destination, http) }
        return status
    }

    /// Get-Job-Attributes' `job-state`; nil when CUPS does not know the job (or did not answer).
    private static func jobState(_ id: Int, on destination: String, _ http: OpaquePointer) -> PrinterStatus.JobState? {
        guard let ask = request(IPP_OP_GET_JOB_ATTRIBUTES, on: destination) else { return nil }
        ippAddInteger(ask, IPP_TAG_OPERATION, IPP_TAG_INTEGER, "job-id", Int32(id))
        ccups_request_job_state(ask)
        guard let response = cupsDoRequest(http, ask, "/jobs/") else { return nil }
        defer { ippDelete(response) }
        guard ippGetStatusCode(response).rawValue < IPP_STATUS_REDIRECTION_OTHER_SITE.rawValue,
            let state = ippFindAttribute(response, "job-state", IPP_TAG_ENUM)
        else { return nil }
        return PrinterStatus.JobState(ipp: ipp_jstate_t(rawValue: UInt32(bitPattern: ippGetInteger(state, 0))))
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
