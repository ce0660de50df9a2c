import Foundation
import Testing

/// What `--json` prints is the JSON module's writer, byte for byte what `JSONEncoder` (`.prettyPrinted`,
/// `.sortedKeys`, `.withoutEscapingSlashes`) printed before: every command's output is the bytes `JSONEncoder` gives
/// for the value it holds, and the queue's output is pinned whole.
@Suite struct JSONOutputTests {
    /// Any JSON value, read as `JSONDecoder` reads it (an integer kept apart from other numbers).
    enum Tree: Codable, Equatable {
        case null, bool(Bool), integer(Int64), number(Double), string(String), array([Tree]), object([String: Tree])

        init(from decoder: any Decoder) throws {
            let container = try decoder.singleValueContainer()
            if container.decodeNil() {
                self = .null
            } else if let b = try? container.decode(Bool.self) {
                self = .bool(b)
            } else if let i = try? container.decode(Int64.self) {
                self = .integer(i)
            } else if let d = try? container.decode(Double.self) {
                self = .number(d)
            } else if let s = try? container.decode(String.self) {
                self = .string(s)
            } else if let a = try? container.decode([Tree].self) {
                self = .array(a)
            } else {
                self = .object(try container.decode([String: Tree].self))
            }
        }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.singleValueContainer()
            switch self {
            case .null: try container.encodeNil()
            case .bool(let b): try container.encode(b)
            case .integer(let i): try container.encode(i)
            case .number(let d): try container.encode(d)
            case .string(let s): try container.encode(s)
            case .array(let a): try container.encode(a)
            case .object(let o): try container.encode(o)
            }
        }
    }

    /// The command's output is JSONEncoder's bytes for what it holds.
    func expectJSONEncoderBytes(_ arguments: [String], sourceLocation: SourceLocation = #_sourceLocation) throws {
        let result = try CommandRunner.run("consentctl", arguments)
        let printed = Data(result.stdout.utf8)
        let tree = try JSONDecoder().decode(Tree.self, from: printed)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        #expect(
            try encoder.encode(tree) + Data("\n".utf8) == printed, "\(arguments)\n\(result.stdout)", sourceLocation: sourceLocation)
    }

    static let sample = CommandRunner.packageRoot.appendingPathComponent("Sources/SampleStudy/sample")

    /// A state directory holding the records earlier agents wrote (Tests/Fixtures) and one queue entry.
    func stateDirectory() throws -> URL {
        let state = FileManager.default.temporaryDirectory.appendingPathComponent("consentctl-json-\(UUID().uuidString)")
        let records = state.appendingPathComponent("records")
        let queue = state.appendingPathComponent("queue")
        try FileManager.default.createDirectory(at: records, withIntermediateDirectories: true)
        try FileManager.default.createDirectory(at: queue, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        let fixtures = CommandRunner.packageRoot.appendingPathComponent("Tests/Fixtures")
        try FileManager.default.copyItem(
            at: fixtures.appendingPathComponent("golden-record/records/c30862e5-41c6-4031-afa4-3a2f74255462"),
            to: records.appendingPathComponent("c30862e5-41c6-4031-afa4-3a2f74255462"))
        for legacy in ["pen-pad-and-ui-witness", "touch-screen"] {
            try FileManager.default.copyItem(
                at: fixtures.appendingPathComponent("legacy-iso19794-7/\(legacy)"), to: records.appendingPathComponent(legacy))
        }
        let entry = """
            {
              "attempts" : 2,
              "enqueuedAt" : "2026-09-14T10:15:30.125Z",
              "format" : "consent-kiosk-upload/1",
              "isHalted" : true,
              "lastError" : {
                "at" : "2026-09-14T10:15:31Z",
                "code" : "httpStatus",
                "httpStatus" : 503,
                "message" : "busy \\"now\\" / later"
              },
              "nextAttemptAt" : "2026-09-14T10:15:30.125Z",
              "recordDirectory" : "/state/records/c30862e5-41c6-4031-afa4-3a2f74255462",
              "recordID" : "c30862e5-41c6-4031-afa4-3a2f74255462",
              "sequence" : 1,
              "target" : "envelope"
            }
            """
        let file = queue.appendingPathComponent("00000001-c30862e5-41c6-4031-afa4-3a2f74255462.json")
        try Data(entry.utf8).write(to: file)
        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: file.path)
        return state
    }

    @Test func everyJSONOutputIsJSONEncodersBytes() throws {
        let state = try stateDirectory()
        defer { try? FileManager.default.removeItem(at: state) }
        let broken = FileManager.default.temporaryDirectory.appendingPathComponent("consentctl-json-study-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: broken) }
        try FileManager.default.copyItem(at: Self.sample, to: broken)
        try Data("{".utf8).write(to: broken.appendingPathComponent("options.json"))

        try expectJSONEncoderBytes(["inspect", Self.sample.path, "--json"])
        try expectJSONEncoderBytes(["lint", Self.sample.path, "--json"])
        try expectJSONEncoderBytes(["lint", broken.path, "--json"])
        try expectJSONEncoderBytes(["studies", "--study", Self.sample.path, "--state-dir", state.path, "--json"])
        try expectJSONEncoderBytes([
            "reconsent", "list", "org.example.heartbeat-sleep.consent", "--study", Self.sample.path, "--state-dir", state.path, "--json",
        ])
        try expectJSONEncoderBytes(["queue", "--state-dir", state.path, "--json"])
    }

    /// The bytes `JSONEncoder` printed for this queue, pinned (captured from the consentctl that used it).
    @Test func theQueuesJSONIsPinned() throws {
        let state = try stateDirectory()
        defer { try? FileManager.default.removeItem(at: state) }
        let result = try CommandRunner.run("consentctl", ["queue", "--state-dir", state.path, "--json"])
        #expect(result.status == 3)
        #expect(
            result.stdout == """
                {
                  "entries" : [
                    {
                      "attempts" : 2,
                      "enqueuedAt" : "2026-09-14T10:15:30Z",
                      "format" : "consent-kiosk-upload/1",
                      "isHalted" : true,
                      "lastError" : {
                        "at" : "2026-09-14T10:15:31Z",
                        "code" : "httpStatus",
                        "httpStatus" : 503,
                        "message" : "busy \\"now\\" / later"
                      },
                      "nextAttemptAt" : "2026-09-14T10:15:30Z",
                      "recordDirectory" : "/state/records/c30862e5-41c6-4031-afa4-3a2f74255462",
                      "recordID" : "c30862e5-41c6-4031-afa4-3a2f74255462",
                      "sequence" : 1,
                      "target" : "envelope"
                    }
                  ],
                  "halted" : true,
                  "lastError" : {
                    "at" : "2026-09-14T10:15:31Z",
                    "code" : "httpStatus",
                    "httpStatus" : 503,
                    "message" : "busy \\"now\\" / later"
                  },
                  "parked" : [

                  ]
                }

                """)
    }
}
