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
}
