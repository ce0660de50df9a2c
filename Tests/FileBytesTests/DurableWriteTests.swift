import FileBytes
import Foundation
import Testing

/// The one durable-write primitive that records, the audit log, the completion journal, the upload
/// queue and the PDF are written through: whole or absent, 0600, no temporary file left, failures with their errno.
@Suite struct DurableWriteTests {
    static func mode(_ url: URL) throws -> Int {
        try #require(try FileManager.default.attributesOfItem(atPath: url.path)[.posixPermissions] as? Int)
    }

    static func names(_ folder: URL) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
    }

    @Test func replaceWritesWholeFilesPrivatelyAndLeavesNoTemporaryFile() throws {
        let folder = try TestSupport.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("entry")
        let old = umask(0)  // a permissive umask must not widen the mode
        defer { umask(old) }
        try DurableWrite.replace(file.path, contents: Data("first".utf8))
        #expect(try FileBytes.read(file.path) == Array("first".utf8))
        #expect(try Self.mode(file) == 0o600)
        // A lazy, non-contiguous sequence is written whole too.
        let many = (0..<70_000).lazy.map { UInt8(truncatingIfNeeded: $0 &* 7) }
        try DurableWrite.replace(file.path, contents: many)
        #expect(try FileBytes.read(file.path) == Array(many))
        try DurableWrite.replace(file.path, contents: [UInt8](), mode: 0o640)
        #expect(try FileBytes.read(file.path) == [])
        #expect(try Self.mode(file) == 0o640)
        #expect(try Self.names(folder) == ["entry"])
    }

    @Test func aFailedReplaceKeepsTheOldFileAndRemovesItsTemporaryFile() throws {
        let folder = try TestSupport.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        // The target is a directory that is not empty: rename(2) refuses after the data was written and synced.
        let target = folder.appendingPathComponent("occupied")
        try FileManager.default.createDirectory(at: target, withIntermediateDirectories: false)
        try Data("keep".utf8).write(to: target.appendingPathComponent("inside"))
        #expect(throws: DurableWrite.Failure(call: "rename", errno: EISDIR)) {
            try DurableWrite.replace(target.path, contents: Data("new".utf8))
        }
        #expect(try Self.names(folder) == ["occupied"])
        #expect(try FileBytes.read(target.appendingPathComponent("inside").path) == Array("keep".utf8))
        // A missing directory: nothing to create the temporary file in.
        #expect(throws: DurableWrite.Failure(call: "open", errno: ENOENT)) {
            try DurableWrite.replace(folder.appendingPathComponent("missing/entry").path, contents: Data("x".utf8))
        }
    }

    @Test func createNewNeverOverwrites() throws {
        let folder = try TestSupport.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("record.json")
        try DurableWrite.createNew(file.path, contents: Data("one".utf8))
        #expect(try Self.mode(file) == 0o600)
        #expect(throws: DurableWrite.Failure(call: "open", errno: EEXIST)) {
            try DurableWrite.createNew(file.path, contents: Data("two".utf8))
        }
        #expect(try FileBytes.read(file.path) == Array("one".utf8))
    }

    @Test func renameNoReplaceRefusesAnyTargetEvenAnEmptyDirectory() throws {
        let folder = try TestSupport.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let source = folder.appendingPathComponent(".tmp-record")
        try FileManager.default.createDirectory(at: source, withIntermediateDirectories: false)
        let empty = folder.appendingPathComponent("record")
        try FileManager.default.createDirectory(at: empty, withIntermediateDirectories: false)
        // Plain rename(2) would silently replace the empty directory.
        #expect(throws: DurableWrite.Failure.self) { try DurableWrite.renameNoReplace(source.path, to: empty.path) }
        #expect(FileManager.default.fileExists(atPath: source.path))
        try FileManager.default.removeItem(at: empty)
        try DurableWrite.renameNoReplace(source.path, to: empty.path)
        try DurableWrite.syncDirectory(folder.path)
        #expect(try Self.names(folder) == ["record"])
    }

    @Test func removeAndMoveAreDurableAndAMissingFileIsNoError() throws {
        let folder = try TestSupport.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let sub = folder.appendingPathComponent("sent")
        try FileManager.default.createDirectory(at: sub, withIntermediateDirectories: false)
        let file = folder.appendingPathComponent("entry")
        try DurableWrite.replace(file.path, contents: Data("x".utf8))
        try DurableWrite.move(file.path, to: sub.appendingPathComponent("entry").path)
        #expect(try Self.names(sub) == ["entry"])
        try DurableWrite.remove(sub.appendingPathComponent("entry").path)
        try DurableWrite.remove(sub.appendingPathComponent("entry").path)
        #expect(try Self.names(sub) == [])
        #expect(throws: DurableWrite.Failure(call: "open", errno: ENOENT)) {
            try DurableWrite.syncDirectory(folder.appendingPathComponent("gone").path)
        }
    }

    @Test func writeAllReportsTheErrno() throws {
        // A descriptor opened read-only: write(2) fails with EBADF, named as the write that failed.
        let folder = try TestSupport.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("ro")
        try Data().write(to: file)
        let fd = open(file.path, O_RDONLY)
        defer { close(fd) }
        #expect(throws: DurableWrite.Failure(call: "write", errno: EBADF)) { try DurableWrite.writeAll(fd, Data("x".utf8)) }
    }
}

/// The state directory's layout, defined once (docs/OPERATIONS.md section 4).
@Suite struct StateLayoutTests {
    @Test func everyFolderOfTheStateDirectory() {
        let layout = StateLayout(root: "/var/lib/consentd/")
        #expect(layout.root == "/var/lib/consentd")
        #expect(layout.records == "/var/lib/consentd/records" && layout.record("r1") == "/var/lib/consentd/records/r1")
        #expect(layout.completing == "/var/lib/consentd/completing" && layout.audit == "/var/lib/consentd/audit")
        #expect(layout.kioskKey == "/var/lib/consentd/keys/kiosk-ed25519.key")
        #expect(layout.uploadPayloadKey == "/var/lib/consentd/keys/upload-payload.key")
        #expect(layout.queue == "/var/lib/consentd/queue" && layout.uploadPayloads == "/var/lib/consentd/queue/payloads")
        #expect(StateLayout(root: "state").records == "state/records" && StateLayout(root: "").root == ".")
        #expect(StateLayout(root: "/").records == "/records")
    }
}
