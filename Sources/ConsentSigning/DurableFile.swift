// Foundation re-exports the C library (Glibc/Darwin): this module imports nothing else (style.md §2).
import Foundation

/// The few syscalls a durable record needs, in one place: exclusive `0600` creates with `fsync`, directory
/// `fsync`, and a rename that refuses to replace its target.
///
/// Errors become `ConsentSigningError` with the errno as the cause; EINTR is retried.
enum DurableFile {
    /// Creates `url` (which must not exist) with mode `0600`, writes `contents` and fsyncs it.
    ///
    /// - Throws: `.recordExists` when the file exists, `.writeFailed` otherwise.
    static func create(at url: URL, contents: Data) throws {
        let fd = retrying { open(url.path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600) }
        guard fd >= 0 else {
            let code = errno
            throw ConsentSigningError(
                code == EEXIST ? .recordExists : .writeFailed,
                code == EEXIST ? "the file exists already; it is never overwritten" : "cannot create the file",
                file: url.path, cause: POSIXErrorCode(rawValue: code).map { POSIXError($0) })
        }
        defer { _ = close(fd) }
        // umask cannot widen 0600, but a permissive umask must not matter either: set it explicitly.
        _ = fchmod(fd, 0o600)
        var written = 0
        try contents.withUnsafeBytes { buffer in
            while written < buffer.count {
                guard let base = buffer.baseAddress else { break }
                let n = retrying { write(fd, base + written, buffer.count - written) }
                guard n > 0 else { throw failure("cannot write the file", url) }
                written += n
            }
        }
        guard retrying({ fsync(fd) }) == 0 else { throw failure("cannot flush the file to disk", url) }
    }

    /// Creates a directory with mode `0700`.
    static func makeDirectory(_ url: URL) throws {
        guard mkdir(url.path, 0o700) == 0 else {
            throw failure("cannot create the directory", url, exists: errno == EEXIST)
        }
    }

    /// fsyncs a directory, so the names created or renamed in it survive a power cut.
    static func syncDirectory(_ url: URL) throws {
        let fd = retrying { open(url.path, O_RDONLY | O_DIRECTORY | O_CLOEXEC) }
        guard fd >= 0 else { throw failure("cannot open the directory to flush it", url) }
        defer { _ = close(fd) }
        guard retrying({ fsync(fd) }) == 0 else { throw failure("cannot flush the directory to disk", url) }
    }

    /// Renames `source` to `target`, failing with `.recordExists` when `target` exists, even as an empty
    /// directory (which plain rename(2) would silently replace).
    static func renameNoReplace(_ source: URL, to target: URL) throws {
        let result: Int32
        if let renameat2 = renameat2Function {
            result = renameat2(AT_FDCWD, source.path, AT_FDCWD, target.path, renameNoReplaceFlag)
        } else {
            // No renameat2 (old kernel or libc): check, then rename. Only an empty directory created in between
            // could be replaced, and a record directory is never empty.
            var info = stat()
            guard lstat(target.path, &info) != 0 else {
                throw failure("the target exists already", target, exists: true)
            }
            result = rename(source.path, target.path)
        }
        guard result == 0 else {
            let code = errno
            throw failure("cannot move the record into place", target, exists: code == EEXIST || code == ENOTEMPTY)
        }
    }

    /// Removes a directory tree, best effort (cleanup after a failed write).
    static func removeTree(_ url: URL) {
        try? FileManager.default.removeItem(at: url)
    }

    private static let renameNoReplaceFlag: UInt32 = 1  // RENAME_NOREPLACE, <linux/fs.h>

    private typealias RenameAt2 = @convention(c) (
        Int32, UnsafePointer<CChar>, Int32, UnsafePointer<CChar>, UInt32
    ) -> Int32

    /// glibc declares renameat2 only under _GNU_SOURCE, which Swift's Glibc module does not define, so it is
    /// looked up at run time (glibc ≥ 2.28 has it; Debian 12 ships 2.36).
    private static let renameat2Function: RenameAt2? = {
        #if os(Linux)
            guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "renameat2") else { return nil }
            return unsafeBitCast(symbol, to: RenameAt2.self)
        #else
            return nil
        #endif
    }()

    private static func retrying<T: BinaryInteger>(_ call: () -> T) -> T {
        while true {
            let result = call()
            if result < 0 && errno == EINTR { continue }
            return result
        }
    }

    private static func failure(_ message: String, _ url: URL, exists: Bool = false) -> ConsentSigningError {
        let code = errno
        return ConsentSigningError(
            exists ? .recordExists : .writeFailed, exists ? "\(message): it exists already and is never replaced" : message,
            file: url.path, cause: POSIXErrorCode(rawValue: code).map { POSIXError($0) })
    }
}
