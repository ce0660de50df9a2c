// Foundation re-exports the C library (Glibc/Darwin); the queue's syscalls all live in this file.
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
        guard chmod(url.path, 0o700) == 0 else { throw failure("cannot make the queue directory private (0700)", url) }
    }

    /// Replaces (or creates) `url` with `contents`, mode `0600`, atomically and durably.
    static func replace(_ url: URL, contents: Data) throws {
        let directory = url.deletingLastPathComponent()
        let temporary = directory.appendingPathComponent(".\(url.lastPathComponent).tmp-\(UInt32.random(in: .min ... .max))")
        let fd = retrying { open(temporary.path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600) }
        guard fd >= 0 else { throw failure("cannot create a file in the queue directory", temporary) }
        var closed = false
        defer {
            if !closed { _ = close(fd) }
        }
        do {
            _ = fchmod(fd, 0o600)  // a permissive umask must not matter
            try contents.withUnsafeBytes { buffer in
                var written = 0
                while written < buffer.count {
                    guard let base = buffer.baseAddress else { break }
                    let n = retrying { write(fd, base + written, buffer.count - written) }
                    guard n > 0 else { throw failure("cannot write a queue entry", temporary) }
                    written += n
                }
            }
            guard retrying({ fsync(fd) }) == 0 else { throw failure("cannot flush a queue entry to disk", temporary) }
            closed = true
            _ = close(fd)
            guard rename(temporary.path, url.path) == 0 else { throw failure("cannot move a queue entry into place", url) }
        } catch {
            _ = unlink(temporary.path)
            throw error
        }
        try syncDirectory(directory)
    }

    /// Removes `url` and makes the removal durable. A file that is already gone is not an error.
    static func remove(_ url: URL) throws {
        if unlink(url.path) != 0 && errno != ENOENT { throw failure("cannot remove a delivered queue entry", url) }
        try syncDirectory(url.deletingLastPathComponent())
    }

    /// Moves `source` to `target` (same file system) durably, fsyncing both directories.
    static func move(_ source: URL, to target: URL) throws {
        guard rename(source.path, target.path) == 0 else { throw failure("cannot move the queue entry", target) }
        try syncDirectory(target.deletingLastPathComponent())
        try syncDirectory(source.deletingLastPathComponent())
    }

    /// Creates `url` with `contents` (mode `0600`, durably) unless it exists: false when another process made it
    /// first. link(2) of a complete temporary file is what makes it exclusive and never half-written.
    static func createExclusively(_ url: URL, contents: Data) throws -> Bool {
        let temporary = url.deletingLastPathComponent()
            .appendingPathComponent(".\(url.lastPathComponent).tmp-\(UInt32.random(in: .min ... .max))")
        try replace(temporary, contents: contents)
        defer { _ = unlink(temporary.path) }
        if retrying({ link(temporary.path, url.path) }) != 0 {
            guard errno == EEXIST else { throw failure("cannot create the file", url) }
            return false
        }
        try syncDirectory(url.deletingLastPathComponent())
        return true
    }

    static func syncDirectory(_ url: URL) throws {
        let fd = retrying { open(url.path, O_RDONLY | O_DIRECTORY | O_CLOEXEC) }
        guard fd >= 0 else { throw failure("cannot open the queue directory to flush it", url) }
        defer { _ = close(fd) }
        guard retrying({ fsync(fd) }) == 0 else { throw failure("cannot flush the queue directory to disk", url) }
    }

    /// Takes `flock(LOCK_EX | LOCK_NB)` on `url`, returning the descriptor that holds it, or nil when another
    /// process (or another open of the file) holds it. The lock dies with the descriptor, so a crashed agent never
    /// leaves the queue locked.
    static func tryLock(_ url: URL) throws -> Int32? {
        let fd = retrying { open(url.path, O_RDWR | O_CREAT | O_CLOEXEC, 0o600) }
        guard fd >= 0 else { throw failure("cannot open the queue lock file", url) }
        if retrying({ flock(fd, LOCK_EX | LOCK_NB) }) == 0 { return fd }
        let code = errno
        _ = close(fd)
        guard code == EWOULDBLOCK else { throw failure("cannot lock the queue", url) }
        return nil
    }

    static func unlock(_ fd: Int32) {
        _ = close(fd)
    }

    private static func retrying<T: BinaryInteger>(_ call: () -> T) -> T {
        while true {
            let result = call()
            if result < 0 && errno == EINTR { continue }
            return result
        }
    }

    private static func failure(_ message: String, _ url: URL) -> UploadQueueError {
        let code = errno
        return UploadQueueError(
            .queueUnavailable, "\(message); check the disk and the state directory's permissions", file: url.path,
            cause: POSIXErrorCode(rawValue: code).map { POSIXError($0) })
    }
}
