import Foundation
import Testing

@testable import ConsentAgent

@Suite struct AtomicRecordWriterTests {
    @Test func writesPrivateFilesAndNeverOverwrites() throws {
        let root = try TestSupport.temporaryDirectory()
        let writer = AtomicRecordWriter(recordsDirectory: root.appendingPathComponent("records"))
        let id = RecordID.make()
        let directory = try writer.write(id: id, files: [("a.json", Data("{}".utf8)), ("b.txt", Data("b".utf8))])
        #expect(directory.lastPathComponent == id)
        for name in ["a.json", "b.txt"] {
            let attributes = try FileManager.default.attributesOfItem(atPath: directory.appendingPathComponent(name).path)
            #expect((attributes[.posixPermissions] as? NSNumber)?.intValue == 0o600)
        }
        #expect(throws: AgentError(.recordFailed, "")) {
            _ = try writer.write(id: id, files: [("a.json", Data("{\"x\":1}".utf8))])
        }
        #expect(try String(contentsOf: directory.appendingPathComponent("a.json"), encoding: .utf8) == "{}")
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: root.appendingPathComponent("records").path)
        #expect(leftovers == [id], "no temporary directory is left behind")
    }

    @Test func recordIDsAreCheckedBeforeTouchingFiles() {
        #expect(RecordID.isValid(RecordID.make()))
        #expect(!RecordID.isValid("../../etc/passwd"))
        #expect(!RecordID.isValid("r-" + String(repeating: "G", count: 32)))
    }
}
