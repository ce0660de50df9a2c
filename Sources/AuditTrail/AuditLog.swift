import FileBytes
import Foundation
import NIOConcurrencyHelpers

/// The kiosk's append-only, hash-chained audit log: `<state>/audit/audit.log`, one JSON line per event
/// (`AuditLine`), each carrying the SHA-256 of the line before it.
///
/// Invariants:
/// - One writer per directory (an `flock` on `audit/.lock`); two would fork the chain.
/// - A line is written with one `write(2)` on an `O_APPEND` fd, so a kill -9 leaves whole lines; only a power
///   cut or a full disk can leave a torn last line, and the next open cuts it off and says so (`log.recovered`
///   with its size and hash) before the chain goes on from the last complete line.
/// - Events that end a flow (and other milestones, `AuditEvent.isDurabilityPoint`) are fsync'd before `append`
///   returns; `sync()` flushes the rest.
/// - Rotation renames `audit.log` to the next `audit.log.N` and starts the new file with `log.rotated`, whose
///   `prev` is the hash of the old file's last line: the chain runs across files.
/// - `head` is the hash of the last line; the agent signs it into each record's manifest, and the lines after it
///   name that record, so the record and the log vouch for each other.
///
/// Calls block on file I/O (an fsync per flow); the agent calls it off its event loops.
public final class AuditLog: Sendable {
    public static let defaultMaxFileBytes = 8 * 1024 * 1024

    /// The audit directory of a state directory: `<state>/audit`.
    public static func directory(stateDirectory: URL) -> URL {
        URL(fileURLWithPath: StateLayout(root: stateDirectory.path).audit, isDirectory: true)
    }

    /// What the log wrote as its last line.
    public struct Receipt: Sendable, Hashable {
        public var seq: UInt64
        /// The SHA-256 of the line: the new head.
        public var hash: AuditDigest
    }

    public let directory: URL
    public let kiosk: AuditIdentifier
    public let maxFileBytes: Int
    /// The size of the torn final line this open cut off (0 when the log was clean).
    public let recoveredBytes: Int
    private let clock: AuditClock
    private let state: NIOLockedValueBox<State>

    fileprivate struct State {
        var fd: Int32
        var lockFD: Int32
        var size: Int
        var seq: UInt64
        var head: AuditDigest
        var nextRotation: Int
        var needsSync: Bool
    }

    /// Opens (creating when missing) the log in `directory`, recovers its chain head, and writes `log.opened`.
    ///
    /// - Parameters:
    ///   - directory: the audit directory, usually `AuditLog.directory(stateDirectory:)`; created `0700`.
    ///   - kiosk: the kiosk id every line carries.
    ///   - maxFileBytes: `audit.log` is rotated before it would grow past this.
    ///   - clock: wall and monotonic time; tests inject fixed ones.
    ///   - bootID: names the boot `mono_ns` counts from; the kernel's by default.
    /// - Throws: `AuditTrailError`: `.openFailed`, `.locked`, `.readFailed`, `.corruptLog` (the last complete line
    ///   does not parse: the chain cannot be continued, the kiosk should not run until someone looks),
    ///   `.writeFailed`, `.syncFailed`.
    public init(
        directory: URL, kiosk: AuditIdentifier, maxFileBytes: Int = AuditLog.defaultMaxFileBytes,
        clock: AuditClock = .system, bootID: AuditIdentifier? = AuditClock.bootID()
    ) throws {
        self.directory = directory
        self.kiosk = kiosk
        self.maxFileBytes = max(maxFileBytes, 1)
        self.clock = clock
        try AuditFileIO.makeDirectory(directory)
        let lockFD = try AuditFileIO.lock(directory.appendingPathComponent(AuditFileName.lock))
        var fd: Int32 = -1
        // Once the fd moves into `opened`, only `opened.fd` is closed on failure: a failed write may have closed
        // it already, and closing a number twice could close another thread's file.
        var opened: State?
        do {
            let currentURL = directory.appendingPathComponent(AuditFileName.current)
            let files = try AuditFileName.scan(directory)
            fd = try AuditFileIO.openAppend(currentURL)
            var size = try AuditFileIO.size(fd, currentURL)
            let tail = try AuditFileIO.tail(fd, size: size, currentURL)
            if !tail.torn.isEmpty {
                // Cut first: a line appended after torn bytes would be glued to them. A crash between this cut
                // and the `log.recovered` line below loses only the evidence of a line that never completed.
                size -= tail.torn.count
                try AuditFileIO.truncate(fd, to: size, currentURL)
                try AuditFileIO.sync(fd, currentURL)
            }
            recoveredBytes = tail.torn.count

            var state = State(
                fd: fd, lockFD: lockFD, size: size, seq: 0, head: .genesis,
                nextRotation: (files.rotated.last ?? 0) + 1, needsSync: false)
            opened = state
            var continuesRotated: AuditIdentifier?
            if let lastLine = tail.lastLine {
                (state.seq, state.head) = try Self.chainPosition(of: lastLine, in: currentURL)
            } else if let newest = files.rotated.last {
                // A crash between renaming the old file and writing the new one's first line: finish the rotation.
                let name = AuditFileName.rotated(newest)
                (state.seq, state.head) = try Self.lastPosition(in: directory.appendingPathComponent(name))
                continuesRotated = try AuditIdentifier(name)
            }
            let bootEvent = AuditEvent.logOpened(boot: bootID)
            var opening: [AuditEvent] = []
            if let continuesRotated { opening.append(.logRotated(previousFile: continuesRotated)) }
            if !tail.torn.isEmpty {
                opening.append(.logRecovered(truncatedBytes: tail.torn.count, truncatedSHA256: AuditDigest(sha256Of: tail.torn)))
            }
            opening.append(bootEvent)
            for event in opening {
                defer { opened = state }
                try Self.write(event, to: &state, directory: directory, kiosk: kiosk, clock: clock)
            }
            try AuditFileIO.sync(state.fd, currentURL)
            try AuditFileIO.syncDirectory(directory)
            state.needsSync = false
            self.state = NIOLockedValueBox(state)
        } catch {
            let openFD = opened?.fd ?? fd
            if openFD >= 0 { _ = Foundation.close(openFD) }
            _ = Foundation.close(lockFD)
            throw error
        }
    }

