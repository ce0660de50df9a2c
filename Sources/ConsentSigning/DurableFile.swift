import FileBytes
import Foundation

/// A record's durable writes, with failures as `ConsentSigningError`: exclusive `0600` creates with `fsync`,
/// directory `fsync`, and a rename that refuses to replace its target. The syscalls are `DurableWrite`'s (FileBytes),
/// the project's one durable-write primitive; this type only says what a failure means for a record.
enum DurableFile {
    /// Creates `url` (which must not exist) with mode `0600`, writes `contents` and fsyncs it.
    ///
    /// - Throws: `.recordExists` when the file exists, `.writeFailed` otherwise.
    static func create(at url: URL, contents: Data) throws {
        do {
            try DurableWrite.createNew(url.path, contents: contents)
        } catch {
            if error.errno == EEXIST {
                throw ConsentSigningError(
                    .recordExists, "the file exists already; it is never overwritten", file: url.path,
                    cause: POSIXError(.EEXIST))
            }
            let message =
                switch error.call {
                case "open": "cannot create the file"
                case "fsync": "cannot flush the file to disk"
                default: "cannot write the file"
                }
            throw failure(message, url, error)
        }
    }

    /// Creates a directory with mode `0700`.
    static func makeDirectory(_ url: URL) throws {
        guard mkdir(url.path, 0o700) == 0 else {
            let code = errno
            throw failure("cannot create the directory", url, .init(call: "mkdir", errno: code), exists: code == EEXIST)
        }
    }

    /// fsyncs a directory, so the names created or renamed in it survive a power cut.
    static func syncDirectory(_ url: URL) throws {
        do {
            try DurableWrite.syncDirectory(url.path)
        } catch {
            throw failure(error.call == "open" ? "cannot open the directory to flush it" : "cannot flush the directory to disk", url, error)
        }
    }

    /// Renames `source` to `target`, failing with `.recordExists` when `target` exists, even as an empty
    /// directory (which plain rename(2) would silently replace).
    static func renameNoReplace(_ source: URL, to target: URL) throws {
        do {
            try DurableWrite.renameNoReplace(source.path, to: target.path)
        } catch {
            let exists = error.errno == EEXIST || error.errno == ENOTEMPTY
            throw failure(exists ? "the target exists already" : "cannot move the record into place", target, error, exists: exists)
        }
    }

    /// Removes a directory tree, best effort (cleanup after a failed write).
    static func removeTree(_ url: URL) {
        try? FileManager.default.removeItem(at: url)
    }

    private static func failure(_ message: String, _ url: URL, _ cause: DurableWrite.Failure, exists: Bool = false) -> ConsentSigningError {
        ConsentSigningError(
            exists ? .recordExists : .writeFailed, exists ? "\(message): it exists already and is never replaced" : message,
            file: url.path, cause: POSIXErrorCode(rawValue: cause.errno).map { POSIXError($0) })
    }
}
