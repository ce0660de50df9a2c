import Foundation

/// Puts a `SignedRecord` on disk atomically and durably, never replacing anything.
///
/// The files go into a hidden temporary directory beside the target, each created `0600` and fsync'd; the
/// temporary directory is fsync'd, renamed to its final name with `RENAME_NOREPLACE`, and the parent is fsync'd.
/// A reader therefore sees either no record or a complete one, and after a crash at most a `.tmp-` directory
/// that `consentctl verify` would not accept as a record. On any failure the temporary directory is removed.
public enum RecordWriter {
    /// Writes the record as `<recordsDirectory>/<record.id>`.
    ///
    /// - Returns: the record directory.
    /// - Throws: `ConsentSigningError` `.recordExists` or `.writeFailed`.
    @discardableResult
    public static func write(_ record: SignedRecord, into recordsDirectory: URL) throws -> URL {
        // The records folder is made on the first record (0700: it holds PHI), so a fresh state dir just works.
        if !FileManager.default.fileExists(atPath: recordsDirectory.path) {
            do {
                try FileManager.default.createDirectory(
                    at: recordsDirectory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
            } catch {
                throw ConsentSigningError(.writeFailed, "cannot create the records folder; check the state directory's permissions", file: recordsDirectory.path)
            }
        }
        return try write(record, to: recordsDirectory.appendingPathComponent(record.id))
    }

    /// Removes what a write interrupted by a crash or kill left in `recordsDirectory`: the hidden
    /// `.<id>.tmp-<hex>` directories that were never renamed into place. Call it before serving, while no write runs.
    ///
    /// - Returns: the names removed (record ids and random suffixes only, never PHI), sorted.
    public static func removeInterruptedWrites(in recordsDirectory: URL) -> [String] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: recordsDirectory.path)) ?? []
        let leftovers = names.filter(isTemporaryName).sorted()
        for name in leftovers {
            DurableFile.removeTree(recordsDirectory.appendingPathComponent(name))
        }
        if !leftovers.isEmpty { try? DurableFile.syncDirectory(recordsDirectory) }
        return leftovers
    }

    /// The shape `write` gives its temporary directory; a record directory itself is never hidden.
    static func isTemporaryName(_ name: String) -> Bool {
        name.hasPrefix(".") && name.contains(".tmp-")
    }

    /// Writes the record as exactly `directory`, which must not exist; its parent must.
    ///
    /// - Returns: `directory`.
    /// - Throws: `ConsentSigningError` `.recordExists` or `.writeFailed`.
    @discardableResult
    public static func write(_ record: SignedRecord, to directory: URL) throws -> URL {
        try write(files: record.files, to: directory)
    }

    /// Creates one file `0600` and fsyncs it, never replacing anything: what `consentctl signature` writes
    /// biometric data (PHI) with.
    ///
    /// - Throws: `ConsentSigningError` `.recordExists` or `.writeFailed`.
    public static func writeFile(_ contents: Data, to url: URL) throws {
        try DurableFile.create(at: url, contents: contents)
    }

    /// Writes `files` as exactly `directory` (which must not exist), in the same way: what `consentctl decrypt`
    /// uses for the plaintext copy of an encrypted record.
    ///
    /// - Throws: `ConsentSigningError` `.recordExists` or `.writeFailed`.
    @discardableResult
    public static func write(files: [SignedRecord.File], to directory: URL) throws -> URL {
        let target = directory.standardizedFileURL
        let parent = target.deletingLastPathComponent()
        if FileManager.default.fileExists(atPath: target.path) {
            throw ConsentSigningError(
                .recordExists, "a record or file already exists here; records are never overwritten, choose a new name",
                file: target.path)
        }
        let suffix = String(UInt64.random(in: .min ... .max), radix: 16)
        let temporary = parent.appendingPathComponent(".\(target.lastPathComponent).tmp-\(suffix)")
        try DurableFile.makeDirectory(temporary)
        do {
            for file in files {
                try DurableFile.create(at: temporary.appendingPathComponent(file.name), contents: file.contents)
            }
            try DurableFile.syncDirectory(temporary)
            try DurableFile.renameNoReplace(temporary, to: target)
        } catch {
            DurableFile.removeTree(temporary)
            throw error
        }
        // The record is in place; a failed parent fsync only weakens durability, so it is reported, not undone.
        try DurableFile.syncDirectory(parent)
        return target
    }
}
