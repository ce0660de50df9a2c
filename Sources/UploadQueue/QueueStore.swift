import ConsentCore
import FileBytes
import Foundation
import JSONFoundation

/// The on-disk queue: `<state>/queue/` (0700) holding one entry file (0600) per record, named
/// `<sequence>-<recordID>.json`, plus `parked/` for entries an operator set aside.
///
/// ```
/// <state>/queue/
///   .lock                          flock(2) held by the one process delivering the queue
///   00000001-<recordID>.json       the head: the only entry ever attempted
///   00000002-<recordID>.json       waits until 1 is acknowledged
///   parked/00000007-<recordID>.json
/// ```
/// The disk is the source of truth: every change is an atomic, fsync'd replace, and the delivery loop re-reads
/// the head before each step, so `consentctl queue retry` and `park` work while consentd runs. An entry file is
/// removed only after the server acknowledged its record. Synchronous by design: each call is a few small-file
/// syscalls.
public struct QueueStore: Sendable {
    public let directory: URL

    public init(queueDirectory: URL) {
        self.directory = queueDirectory
    }

    /// The queue of a consentd state directory: `<state>/queue`.
    public init(stateDirectory: URL) {
        self.init(queueDirectory: URL(fileURLWithPath: StateLayout(root: stateDirectory.path).queue, isDirectory: true))
    }

    var parkedDirectory: URL { directory.appendingPathComponent("parked", isDirectory: true) }
    var lockFile: URL { directory.appendingPathComponent(".lock") }

