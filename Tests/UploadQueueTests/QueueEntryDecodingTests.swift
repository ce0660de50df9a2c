import Foundation
import Testing

@testable import UploadQueue

/// Queue entries are read by the JSON module (`QueueStore.decode`, `JSONValueDecoder`) as `JSONDecoder` with the
/// queue's date strategy read them: entries as `QueueStore.encode` writes them, and damaged ones.
@Suite struct QueueEntryDecodingTests {
    /// What `QueueStore.decode` replaced, with the same date strategy.
    func foundation(_ bytes: Data) throws -> QueueEntry {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .custom { decoder in
            let text = try decoder.singleValueContainer().decode(String.self)
            if let date = try? QueueStore.timestampStyle.parse(text) { return date }
            return try Date.ISO8601FormatStyle().parse(text)
        }
        return try decoder.decode(QueueEntry.self, from: bytes)
    }

    @Test func entriesAndDamagedEntriesReadAsJSONDecoderReadThem() throws {
        var entry = QueueEntry(
            sequence: 7, recordID: "r-1", recordDirectory: "/var/lib/consentd/records/r-1", target: .envelope,
            enqueuedAt: Date(timeIntervalSince1970: 1_789_380_930.125))
        entry.attempts = 3
        entry.lastError = .init(code: "httpStatus", message: "503 \"busy\"", httpStatus: 503, at: Date(timeIntervalSince1970: 1_789_380_931))
        entry.sealedPayload = true
        let text = String(decoding: try QueueStore.encode(entry), as: UTF8.self)
        let edits: [(String, String)] = [
            ("", ""), (#""2026-09-14T10:15:30.125Z""#, #""2026-09-14T10:15:30Z""#),
            (#""2026-09-14T10:15:30.125Z""#, #""14 September""#), (#""2026-09-14T10:15:30.125Z""#, "1789380930"),
            (#""attempts" : 3"#, #""attempts" : 3.0"#), (#""attempts" : 3"#, #""attempts" : "3""#),
            (#""attempts" : 3,"#, ""), (#""httpStatus" : 503"#, #""httpStatus" : null"#),
            (#""target" : "envelope""#, #""target" : "ftp""#), (#""sealedPayload" : true"#, #""sealedPayload" : 1"#),
            (#""isHalted" : false"#, #""isHalted" : null"#), ("{", "["),
        ]
        for (old, new) in edits {
            let edited = old.isEmpty ? text : text.replacingOccurrences(of: old, with: new)
            if !old.isEmpty { #expect(edited != text, "\(old) is not in the entry") }
            let a = Result { try foundation(Data(edited.utf8)) }
            let b = Result { try QueueStore.decode(Data(edited.utf8)) }
            switch (a, b) {
            case (.success(let x), .success(let y)): #expect(x == y, "\(new)")
            case (.failure, .failure): break
            default: Issue.record("JSONDecoder: \(a)\nours: \(b)\nedit: \(old) -> \(new)")
            }
        }
        #expect(try QueueStore.decode(Data(text.utf8)) == entry)
    }

    /// Entries are written as JSONEncoder (.prettyPrinted, .sortedKeys, .withoutEscapingSlashes, dates as
    /// `timestampStyle`) wrote every entry before.
    @Test func entriesAreWrittenAsJSONEncoderWroteThem() throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        encoder.dateEncodingStrategy = .custom { date, encoder in
            var container = encoder.singleValueContainer()
            try container.encode(date.formatted(QueueStore.timestampStyle))
        }
        var entry = QueueEntry(
            sequence: 7, recordID: "r-1", recordDirectory: "/var/lib/consentd/records/r-1", target: .bundle,
            enqueuedAt: Date(timeIntervalSince1970: 1_789_380_930.125))
        let expected = """
            {
              "attempts" : 0,
              "enqueuedAt" : "2026-09-14T10:15:30.125Z",
              "format" : "consent-kiosk-upload/1",
              "isHalted" : false,
              "nextAttemptAt" : "2026-09-14T10:15:30.125Z",
              "recordDirectory" : "/var/lib/consentd/records/r-1",
              "recordID" : "r-1",
              "sequence" : 7,
              "target" : "bundle"
            }
            """
        #expect(String(decoding: try QueueStore.encode(entry), as: UTF8.self) == expected)
        #expect(try encoder.encode(entry) == Data(expected.utf8))
        entry.lastError = .init(code: "httpStatus", message: "503 \"busy\"\n", httpStatus: 503, at: Date(timeIntervalSince1970: 1_789_380_931))
        entry.sealedPayload = false
        entry.isHalted = true
        entry.attempts = .max
        #expect(try QueueStore.encode(entry) == encoder.encode(entry))
    }
}