    /// Opens the log of a state directory: `<state>/audit/audit.log`.
    public convenience init(
        stateDirectory: URL, kiosk: AuditIdentifier, maxFileBytes: Int = AuditLog.defaultMaxFileBytes,
        clock: AuditClock = .system
    ) throws {
        try self.init(directory: Self.directory(stateDirectory: stateDirectory), kiosk: kiosk, maxFileBytes: maxFileBytes, clock: clock)
    }

    deinit {
        state.withLockedValue { state in
            if state.fd >= 0 { _ = Foundation.close(state.fd) }
            if state.lockFD >= 0 { _ = Foundation.close(state.lockFD) }
        }
    }

    /// Appends one event as a line chained to the previous one; fsyncs when the event ends a flow.
    ///
    /// - Returns: the line's sequence number and hash (the new `head`).
    /// - Throws: `AuditTrailError`: `.reservedEvent` for the log's own events, `.closed`, `.writeFailed`
    ///   (nothing of the line stays in the file), `.syncFailed`, `.lineTooLong`.
    @discardableResult
    public func append(_ event: AuditEvent) throws -> Receipt {
        guard !event.isReserved else {
            throw AuditTrailError(.reservedEvent, "\(event.kind.rawValue) is written by the audit log itself; append agent and flow events only")
        }
        return try state.withLockedValue { state in
            let receipt = try Self.write(event, to: &state, directory: directory, kiosk: kiosk, clock: clock, maxFileBytes: maxFileBytes)
            if event.isDurabilityPoint {
                try Self.flush(&state, directory: directory)
            }
            return receipt
        }
    }

    /// fsyncs what was appended since the last flush. The agent calls it at the end of each flow; events that end
    /// a flow do it by themselves.
    public func sync() throws {
        try state.withLockedValue { state in
            try state.requireOpen()
            try Self.flush(&state, directory: directory)
        }
    }

    /// The SHA-256 of the last line: what a record's manifest pins (`ConsentSigner.sign(auditHead: log.head.hex)`).
    public var head: AuditDigest { state.withLockedValue { $0.head } }

    /// The last line's sequence number.
    public var lastSequence: UInt64 { state.withLockedValue { $0.seq } }

    /// Flushes and closes the log and releases its lock; further appends throw `.closed`. Safe to call twice.
    public func close() throws {
        try state.withLockedValue { state in
            guard state.fd >= 0 else { return }
            defer {
                _ = Foundation.close(state.fd)
                _ = Foundation.close(state.lockFD)
                state.fd = -1
                state.lockFD = -1
            }
            try Self.flush(&state, directory: directory)
        }
    }

    // MARK: Writing

    private static func flush(_ state: inout State, directory: URL) throws {
        guard state.needsSync else { return }
        try AuditFileIO.sync(state.fd, directory.appendingPathComponent(AuditFileName.current))
        state.needsSync = false
    }