    /// Creates the directories (0700) and removes temporary files a crash left behind.
    public func prepare() throws {
        try QueueFileSystem.prepareDirectory(directory)
        try QueueFileSystem.prepareDirectory(parkedDirectory)
        for name in (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
        where name.hasPrefix(".") && name.contains(".tmp-") {
            try? FileManager.default.removeItem(at: directory.appendingPathComponent(name))
        }
    }

    /// The pending entries in delivery order. A missing queue directory is an empty queue.
    ///
    /// - Throws: `.entryCorrupt` naming the first entry file that cannot be read as an entry (it is left in
    ///   place: a queue with an unreadable entry stops rather than skip it), `.queueUnavailable`.
    public func entries() throws -> [QueueEntry] {
        try readEntries(in: directory)
    }

    public func parkedEntries() throws -> [QueueEntry] {
        try readEntries(in: parkedDirectory)
    }

    public func status() throws -> QueueStatus {
        QueueStatus(entries: try entries(), parked: try parkedEntries())
    }

    /// Adds a record at the tail, durably, unless it is queued (or parked) already: enqueuing is idempotent, so
    /// the agent may enqueue again after a crash between writing a record and queuing it.
    ///
    /// - Returns: the new entry, or the existing one for this record.
    func append(
        recordID: String, recordDirectory: URL, target: UploadTarget, now: Date, sealedPayload: Bool = false
    ) throws -> QueueEntry {
        guard QueueEntry.isValidRecordID(recordID) else {
            throw UploadQueueError(.invalidRecordID, "the record id cannot name a queue entry; use letters, digits, '.', '_' and '-'")
        }
        let pending = try entries(), parked = try parkedEntries()
        if let existing = (pending + parked).first(where: { $0.recordID == recordID }) { return existing }
        let sequence = ((pending + parked).map(\.sequence).max() ?? 0) + 1
        var entry = QueueEntry(
            sequence: sequence, recordID: recordID, recordDirectory: recordDirectory.standardizedFileURL.path,
            target: target, enqueuedAt: now)
        if sealedPayload { entry.sealedPayload = true }
        try save(entry)
        return entry
    }

    /// Writes a pending entry's file (attempts, next attempt, last error) atomically.
    func save(_ entry: QueueEntry) throws {
        try QueueFileSystem.replace(directory.appendingPathComponent(entry.fileName), contents: try Self.encode(entry))
    }

    /// Deletes an entry; only called once the server acknowledged it.
    func remove(_ entry: QueueEntry) throws {
        try QueueFileSystem.remove(directory.appendingPathComponent(entry.fileName))
    }

    /// Makes the head entry (or the pending entry of `recordID`) due now and clears its halt: the operator's
    /// "try again", after fixing the server, the configuration or the record.
    ///
    /// - Throws: `.recordMissing` when no pending entry matches.
    @discardableResult
    public func rearm(recordID: String? = nil, now: Date = Date()) throws -> QueueEntry {
        let pending = try entries()
        guard var entry = recordID.map({ id in pending.first { $0.recordID == id } }) ?? pending.first else {
            throw UploadQueueError(.recordMissing, "no pending queue entry for that record; run consentctl queue to list them")
        }
        entry.isHalted = false
        entry.nextAttemptAt = now
        try save(entry)
        return entry
    }

    /// Moves a pending entry to `parked/`, so the entries after it are delivered. The entry is kept (never deleted
    /// unacknowledged); an operator deals with it by hand.
    ///
    /// - Throws: `.recordMissing` when no pending entry has that record id.
    @discardableResult
    public func park(recordID: String) throws -> QueueEntry {
        guard let entry = try entries().first(where: { $0.recordID == recordID }) else {
            throw UploadQueueError(.recordMissing, "no pending queue entry for that record; run consentctl queue to list them")
        }
        try QueueFileSystem.prepareDirectory(parkedDirectory)
        try QueueFileSystem.move(
            directory.appendingPathComponent(entry.fileName), to: parkedDirectory.appendingPathComponent(entry.fileName))
        return entry
    }

    /// Puts a parked entry back at the tail (a new number, due now, not halted): it is delivered after everything
    /// queued meanwhile, which the operator accepts by unparking.
    ///
    /// - Throws: `.recordMissing` when no parked entry has that record id.
    @discardableResult
    public func unpark(recordID: String, now: Date = Date()) throws -> QueueEntry {
        let parked = try parkedEntries()
        guard var entry = parked.first(where: { $0.recordID == recordID }) else {
            throw UploadQueueError(.recordMissing, "no parked queue entry for that record; run consentctl queue to list them")
        }
        let parkedFile = parkedDirectory.appendingPathComponent(entry.fileName)
        entry.sequence = ((try entries() + parked).map(\.sequence).max() ?? 0) + 1
        entry.isHalted = false
        entry.nextAttemptAt = now
        // Written before the parked copy is removed: a crash in between leaves the record in both places (enqueue
        // and delivery use the pending one), never in neither.
        try save(entry)
        try QueueFileSystem.remove(parkedFile)
        return entry
    }

    private func readEntries(in folder: URL) throws -> [QueueEntry] {
        guard FileManager.default.fileExists(atPath: folder.path) else { return [] }
        let names: [String]
        do {
            names = try FileManager.default.contentsOfDirectory(atPath: folder.path)
        } catch {
            throw UploadQueueError(.queueUnavailable, "cannot list the queue directory; check its permissions", file: folder.path, cause: error)
        }
        let numbered = names.compactMap { name in QueueEntry.sequence(inFileName: name).map { ($0, name) } }
        return try numbered.sorted { $0.0 < $1.0 }.compactMap { sequence, name in
            let url = folder.appendingPathComponent(name)
            guard let data = try? Data(FileBytes.read(url.path)) else {
                // Delivered and removed between the listing and this read (the delivery loop runs concurrently;
                // the ASan and TSan runs, being slower, hit it): not an entry any more, not an error.
                if !FileManager.default.fileExists(atPath: url.path) { return nil }
                throw UploadQueueError(.queueUnavailable, "cannot read a queue entry; check its permissions", file: url.path)
            }
            guard let entry = try? Self.decode(data), entry.format == QueueEntry.format, entry.sequence == sequence,
                entry.fileName == name, QueueEntry.isValidRecordID(entry.recordID)
            else {
                throw UploadQueueError(
                    .entryCorrupt, "the queue entry is not in the \(QueueEntry.format) format; move it aside to continue",
                    file: url.path)
            }
            return entry
        }
    }

    static func encode(_ entry: QueueEntry) throws -> Data {
        Data(try encoder.encodedBytes(entry, pretty: true))
    }

    /// JSONEncoder's bytes with .prettyPrinted, .sortedKeys and .withoutEscapingSlashes and dates as
    /// `timestampStyle`, which wrote every entry before (QueueEntryDecodingTests).
    private static let encoder = JSONValueEncoder.foundation(date: { .string($0.formatted(timestampStyle)) })

    static func decode(_ data: Data) throws -> QueueEntry {
        try decoder.decode(QueueEntry.self, from: data)
    }

    /// Dates as `encode` writes them (`timestampStyle`), or without the fraction.
    private static let decoder = JSONValueDecoder.foundation(date: { decoder in
        let text = try decoder.singleValueContainer().decode(String.self)
        if let date = try? timestampStyle.parse(text) { return date }
        return try Date.ISO8601FormatStyle().parse(text)
    })

    /// RFC 3339 in UTC with milliseconds: sub-second backoffs (tests) survive a round trip through the file.
    static let timestampStyle = Date.ISO8601FormatStyle(includingFractionalSeconds: true)
}
