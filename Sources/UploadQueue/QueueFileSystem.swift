import FileBytes
// Foundation re-exports the C library (Glibc/Darwin); the queue's syscalls all live in this file, its durable writes
// in `DurableWrite` (FileBytes), the project's one durable-write primitive.
import Foundation

/// The few syscalls the queue needs: a `0700` directory, whole-file replacement by temp + fsync + rename + directory
/// fsync (so an entry is either the old or the new version after a power cut, never half), unlink with a directory
/// fsync, and an advisory lock so only one process delivers a queue.
///
/// Errors become `UploadQueueError(.queueUnavailable)` with the errno as the cause; EINTR is retried.
enum QueueFileSystem {
    /// Creates `url` (and missing parents) and makes it `0700`, whatever the umask.
    static func prepareDirectory(_ url: URL) throws {
        do {
            try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        } catch {
            throw UploadQueueError(.queueUnavailable, "cannot create the queue directory; check the state directory's permissions", file: url.path, cause: error)
        }
        guard chmod(url.path, 0o700) == 0 else { throw failure("cannot make the queue directory private (0700)", url, .init(call: "chmod", errno: errno)) }
    }

    /// Replaces (or creates) `url` with `contents`, mode `0600`, atomically and durably.
    static func replace(_ url: URL, contents: Data) throws {
        do {
            try DurableWrite.replace(url.path, contents: contents)
        } catch {
            throw failure(error.call == "open" ? "cannot create a file in the queue directory" : "cannot write a queue entry", url, error)
        }
    }

    /// Removes `url` and makes the removal durable. A file that is already gone is not an error.
    static func remove(_ url: URL) throws {
        do {
            try DurableWrite.remove(url.path)
        } catch {
            throw failure("cannot remove a delivered queue entry", url, error)
        }
    }

    /// Moves `source` to `target` (same file system) durably, fsyncing both directories.
    static func move(_ source: URL, to target: URL) throws {
        do {
            try DurableWrite.move(source.path, to: target.path)
        } catch {
            throw failure("cannot move the queue entry", target, error)
        }
    }

    /// Creates `url` with `contents` (mode `0600`, durably) unless it exists: false when another process made it
    /// first. link(2) of a complete temporary file is what makes it exclusive and never half-written.
    static func createExclusively(_ url: URL, contents: Data) throws -> Bool {
        let temporary = url.deletingLastPathComponent()
            .appendingPathComponent(".\(url.lastPathComponent).tmp-\(UInt32.random(in: .min ... .max))")
        try replace(temporary, contents: contents)
        defer { _ = unlink(temporary.path) }
        if FileBytes.retryingEINTR({ link(temporary.path, url.path) }) != 0 {
            let code = errno
            guard code == EEXIST else { throw failure("cannot create the file", url, .init(call: "link", errno: code)) }
            return false
        }
        try syncDirectory(url.deletingLastPathComponent())
        return true
    }

    static func syncDirectory(_ url: URL) throws {
        do {
            try DurableWrite.syncDirectory(url.path)
        } catch {
            throw failure("cannot flush the queue directory to disk", url, error)
        }
    }

    /// Takes `flock(LOCK_EX | LOCK_NB)` on `url`, returning the descriptor that holds it, or nil when another
    /// process (or another open of the file) holds it. The lock dies with the descriptor, so a crashed agent never
    /// leaves the queue locked.
    static func tryLock(_ url: URL) throws -> Int32? {
        let fd = FileBytes.retryingEINTR { open(url.path, O_RDWR | O_CREAT | O_CLOEXEC, 0o600) }
        guard fd >= 0 else { throw failure("cannot open the queue lock file", url, .init(call: "open", errno: errno)) }
        if FileBytes.retryingEINTR({ flock(fd, LOCK_EX | LOCK_NB) }) == 0 { return fd }
        let code = errno
        _ = close(fd)
        guard code == EWOULDBLOCK else { throw failure("cannot lock the queue", url, .init(call: "flock", errno: code)) }
        return nil
    }

    static func unlock(_ fd: Int32) {
        _ = close(fd)
    }

    private static func failure(_ message: String, _ url: URL, _ cause: DurableWrite.Failure) -> UploadQueueError {
        UploadQueueError(
            .queueUnavailable, "\(message); check the disk and the state directory's permissions", file: url.path,
            cause: POSIXErrorCode(rawValue: cause.errno).map { POSIXError($0) })
    }
}
