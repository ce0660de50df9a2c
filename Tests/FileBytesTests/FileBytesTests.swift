import FileBytes
import Foundation
import Testing

/// The one POSIX whole-file reader: what Foundation's `Data(contentsOf:)` did for the state
/// files, without its per-empty-file leak.
@Suite struct FileBytesTests {
    @Test func readsEmptySmallAndLargeFilesWhole() throws {
        let folder = try TestSupport.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let empty = folder.appendingPathComponent("empty")
        try Data().write(to: empty)
        #expect(try FileBytes.read(empty.path) == [])
        let large = folder.appendingPathComponent("large")
        let bytes = (0..<100_000).map { UInt8(truncatingIfNeeded: $0 &* 31) }
        try Data(bytes).write(to: large)
        #expect(try FileBytes.read(large.path) == bytes)
    }

    @Test func failuresCarryTheErrno() throws {
        let folder = try TestSupport.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        #expect(throws: FileBytes.Failure(call: "open", errno: ENOENT)) {
            _ = try FileBytes.read(folder.appendingPathComponent("missing").path)
        }
        #expect(throws: FileBytes.Failure(call: "read", errno: EISDIR)) { _ = try FileBytes.read(folder.path) }
        let file = folder.appendingPathComponent("five")
        try Data("12345".utf8).write(to: file)
        #expect(throws: FileBytes.Failure(call: "read", errno: EFBIG)) { _ = try FileBytes.read(file.path, limit: 4) }
        #expect(try FileBytes.read(file.path, limit: 5) == Array("12345".utf8))
    }
}
