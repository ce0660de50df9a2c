#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The one durable-write primitive: every file the agent must not lose or leave half-written (records, the audit
/// log, the completion journal, the upload queue, the PDF) is written through these calls.
///
/// A whole-file write goes to a temporary file in the same directory (so the rename cannot cross file systems),
/// is written completely, fsync'ed, renamed into place, and then the directory is fsync'ed so the new name survives
/// a power cut: after a crash the path holds the old file or the new one, never a part. Files are created `0600`
/// (they may hold PHI) whatever the umask. EINTR is retried (``FileBytes/retryingEINTR(_:)``); every other failure
/// is a ``FileBytes/Failure`` naming the call and its errno, which each module maps to its own typed error.
public enum DurableWrite {
    public typealias Failure = FileBytes.Failure

    /// Creates `path`, which must not exist (EEXIST otherwise, even for a concurrent creator), with `contents`,
    /// then fsyncs it. The directory entry is made durable by the caller's ``syncDirectory(_:)`` (a record
    /// directory syncs once for all its files).
    public static func createNew(_ path: String, contents: some Sequence<UInt8>, mode: mode_t = 0o600) throws(Failure) {
        let fd = FileBytes.retryingEINTR { open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, mode) }
        guard fd >= 0 else { throw Failure(call: "open", errno: errno) }
        defer { _ = close(fd) }
        try fill(fd, contents, mode: mode)
    }

    /// Replaces (or creates) `path` with `contents` atomically and durably: temporary file, write, fsync, rename,
    /// directory fsync. On failure the temporary file is removed and `path` is as it was.
    public static func replace(_ path: String, contents: some Sequence<UInt8>, mode: mode_t = 0o600) throws(Failure) {
        let directory = directoryOf(path)
        let temporary = "\(directory)/.\(nameOf(path)).tmp-\(UInt32.random(in: .min ... .max))"
        let fd = FileBytes.retryingEINTR { open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, mode) }
        guard fd >= 0 else { throw Failure(call: "open", errno: errno) }
        do throws(Failure) {
            defer { _ = close(fd) }
            try fill(fd, contents, mode: mode)
            guard rename(temporary, path) == 0 else { throw Failure(call: "rename", errno: errno) }
        } catch {
            // ENOSPC strikes small writes too: never leave a temporary file behind.
            _ = unlink(temporary)
            throw error
        }
        try syncDirectory(directory)
    }

    /// Writes all of `bytes` at `fd`'s offset (or its end, with O_APPEND): short writes continue, EINTR retries.
    public static func writeAll(_ fd: Int32, _ bytes: some Sequence<UInt8>) throws(Failure) {
        let code =
            bytes.withContiguousStorageIfAvailable { writeBuffer(fd, UnsafeRawBufferPointer($0)) }
            ?? Array(bytes).withUnsafeBytes { writeBuffer(fd, $0) }
        guard code == 0 else { throw Failure(call: "write", errno: code) }
    }

    /// fsyncs `fd`: its data is on the disk when this returns.
    public static func sync(_ fd: Int32) throws(Failure) {
        guard FileBytes.retryingEINTR({ fsync(fd) }) == 0 else { throw Failure(call: "fsync", errno: errno) }
    }

    /// fsyncs a directory, so the names created, renamed or removed in it survive a power cut.
    public static func syncDirectory(_ path: String) throws(Failure) {
        let fd = FileBytes.retryingEINTR { open(path.isEmpty ? "." : path, O_RDONLY | O_DIRECTORY | O_CLOEXEC) }
        guard fd >= 0 else { throw Failure(call: "open", errno: errno) }
        defer { _ = close(fd) }
        guard FileBytes.retryingEINTR({ fsync(fd) }) == 0 else { throw Failure(call: "fsync", errno: errno) }
    }

    /// Removes `path` and makes the removal durable; a file that is already gone is not an error.
    public static func remove(_ path: String) throws(Failure) {
        if unlink(path) != 0 && errno != ENOENT { throw Failure(call: "unlink", errno: errno) }
        try syncDirectory(directoryOf(path))
    }

    /// Moves `source` to `target` (same file system), replacing it, and fsyncs both directories.
    public static func move(_ source: String, to target: String) throws(Failure) {
        guard rename(source, target) == 0 else { throw Failure(call: "rename", errno: errno) }
        try syncDirectory(directoryOf(target))
        if directoryOf(source) != directoryOf(target) { try syncDirectory(directoryOf(source)) }
    }

    /// Renames `source` to `target`, failing with EEXIST when `target` exists, even as an empty directory (which
    /// plain rename(2) would silently replace). Not durable by itself: sync the target's directory.
    public static func renameNoReplace(_ source: String, to target: String) throws(Failure) {
        if let renameat2 = renameat2Function {
            guard renameat2(AT_FDCWD, source, AT_FDCWD, target, renameNoReplaceFlag) == 0 else {
                throw Failure(call: "renameat2", errno: errno)
            }
            return
        }
        // No renameat2 (old kernel or libc): check, then rename. Only an empty directory created in between could
        // be replaced, and the callers' targets are never empty directories.
        var info = stat()
        guard lstat(target, &info) != 0 else { throw Failure(call: "rename", errno: EEXIST) }
        guard rename(source, target) == 0 else { throw Failure(call: "rename", errno: errno) }
    }

    // MARK: - Helpers

    private static func fill(_ fd: Int32, _ contents: some Sequence<UInt8>, mode: mode_t) throws(Failure) {
        // umask cannot widen the mode, but a permissive umask must not matter either: set it explicitly.
        guard fchmod(fd, mode) == 0 else { throw Failure(call: "fchmod", errno: errno) }
        try writeAll(fd, contents)
        try sync(fd)
    }

    /// 0 when every byte was written, else the errno.
    private static func writeBuffer(_ fd: Int32, _ buffer: UnsafeRawBufferPointer) -> Int32 {
        guard let base = buffer.baseAddress else { return 0 }
        var written = 0
        while written < buffer.count {
            let n = FileBytes.retryingEINTR { write(fd, base + written, buffer.count - written) }
            guard n > 0 else { return n < 0 ? errno : EIO }
            written += n
        }
        return 0
    }

    static func directoryOf(_ path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        return slash == path.startIndex ? "/" : String(path[..<slash])
    }

    static func nameOf(_ path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return path }
        return String(path[path.index(after: slash)...])
    }

    private static let renameNoReplaceFlag: UInt32 = 1  // RENAME_NOREPLACE, <linux/fs.h>

    private typealias RenameAt2 = @convention(c) (Int32, UnsafePointer<CChar>, Int32, UnsafePointer<CChar>, UInt32) -> Int32

    /// glibc declares renameat2 only under _GNU_SOURCE, which Swift's Glibc module does not define, so it is looked
    /// up at run time (glibc ≥ 2.28 has it; Debian 12 ships 2.36).
    private static let renameat2Function: RenameAt2? = {
        #if os(Linux)
            guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "renameat2") else { return nil }
            return unsafeBitCast(symbol, to: RenameAt2.self)
        #else
            return nil
        #endif
    }()
}
