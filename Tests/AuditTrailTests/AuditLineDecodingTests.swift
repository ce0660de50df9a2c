import Foundation
import Testing

@testable import AuditTrail

/// Audit lines are read by the JSON module (`AuditLine.parse`, `JSONValueDecoder`) as `JSONDecoder` read them: lines
/// as `AuditLine.encoded()` writes them, and damaged ones.
@Suite struct AuditLineDecodingTests {
    @Test func linesAndDamagedLinesReadAsJSONDecoderReadThem() throws {
        var line = AuditLine(
            seq: 42, time: "2026-09-14T10:15:30.125Z", monoNS: 9_000_000_000_123, kiosk: "kiosk/1", prev: String(repeating: "0", count: 64),
            event: "record.signed", outcome: "ok")
        line.flow = "f1"
        line.index = 3
        line.shareWidely = true
        line.peerUID = 1000
        line.peerPID = -1
        line.reason = "Zoë said \"no\"\n"
        let text = String(decoding: try line.encoded(), as: UTF8.self)
        let edits: [(String, String)] = [
            ("", ""), (#""seq":42"#, #""seq":42.0"#), (#""seq":42"#, #""seq":-42"#), (#""seq":42"#, #""seq":4.2e1"#),
            (#""peer_uid":1000"#, #""peer_uid":4294967296"#), (#""peer_pid":-1"#, #""peer_pid":2147483648"#),
            (#""share_widely":true"#, #""share_widely":"true""#), (#""index":3"#, #""index":null"#),
            (#""outcome":"ok","#, ""), (#""flow":"f1""#, #""flow":["f1"]"#), ("}", "} {}"),
        ]
        for (old, new) in edits {
            let edited = old.isEmpty ? text : text.replacingOccurrences(of: old, with: new)
            if !old.isEmpty { #expect(edited != text, "\(old) is not in the line") }
            let foundation = try? JSONDecoder().decode(AuditLine.self, from: Data(edited.utf8))
            #expect(AuditLine.parse(Data(edited.utf8)) == foundation, "\(old) -> \(new)")
        }
        #expect(AuditLine.parse(Data(text.utf8)) == line)
    }

    /// Lines are written as JSONEncoder (.sortedKeys, .withoutEscapingSlashes) wrote every line before.
    @Test func linesAreWrittenAsJSONEncoderWroteThem() throws {
        var line = AuditLine(
            seq: 7, time: "2026-09-14T10:15:30.125Z", monoNS: 9_000_000_000_123, kiosk: "kiosk/1", prev: "00ff", event: "record.signed",
            outcome: "ok")
        line.reason = "Zoë said \"no\"\n\u{7}"
        line.peerPID = -1
        line.shareWidely = false
        let expected = #"{"event":"record.signed","kiosk":"kiosk/1","mono_ns":9000000000123,"outcome":"ok","peer_pid":-1,"prev":"00ff","reason":"Zoë said \"no\"\n\u0007","seq":7,"share_widely":false,"time":"2026-09-14T10:15:30.125Z"}"#
        #expect(String(decoding: try line.encoded(), as: UTF8.self) == expected)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        #expect(try encoder.encode(line) == Data(expected.utf8))
        // Every member set, and the largest numbers.
        line.flow = "f"; line.study = "s"; line.studyVersion = "v"; line.step = "st"; line.index = .max; line.record = "r"
        line.manifest = "m"; line.signer = "sg"; line.strokes = 0; line.points = .min; line.eligible = true; line.answered = 1
        line.questions = 2; line.configuration = "c"; line.previousConfiguration = "pc"; line.studies = 3; line.peerUID = .max
        line.peerPID = .min; line.destination = "https://x/y"; line.httpStatus = 503; line.boot = "b"; line.truncatedBytes = 9
        line.truncatedSHA256 = "t"; line.previousFile = "p"; line.staff = "jroe"; line.method = "m"; line.daysLeft = -2
        line.seq = UInt64(Int64.max)
        #expect(try line.encoded() == encoder.encode(line))
    }
}
