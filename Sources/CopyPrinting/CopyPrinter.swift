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
                let status = Self.exchange(timeouts) { $0.status(of: destination, job: job) }
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
                let cancelled = Self.exchange(timeouts) { connection in
                    connection.cups.cupsCancelJob2(connection.http, destination, Int32(job), 0).rawValue
                        < IPP_STATUS_REDIRECTION_OTHER_SITE.rawValue
                }
                continuation.resume(returning: cancelled ?? false)
            }
        }
    }

    /// Runs `body` on a connection of its own with bounded waits; nil when the server cannot be reached.
    /// libcups is opened here, on the first exchange, not at the agent's start (CCups/shim.h); a kiosk where it cannot
    /// be opened finds the server unreachable.
    private static func exchange<T>(_ timeouts: Timeouts, _ body: (Connection) -> T) -> T? {
        guard let cups = ccups_library(),
            let http = ccups_connect(cups, timeouts.connectMilliseconds, timeouts.ioSeconds)
        else { return nil }
        defer { cups.pointee.httpClose(http) }
        return body(Connection(cups: cups.pointee, http: http))
    }

    private static func submit(
        _ document: [UInt8], title: String, to destination: String, _ timeouts: Timeouts
    ) -> Result<Int, CopyPrintingError> {
        let outcome = exchange(timeouts) { connection -> Result<Int, CopyPrintingError> in
            let cups = connection.cups, http = connection.http
            let printer = connection.status(of: destination, job: nil)
            guard printer.state == .idle || printer.state == .printing, printer.acceptingJobs else {
                return .failure(.unavailable(state: printer.state.rawValue, reason: printer.reason))
            }
            let job = connection.createJob(title: title, on: destination)
            guard job > 0 else { return .failure(.failed(state: connection.lastStatus())) }
            guard cups.cupsStartDocument(http, destination, Int32(job), "consent.pdf", CUPS_FORMAT_PDF, 1) == HTTP_STATUS_CONTINUE
            else {
                let state = connection.lastStatus()
                cancelAfterFailure(job, on: destination, timeouts)
                return .failure(.failed(state: state))
            }
            let written = document.withUnsafeBufferPointer { buffer in
                buffer.baseAddress.map { base in
                    base.withMemoryRebound(to: CChar.self, capacity: buffer.count) { cups.cupsWriteRequestData(http, $0, buffer.count) }
                } ?? HTTP_STATUS_CONTINUE
            }
            let finished = cups.cupsFinishDocument(http, destination)
            guard written == HTTP_STATUS_CONTINUE, finished.rawValue < IPP_STATUS_REDIRECTION_OTHER_SITE.rawValue else {
                let state = connection.lastStatus()
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
        _ = exchange(timeouts) { $0.cups.cupsCancelJob2($0.http, destination, Int32(job), 0) }
    }

    /// The reason of a server that could not be reached at all (no connection within the bound): the keyword
    /// `ippErrorString(IPP_STATUS_ERROR_SERVICE_UNAVAILABLE)` returns, spelt here so that it needs no libcups.
    fileprivate static let unreachable = "server-error-service-unavailable"
}

/// One exchange's connection to CUPS, and the libcups functions it is made with.
private struct Connection {
    let cups: ccups_functions
    let http: OpaquePointer

    /// CUPS's last IPP status on this thread, by its RFC 8011 keyword (`server-error-not-accepting-jobs`); the
    /// human text that goes with it may quote a job's name, so it is never used. No answer at all (a read or write
    /// that timed out, a connection that broke: libcups says internal-error) is the server being unavailable.
    func lastStatus() -> String {
        let status = cups.cupsLastError()
        return status == IPP_STATUS_ERROR_INTERNAL ? CopyPrinter.unreachable : keyword(status)
    }

    /// An IPP status's RFC 8011 keyword, as `ippErrorString` gives it (which never gives NULL, though its pointer,
    /// called through `ccups_functions`, is imported as optional).
    func keyword(_ status: ipp_status_t) -> String {
        cups.ippErrorString(status).map { String(cString: $0) } ?? "0x\(String(status.rawValue, radix: 16))"
    }

    /// `ipp://localhost/printers/<destination>`, as libcups' own calls name a local queue.
    func printerURI(_ destination: String) -> String {
        var uri = [CChar](repeating: 0, count: 1024)
        _ = cups.httpAssembleURI(HTTP_URI_CODING_ALL, &uri, Int32(uri.count), "ipp", nil, "localhost", cups.ippPort(), "/printers/\(destination)")
        return String(cString: uri)
    }

    /// An IPP request of `operation` on the destination, from this user; nil when libcups has no memory for it.
    func request(_ operation: ipp_op_t, on destination: String) -> OpaquePointer? {
        guard let request = cups.ippNewRequest(operation) else { return nil }
        cups.ippAddString(request, IPP_TAG_OPERATION, IPP_TAG_URI, "printer-uri", nil, printerURI(destination))
        cups.ippAddString(request, IPP_TAG_OPERATION, IPP_TAG_NAME, "requesting-user-name", nil, cups.cupsUser())
        return request
    }

    /// Create-Job; the job's id, or 0 when CUPS refused (its status in `lastStatus`).
    func createJob(title: String, on destination: String) -> Int {
        guard let create = request(IPP_OP_CREATE_JOB, on: destination) else { return 0 }
        cups.ippAddString(create, IPP_TAG_OPERATION, IPP_TAG_NAME, "job-name", nil, title)
        guard let response = cups.cupsDoRequest(http, create, "/printers/\(destination)") else { return 0 }
        defer { cups.ippDelete(response) }
        guard cups.ippGetStatusCode(response).rawValue < IPP_STATUS_REDIRECTION_OTHER_SITE.rawValue,
            let id = cups.ippFindAttribute(response, "job-id", IPP_TAG_INTEGER)
        else { return 0 }
        return Int(cups.ippGetInteger(id, 0))
    }

    func status(of destination: String, job: Int?) -> PrinterStatus {
        let unavailable = { PrinterStatus(state: .unavailable, reason: lastStatus(), acceptingJobs: false, job: nil) }
        guard let ask = request(IPP_OP_GET_PRINTER_ATTRIBUTES, on: destination) else { return unavailable() }
        withUnsafePointer(to: cups) { ccups_request_printer_state($0, ask) }
        guard let response = cups.cupsDoRequest(http, ask, "/") else { return unavailable() }
        defer { cups.ippDelete(response) }
        let code = cups.ippGetStatusCode(response)
        guard code.rawValue < IPP_STATUS_REDIRECTION_OTHER_SITE.rawValue else {
            return PrinterStatus(state: .unavailable, reason: keyword(code), acceptingJobs: false, job: nil)
        }
        let state: PrinterStatus.State =
            switch cups.ippFindAttribute(response, "printer-state", IPP_TAG_ENUM).map({ cups.ippGetInteger($0, 0) }) {
            case 3: .idle
            case 4: .printing
            case 5: .stopped
            default: .unavailable
            }
        // As cupsGetNamedDest listed them: the keywords joined by commas, "none" for none.
        let reasons = cups.ippFindAttribute(response, "printer-state-reasons", IPP_TAG_KEYWORD).map { attribute in
            (0..<cups.ippGetCount(attribute)).compactMap { cups.ippGetString(attribute, $0, nil).map { String(cString: $0) } }
                .joined(separator: ",")
        }.flatMap { $0 == "none" || $0.isEmpty ? nil : $0 }
        let accepting = cups.ippFindAttribute(response, "printer-is-accepting-jobs", IPP_TAG_BOOLEAN).map { cups.ippGetBoolean($0, 0) != 0 } ?? true
        var status = PrinterStatus(state: state, reason: reasons, acceptingJobs: accepting, job: nil)
        if let job { status.job = jobState(job, on: destination) }
        return status
    }

    /// Get-Job-Attributes' `job-state`; nil when CUPS does not know the job (or did not answer).
    func jobState(_ id: Int, on destination: String) -> PrinterStatus.JobState? {
        guard let ask = request(IPP_OP_GET_JOB_ATTRIBUTES, on: destination) else { return nil }
        cups.ippAddInteger(ask, IPP_TAG_OPERATION, IPP_TAG_INTEGER, "job-id", Int32(id))
        withUnsafePointer(to: cups) { ccups_request_job_state($0, ask) }
        guard let response = cups.cupsDoRequest(http, ask, "/jobs/") else { return nil }
        defer { cups.ippDelete(response) }
        guard cups.ippGetStatusCode(response).rawValue < IPP_STATUS_REDIRECTION_OTHER_SITE.rawValue,
            let state = cups.ippFindAttribute(response, "job-state", IPP_TAG_ENUM)
        else { return nil }
        return PrinterStatus.JobState(ipp: ipp_jstate_t(rawValue: UInt32(bitPattern: cups.ippGetInteger(state, 0))))
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
