import Foundation
import Testing

extension ConsentdIntegration {
    /// The schema check must be able to fail: a deliberately invalid message is caught.
    @Suite struct SchemaCheck {
        @Test func validatorRejectsAnInvalidMessage() throws {
            try FileManager.default.createDirectory(at: Paths.transcripts, withIntermediateDirectories: true)
            let file = Paths.transcripts.appendingPathComponent("deliberately-invalid.jsonl")
            let lines = [
                // A flow.changed whose step is not a step, and whose seq is a string.
                #"{"jsonrpc":"2.0","method":"flow.changed","params":{"seq":"1","time":"2026-01-01T00:00:00.000Z","mono_us":1,"data":{"flow":"f","study":"s","step":"bogus","view":{"step":"bogus","title":"t","actions":[]}}}}"#,
                // An error whose data.type is not registered.
                #"{"jsonrpc":"2.0","id":1,"error":{"code":-32000,"message":"m","data":{"type":"Whatever"}}}"#,
            ]
            let transcript = lines.map { jsonLine(["dir": "<-", "line": $0]) }.joined(separator: "\n") + "\n"
            try transcript.write(to: file, atomically: true, encoding: .utf8)
            let result = SchemaValidator.validate([file])
            #expect(result.status == 1, "\(result.output)")
            #expect(result.output.contains("bogus"))
            #expect(result.output.contains("Whatever"))
        }

        /// A hostile client's deeply nested line is skipped and counted, not a RecursionError; a deep
        /// line from the agent is reported as a violation.
        @Test func validatorSkipsWhatItCannotParse() throws {
            try FileManager.default.createDirectory(at: Paths.transcripts, withIntermediateDirectories: true)
            let file = Paths.transcripts.appendingPathComponent("deeply-nested.jsonl")
            let deep = String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000)
            let parseError = #"{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"m","data":{"type":"ParseError"}}}"#
            var lines = [jsonLine(["dir": "->", "line": deep]), jsonLine(["dir": "<-", "line": parseError])]
            var transcript = lines.joined(separator: "\n") + "\n"
            try transcript.write(to: file, atomically: true, encoding: .utf8)
            let skipped = SchemaValidator.validate([file])
            #expect(skipped.status == 0, "\(skipped.output)")
            #expect(skipped.output.contains("1 client lines skipped"), "\(skipped.output)")
            #expect(!skipped.output.contains("RecursionError"))

            lines.append(jsonLine(["dir": "<-", "line": deep]))
            transcript = lines.joined(separator: "\n") + "\n"
            try transcript.write(to: file, atomically: true, encoding: .utf8)
            let reported = SchemaValidator.validate([file])
            #expect(reported.status == 1, "\(reported.output)")
            #expect(reported.output.contains("nested too deeply"))
            #expect(!reported.output.contains("RecursionError"))
        }

        @Test func generatedProtocolFilesAreCurrent() throws {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
            process.arguments = ["python3", Paths.root.appendingPathComponent("Protocol/tools/generate.py").path, "--check"]
            let output = Pipe()
            process.standardError = output
            process.standardOutput = output
            try process.run()
            let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            process.waitUntilExit()
            #expect(process.terminationStatus == 0, "\(text)")
        }
    }
}