    @discardableResult
    private static func write(
        _ event: AuditEvent, to state: inout State, directory: URL, kiosk: AuditIdentifier, clock: AuditClock,
        maxFileBytes: Int? = nil
    ) throws -> Receipt {
        try state.requireOpen()
        var line = AuditLine(
            seq: state.seq + 1, time: AuditClock.format(clock.now()), monoNS: clock.monotonicNanoseconds(),
            kiosk: kiosk.value, prev: state.head.hex, event: event.kind.rawValue, outcome: event.outcome)
        event.fill(&line)
        let currentURL = directory.appendingPathComponent(AuditFileName.current)
        let bytes = try line.encoded()
        if let maxFileBytes, state.size > 0, state.size + bytes.count + 1 > maxFileBytes {
            try rotate(&state, directory: directory, kiosk: kiosk, clock: clock)
            // Built again after log.rotated, so seq, prev and both times follow it. Without a size limit this
            // time: a line longer than the limit goes into the fresh file rather than rotating forever.
            return try write(event, to: &state, directory: directory, kiosk: kiosk, clock: clock)
        }
        guard bytes.count < AuditFileIO.maxLineBytes else {
            throw AuditTrailError(.lineTooLong, "an audit line of \(bytes.count) bytes is longer than \(AuditFileIO.maxLineBytes); this is a bug in the event set")
        }
        do {
            try AuditFileIO.writeAll(state.fd, bytes + Data("\n".utf8), currentURL)
        } catch {
            // Cut off whatever part of the line reached the file, so the next line is not glued to it; if even
            // that fails, stop writing: the next open recovers the torn line and says so.
            if (try? AuditFileIO.truncate(state.fd, to: state.size, currentURL)) == nil {
                _ = Foundation.close(state.fd)
                state.fd = -1
            }
            throw error
        }
        state.size += bytes.count + 1
        state.seq = line.seq
        state.head = AuditDigest(sha256Of: bytes)
        state.needsSync = true
        return Receipt(seq: state.seq, hash: state.head)
    }

    /// Renames `audit.log` to the next `audit.log.N` and starts a new `audit.log` with `log.rotated`.
    ///
    /// Each step is durable before the next: the old file is fsync'd before the rename, the directory after it,
    /// and the new file's first line before the directory again. A crash at any point leaves either the old file
    /// in place or a rotated file plus an empty or missing `audit.log`, which `init` completes.
    private static func rotate(_ state: inout State, directory: URL, kiosk: AuditIdentifier, clock: AuditClock) throws {
        let currentURL = directory.appendingPathComponent(AuditFileName.current)
        let name = AuditFileName.rotated(state.nextRotation)
        let rotatedURL = directory.appendingPathComponent(name)
        try AuditFileIO.sync(state.fd, currentURL)
        do {
            // Never over an older rotated file, not even one made by hand between a check and the rename.
            try DurableWrite.renameNoReplace(currentURL.path, to: rotatedURL.path)
        } catch where error.errno == EEXIST || error.errno == ENOTEMPTY {
            throw AuditTrailError(.writeFailed, "cannot rotate the audit log: \(name) exists already and is never replaced", file: rotatedURL.path)
        } catch {
            throw AuditTrailError(
                .writeFailed, "cannot rotate the audit log", file: currentURL.path,
                cause: POSIXErrorCode(rawValue: error.errno).map { POSIXError($0) })
        }
        _ = Foundation.close(state.fd)
        state.fd = -1
        state.nextRotation += 1
        try AuditFileIO.syncDirectory(directory)
        state.fd = try AuditFileIO.openAppend(currentURL)
        state.size = 0
        try write(.logRotated(previousFile: try AuditIdentifier(name)), to: &state, directory: directory, kiosk: kiosk, clock: clock)
        try AuditFileIO.sync(state.fd, currentURL)
        try AuditFileIO.syncDirectory(directory)
        state.needsSync = false
    }

    // MARK: Recovering

    private static func chainPosition(of line: Data, in url: URL) throws -> (UInt64, AuditDigest) {
        guard let parsed = AuditLine.parse(line) else {
            throw AuditTrailError(
                .corruptLog, "the last complete line of the audit log does not parse, so the chain cannot go on; run `consentctl audit verify` and keep the file for review",
                file: url.path)
        }
        return (parsed.seq, AuditDigest(sha256Of: line))
    }

    private static func lastPosition(in url: URL) throws -> (UInt64, AuditDigest) {
        let fd = open(url.path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else {
            throw AuditTrailError(.readFailed, "cannot open the newest rotated audit file", file: url.path)
        }
        defer { _ = Foundation.close(fd) }
        let tail = try AuditFileIO.tail(fd, size: try AuditFileIO.size(fd, url), url)
        guard let lastLine = tail.lastLine, tail.torn.isEmpty else {
            throw AuditTrailError(
                .corruptLog, "the newest rotated audit file does not end with a complete line; run `consentctl audit verify` and keep the files for review",
                file: url.path)
        }
        return try chainPosition(of: lastLine, in: url)
    }
}

extension AuditLog.State {
    /// Throws `.closed` when the log no longer has a file to write to.
    fileprivate func requireOpen() throws {
        guard fd >= 0 else {
            throw AuditTrailError(.closed, "the audit log is closed; open it again before appending")
        }
    }
}
