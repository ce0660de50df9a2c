import Crypto
import FileBytes
import Foundation

/// The upload copies of records stored encrypted at rest (`recordEncryption`): what the queue delivers when the
/// record directory holds only envelopes for the recipient, which the kiosk cannot open.
///
/// ```
/// <state>/keys/upload-payload.key              32 random bytes (0600): the agent's upload key, made on first use
/// <state>/queue/payloads/<recordID>.bundle.sealed  the record's transaction Bundle, AES-256-GCM under that key
/// ```
/// The agent seals the Bundle while it still has it in memory, before the record itself is written, so a record on
/// disk always has its payload (a crash in between leaves a payload without a queue entry, which `UploadService.removeOrphanedPayloads`
/// deletes at the next start). The payload is opened only in memory, to send it, and deleted once the server acknowledged the record.
/// So no plaintext is ever on disk, and a sealed copy exists only while a record waits for delivery. What it does not
/// protect against: someone holding the whole state directory (the key beside the payloads) while records wait, as
/// with the kiosk's signing key (docs/UPLOAD.md, *Encrypted records*).
public struct UploadPayloadStore: Sendable {
    public static let fileSuffix = ".bundle.sealed"

    public let directory: URL
    public let keyFile: URL

    public init(stateDirectory: URL) {
        let layout = StateLayout(root: stateDirectory.path)
        directory = URL(fileURLWithPath: layout.uploadPayloads, isDirectory: true)
        keyFile = URL(fileURLWithPath: layout.uploadPayloadKey)
    }

    public func file(of recordID: String) -> URL {
        directory.appendingPathComponent(recordID + Self.fileSuffix)
    }

    public func hasPayload(of recordID: String) -> Bool {
        FileManager.default.fileExists(atPath: file(of: recordID).path)
    }

    /// Seals `bundle` under the upload key and writes it durably (0600, atomic, fsync'd).
    ///
    /// - Throws: `.invalidRecordID`, `.encryptionFailed`, `.queueUnavailable`.
    public func store(recordID: String, bundle: Data) throws {
        guard QueueEntry.isValidRecordID(recordID) else {
            throw UploadQueueError(.invalidRecordID, "the record id cannot name an upload payload")
        }
        let key = try loadOrCreateKey()
        let sealed: Data
        do {
            guard let combined = try AES.GCM.seal(bundle, using: key).combined else {
                throw UploadQueueError(.encryptionFailed, "the upload payload could not be sealed")
            }
            sealed = combined
        } catch let error as UploadQueueError {
            throw error
        } catch {
            throw UploadQueueError(.encryptionFailed, "the upload payload could not be sealed", cause: error)
        }
        try QueueFileSystem.prepareDirectory(directory)
        try QueueFileSystem.replace(file(of: recordID), contents: sealed)
    }

    /// The Bundle of a sealed payload, in memory only.
    ///
    /// - Throws: `.recordMissing` when the payload or the key is gone, `.payloadInvalid` when it does not open.
    func open(recordID: String) throws -> Data {
        let url = file(of: recordID)
        guard let sealed = try? Data(FileBytes.read(url.path)) else {
            throw UploadQueueError(
                .recordMissing, "the record's upload payload is gone; the record is encrypted, so only its recipient can upload it now (park the entry)",
                file: url.path)
        }
        guard let keyBytes = try? Data(FileBytes.read(keyFile.path)), keyBytes.count == 32 else {
            throw UploadQueueError(
                .recordMissing, "the upload key is gone or damaged, so the waiting payloads cannot be opened; park the entry",
                file: keyFile.path)
        }
        do {
            return try AES.GCM.open(AES.GCM.SealedBox(combined: sealed), using: SymmetricKey(data: keyBytes))
        } catch {
            throw UploadQueueError(.payloadInvalid, "the record's upload payload does not open with the upload key; park the entry", file: url.path)
        }
    }

    /// Deletes a delivered record's payload (nothing when there is none).
    func remove(recordID: String) throws {
        guard hasPayload(of: recordID) else { return }
        try QueueFileSystem.remove(file(of: recordID))
    }

    /// Deletes the payloads of records not in `recordIDs` (the queued ones).
    func removeOrphans(keeping recordIDs: Set<String>) {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
        for name in names where name.hasSuffix(Self.fileSuffix) {
            guard !recordIDs.contains(String(name.dropLast(Self.fileSuffix.count))) else { continue }
            try? QueueFileSystem.remove(directory.appendingPathComponent(name))
        }
    }

    /// The upload key; made (32 random bytes, 0600) when missing, exclusively, so two processes never make two.
    func loadOrCreateKey() throws -> SymmetricKey {
        if let bytes = try? Data(FileBytes.read(keyFile.path)) {
            guard bytes.count == 32 else {
                throw UploadQueueError(.queueUnavailable, "the upload key file is damaged; move it aside", file: keyFile.path)
            }
            return SymmetricKey(data: bytes)
        }
        let folder = keyFile.deletingLastPathComponent()
        try QueueFileSystem.prepareDirectory(folder)
        let key = SymmetricKey(size: .bits256)
        guard try QueueFileSystem.createExclusively(keyFile, contents: key.withUnsafeBytes { Data($0) }) else {
            // Another process made it first: its key is the one to use.
            guard let bytes = try? Data(FileBytes.read(keyFile.path)), bytes.count == 32 else {
                throw UploadQueueError(.queueUnavailable, "cannot read the upload key", file: keyFile.path)
            }
            return SymmetricKey(data: bytes)
        }
        return key
    }
}
