import Foundation
import Testing

@testable import UploadQueue

@Suite struct QueueStoreTests {
    let now = Date(timeIntervalSince1970: 1_789_380_930.125)

    func mode(_ url: URL) throws -> Int {
        (try FileManager.default.attributesOfItem(atPath: url.path)[.posixPermissions] as? NSNumber)?.intValue ?? -1
    }

    @Test func entriesAreNumberedInOrderPrivateAndHoldNoPayload() throws {
        let state = try TestRecord.temporaryDirectory()
        let store = QueueStore(stateDirectory: state)
        try store.prepare()
        for id in ["rec-a", "rec-b", "rec-c"] {
            try store.append(recordID: id, recordDirectory: try TestRecord.write(id, in: state), target: .bundle, now: now)
        }
        let entries = try store.entries()
        #expect(entries.map(\.recordID) == ["rec-a", "rec-b", "rec-c"])
        #expect(entries.map(\.sequence) == [1, 2, 3])
        #expect(try mode(store.directory) == 0o700)
        let names = try FileManager.default.contentsOfDirectory(atPath: store.directory.path).filter { $0.hasSuffix(".json") }
        #expect(names.sorted() == ["00000001-rec-a.json", "00000002-rec-b.json", "00000003-rec-c.json"])
        for name in names {
            let url = store.directory.appendingPathComponent(name)
            #expect(try mode(url) == 0o600)
            // The entry points at the record; the Bundle (PHI) is not copied into the queue.
            #expect(!String(decoding: try Data(contentsOf: url), as: UTF8.self).contains("Consent"))
        }
        #expect(entries[0].recordDirectory == state.appendingPathComponent("records/rec-a").standardizedFileURL.path)
    }

    @Test func enqueueIsIdempotentAndNumbersAfterTheHighest() throws {
        let state = try TestRecord.temporaryDirectory()
        let store = QueueStore(stateDirectory: state)
        try store.prepare()
        let first = try store.append(recordID: "r1", recordDirectory: state, target: .bundle, now: now)
        let again = try store.append(recordID: "r1", recordDirectory: state, target: .envelope, now: now)
        #expect(again == first)
        try store.append(recordID: "r2", recordDirectory: state, target: .bundle, now: now)
        try store.remove(first)
        #expect(try store.append(recordID: "r3", recordDirectory: state, target: .bundle, now: now).sequence == 3)
        #expect(try store.entries().map(\.recordID) == ["r2", "r3"])
    }

    @Test(arguments: ["", "../x", "a/b", ".hidden", "with space", String(repeating: "a", count: 129)])
    func unsafeRecordIDsAreRefused(id: String) throws {
        let state = try TestRecord.temporaryDirectory()
        let store = QueueStore(stateDirectory: state)
        try store.prepare()
        #expect(throws: UploadQueueError(.invalidRecordID, "")) {
            try store.append(recordID: id, recordDirectory: state, target: .bundle, now: now)
        }
    }

    @Test func savedStateRoundTripsWithMilliseconds() throws {
        let state = try TestRecord.temporaryDirectory()
        let store = QueueStore(stateDirectory: state)
        try store.prepare()
        var entry = try store.append(recordID: "r1", recordDirectory: state, target: .envelope, now: now)
        entry.attempts = 3
        entry.nextAttemptAt = now.addingTimeInterval(0.25)
        entry.lastError = .init(code: "timedOut", message: "no answer", httpStatus: nil, at: now)
        try store.save(entry)
        let read = try #require(try store.entries().first)
        #expect(read.attempts == 3)
        #expect(read.target == .envelope)
        #expect(abs(read.nextAttemptAt.timeIntervalSince(entry.nextAttemptAt)) < 0.001)
        #expect(read.lastError?.code == "timedOut")
        // No temporary file is left behind.
        #expect(try FileManager.default.contentsOfDirectory(atPath: store.directory.path).filter { $0.contains(".tmp-") }.isEmpty)
    }

    /// A damaged entry stops the queue loudly (C3 stopped silently) and is left in place.
    @Test func corruptEntryIsReportedAndKept() throws {
        let state = try TestRecord.temporaryDirectory()
        let store = QueueStore(stateDirectory: state)
        try store.prepare()
        let bad = store.directory.appendingPathComponent("00000001-r1.json")
        try Data("{\"format\":".utf8).write(to: bad)
        #expect(throws: UploadQueueError(.entryCorrupt, "")) { try store.entries() }
        #expect(FileManager.default.fileExists(atPath: bad.path))
        // A file whose name does not match its content is corrupt too.
        let entry = QueueEntry(sequence: 2, recordID: "r2", recordDirectory: "/x", target: .bundle, enqueuedAt: now)
        try QueueStore.encode(entry).write(to: bad)
        #expect(throws: UploadQueueError(.entryCorrupt, "")) { try store.entries() }
    }

    @Test func crashLeftoversAndForeignFilesAreIgnored() throws {
        let state = try TestRecord.temporaryDirectory()
        let store = QueueStore(stateDirectory: state)
        try store.prepare()
        try Data("half".utf8).write(to: store.directory.appendingPathComponent(".00000001-r1.json.tmp-42"))
        try Data("notes".utf8).write(to: store.directory.appendingPathComponent("README"))
        try store.prepare()
        #expect(try store.entries().isEmpty)
        #expect(!FileManager.default.fileExists(atPath: store.directory.appendingPathComponent(".00000001-r1.json.tmp-42").path))
    }

    @Test func rearmAndParkAreOperatorLevers() throws {
        let state = try TestRecord.temporaryDirectory()
        let store = QueueStore(stateDirectory: state)
        try store.prepare()
        var head = try store.append(recordID: "r1", recordDirectory: state, target: .bundle, now: now)
        try store.append(recordID: "r2", recordDirectory: state, target: .bundle, now: now)
        head.isHalted = true
        head.nextAttemptAt = now.addingTimeInterval(3600)
        try store.save(head)
        #expect(try store.status().isHalted)
        #expect(try store.status().nextAttemptAt == nil)

        let rearmed = try store.rearm(now: now)
        #expect(rearmed.recordID == "r1" && !rearmed.isHalted)
        #expect(try store.status().nextAttemptAt == now)

        try store.park(recordID: "r1")
        let status = try store.status()
        #expect(status.entries.map(\.recordID) == ["r2"])
        #expect(status.parked.map(\.recordID) == ["r1"])
        // A parked record is never queued twice, and new entries number after it.
        #expect(try store.append(recordID: "r1", recordDirectory: state, target: .bundle, now: now).sequence == 1)
        #expect(try store.append(recordID: "r3", recordDirectory: state, target: .bundle, now: now).sequence == 3)
        #expect(throws: UploadQueueError(.recordMissing, "")) { try store.park(recordID: "nope") }

        // Unparked: back at the tail, due now, and no longer parked.
        let back = try store.unpark(recordID: "r1", now: now)
        #expect(back.sequence == 4 && !back.isHalted && back.nextAttemptAt == now)
        #expect(try store.status().entries.map(\.recordID) == ["r2", "r3", "r1"])
        #expect(try store.parkedEntries().isEmpty)
        #expect(throws: UploadQueueError(.recordMissing, "")) { try store.unpark(recordID: "r1") }
    }

    @Test func missingQueueIsEmpty() throws {
        let store = QueueStore(stateDirectory: try TestRecord.temporaryDirectory())
        #expect(try store.status() == QueueStatus(entries: [], parked: []))
    }
}
