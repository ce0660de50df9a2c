import FileBytes
// Foundation re-exports the C library (Glibc/Darwin).
import Foundation

/// The few syscalls the log needs, in one place: append-only `0600` files, complete writes, fsync, truncation
/// of a torn tail, an exclusive lock, and reading a file's last line without reading the file. Writes, fsyncs and
/// the EINTR retry are `DurableWrite`'s and `FileBytes`' (the project's one durable-write primitive); this type adds
/// the log's own calls and says what a failure means for the log.
///
/// Failures become `AuditTrailError` with the errno as the cause.
enum AuditFileIO {
    /// A line is never longer than this; the tail reader relies on it.
    static let maxLineBytes = 4096
    private static let tailWindow = 64 * 1024

    /// Opens (creating `0600` when missing) `url` for appending.
    static func openAppend(_ url: URL) throws -> Int32 {
        let fd = retrying { open(url.path, O_RDWR | O_APPEND | O_CREAT | O_CLOEXEC, 0o600) }
        guard fd >= 0 else { throw failure(.openFailed, "cannot open the audit log for appending", url) }
        // A permissive umask must not matter, and a file created by hand is tightened too.
        _ = fchmod(fd, 0o600)
        return fd
    }

    /// Creates the directory (and missing parents) and makes it `0700`.
    static func makeDirectory(_ url: URL) throws {
        do {
            try FileManager.default.createDirectory(
                at: url, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        } catch {
            throw AuditTrailError(.openFailed, "cannot create the audit directory; check the state directory's permissions", file: url.path, cause: error)
        }
        guard chmod(url.path, 0o700) == 0 else { throw failure(.openFailed, "cannot make the audit directory private (0700)", url) }
    }

    /// Takes an exclusive, non-blocking lock on `url` (created `0600`); the returned fd holds it until closed.
    static func lock(_ url: URL) throws -> Int32 {
        let fd = retrying { open(url.path, O_RDWR | O_CREAT | O_CLOEXEC, 0o600) }
        guard fd >= 0 else { throw failure(.openFailed, "cannot open the audit log's lock file", url) }
        guard retrying({ flock(fd, LOCK_EX | LOCK_NB) }) == 0 else {
            _ = close(fd)
            throw AuditTrailError(
                .locked, "another process is writing this audit log; stop it, or give this one its own state directory",
                file: url.deletingLastPathComponent().path)
        }
        return fd
    }

    /// Writes all of `data` or throws; a partial write is the caller's to cut off.
    static func writeAll(_ fd: Int32, _ data: Data, _ url: URL) throws {
        do {
            try DurableWrite.writeAll(fd, data)
        } catch {
            throw failure(.writeFailed, "cannot write to the audit log (disk full?)", url, errno: error.errno)
        }
    }

    static func sync(_ fd: Int32, _ url: URL) throws {
        do {
            try DurableWrite.sync(fd)
        } catch {
            throw failure(.syncFailed, "cannot flush the audit log to disk", url, errno: error.errno)
        }
    }

    /// fsyncs a directory, so a created or renamed log file survives a power cut.
    static func syncDirectory(_ url: URL) throws {
        do {
            try DurableWrite.syncDirectory(url.path)
        } catch {
            let message = error.call == "open" ? "cannot open the audit directory to flush it" : "cannot flush the audit directory"
            throw failure(.syncFailed, message, url, errno: error.errno)
        }
    }

    static func truncate(_ fd: Int32, to size: Int, _ url: URL) throws {
        guard retrying({ ftruncate(fd, off_t(size)) }) == 0 else {
            throw failure(.writeFailed, "cannot cut the torn end off the audit log", url)
        }
    }

    static func size(_ fd: Int32, _ url: URL) throws -> Int {
        var info = stat()
        guard fstat(fd, &info) == 0 else { throw failure(.readFailed, "cannot read the audit log's size", url) }
        return Int(info.st_size)
    }

    /// The end of a log file: its last complete line (without `\n`) and the bytes after it (a torn line).
    struct Tail {
        var lastLine: Data?
        var torn: Data
    }

    /// Reads the end of the file open as `fd` (of `size` bytes) and splits off its last line.
    ///
    /// - Throws: `.corruptLog` when the window holds no line end although the file is bigger: lines are never
    ///   that long, so this is not a log the writer left.
    static func tail(_ fd: Int32, size: Int, _ url: URL) throws -> Tail {
        guard size > 0 else { return Tail(lastLine: nil, torn: Data()) }
        let start = max(0, size - tailWindow)
        var window = Data(count: size - start)
        let count = window.count
        let read = window.withUnsafeMutableBytes { buffer -> Int in
            guard let base = buffer.baseAddress else { return -1 }
            var done = 0
            while done < count {
                let n = retrying { pread(fd, base + done, count - done, off_t(start + done)) }
                guard n > 0 else { return n < 0 ? -1 : done }
                done += n
            }
            return done
        }
        guard read == count else { throw failure(.readFailed, "cannot read the end of the audit log", url) }
        let newline = UInt8(ascii: "\n")
        guard let lastEnd = window.lastIndex(of: newline) else {
            guard start == 0 else { throw corrupt(url) }
            return Tail(lastLine: nil, torn: window)
        }
        let torn = window[(lastEnd + 1)...]
        let body = window[..<lastEnd]
        if let previousEnd = body.lastIndex(of: newline) {
            return Tail(lastLine: Data(body[(previousEnd + 1)...]), torn: Data(torn))
        }
        guard start == 0 else { throw corrupt(url) }
        return Tail(lastLine: Data(body), torn: Data(torn))
    }

    private static func corrupt(_ url: URL) -> AuditTrailError {
        AuditTrailError(
            .corruptLog, "the end of the audit log holds no complete line; run `consentctl audit verify` and keep the file for review",
            file: url.path)
    }

    private static func retrying<T: BinaryInteger>(_ call: () -> T) -> T { FileBytes.retryingEINTR(call) }

    private static func failure(
        _ code: AuditTrailError.Code, _ message: String, _ url: URL, errno number: Int32 = errno
    ) -> AuditTrailError {
        AuditTrailError(code, message, file: url.path, cause: POSIXErrorCode(rawValue: number).map { POSIXError($0) })
    }
}
