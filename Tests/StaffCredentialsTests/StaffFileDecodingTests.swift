import Foundation
import JSON
import StaffCredentials
import Testing

/// The staff file is read by the JSON module (`JSONValueDecoder`) as `JSONDecoder` read it: as `StaffFile.save`
/// writes it, and damaged.
@Suite struct StaffFileDecodingTests {
    @Test func staffFilesAndDamagedOnesReadAsJSONDecoderReadThem() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("staff-\(UUID().uuidString).json").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        var file = StaffFile()
        try file.add(StaffCredential(id: "jroe", name: "Jane Roe / Ärztin", pin: "482913", iterations: 210_000))
        try file.save(path)
        let text = try String(contentsOfFile: path, encoding: .utf8)
        let edits: [(String, String)] = [
            ("", ""), (#""iterations" : 210000"#, #""iterations" : 2.1e5"#), (#""iterations" : 210000"#, #""iterations" : 210000.5"#),
            (#""format" : 1"#, #""format" : "1""#), (#""format" : 1,"#, ""), (#""name" : "Jane Roe / Ärztin""#, #""name" : null"#),
            (#""staff" : ["#, #""staff" : {"x": "#),
        ]
        for (old, new) in edits {
            let edited = old.isEmpty ? text : text.replacingOccurrences(of: old, with: new)
            if !old.isEmpty { #expect(edited != text, "\(old) is not in the file") }
            let foundation = try? JSONDecoder().decode(StaffFile.self, from: Data(edited.utf8))
            let ours = try? JSONValueDecoder().decode(StaffFile.self, from: Array(edited.utf8))
            #expect(ours == foundation, "\(old) -> \(new)")
        }
        #expect(try StaffFile.load(path) == file)
    }

    /// The file is written as JSONEncoder (.prettyPrinted, .sortedKeys, .withoutEscapingSlashes) wrote it before.
    @Test func staffFilesAreWrittenAsJSONEncoderWroteThem() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("staff-\(UUID().uuidString).json").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        let credential = """
            {"id": "jroe", "name": "Jane Roe / Ärztin", "algorithm": "PBKDF2-SHA256", "iterations": 600000,
             "salt": "AAEC/w==", "hash": "q83v+A==", "added": "2026-09-14T10:15:30Z"}
            """
        let file = StaffFile(staff: [try JSONDecoder().decode(StaffCredential.self, from: Data(credential.utf8))])
        try file.save(path)
        let expected = """
            {
              "format" : 1,
              "staff" : [
                {
                  "added" : "2026-09-14T10:15:30Z",
                  "algorithm" : "PBKDF2-SHA256",
                  "hash" : "q83v+A==",
                  "id" : "jroe",
                  "iterations" : 600000,
                  "name" : "Jane Roe / Ärztin",
                  "salt" : "AAEC/w=="
                }
              ]
            }

            """
        #expect(try String(contentsOfFile: path, encoding: .utf8) == expected)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        #expect(try encoder.encode(file) + Data("\n".utf8) == Data(expected.utf8))
        try StaffFile().save(path)
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == encoder.encode(StaffFile()) + Data("\n".utf8))
    }
}
