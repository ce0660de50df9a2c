import Foundation
import Testing

/// `consentctl sign` and `verify` as built: exit codes, files written, nothing written on refusal.
@Suite struct ConsentCtlSignVerifyTests {
    struct Run {
        var status: Int32
        var output: String
    }

    /// The built consentctl, next to the test bundle (argument-parser's `AssertExecuteCommand` lesson).
    static func consentctl() throws -> URL {
        let candidates = [
            Bundle.main.bundleURL.appendingPathComponent("consentctl"),
            Bundle.main.bundleURL.deletingLastPathComponent().appendingPathComponent("consentctl"),
            Fixture.packageRoot.appendingPathComponent(".build/debug/consentctl"),
        ]
        // `Bundle.allBundles` only when those fail: Foundation leaks an array on every call (LeakSanitizer).
        let isExecutable = { (url: URL) in FileManager.default.isExecutableFile(atPath: url.path) }
        guard let found = candidates.first(where: isExecutable)
            ?? Bundle.allBundles.lazy.map({ $0.bundleURL.deletingLastPathComponent().appendingPathComponent("consentctl") })
            .first(where: isExecutable)
        else {
            throw FixtureError("consentctl is not built; run `swift build --build-tests` (make test does)")
        }
        return found
    }

    static func run(_ arguments: [String]) throws -> Run {
        let process = Process()
        process.executableURL = try consentctl()
        process.arguments = arguments
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        try process.run()
        let output = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Run(status: process.terminationStatus, output: String(decoding: output, as: UTF8.self))
    }

    private func session(answers: String = "[true, true, false, true]", strokes: String = "[[[0.1, 0.2, 0, 0.5]]]") -> String {
        """
        {"answers": \(answers), "shareWidely": true, "given": "Ada", "family": "Lovelace", "strokes": \(strokes),
         "patient": null, "deidentify": true, "location": null, "signedAt": "2026-09-14T10:15:30Z",
         "comprehension": [[1], [1], [0]], "optional": {"future-research": true, "contact-other-studies": false}}
        """
    }

    @Test func signThenVerifyThenTamper() throws {
        let directory = try Fixture.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let input = directory.appendingPathComponent("session.json")
        try Data(session().utf8).write(to: input)
        let site = directory.appendingPathComponent("site.json")
        try Data(#"{"country": "US", "state": "MA", "city": "Boston", "postalCode": "02115"}"#.utf8).write(to: site)
        let output = directory.appendingPathComponent("record")
        let state = directory.appendingPathComponent("state")

        let signed = try Self.run([
            "sign", "--input", input.path, "-o", output.path, "--state-dir", state.path, "--kiosk-id", "kiosk-7",
            "--site-address", site.path,
        ])
        #expect(signed.status == 0, "\(signed.output)")
        let patient = try String(contentsOf: output.appendingPathComponent("patient.json"), encoding: .utf8)
        #expect(patient.contains("\"021\""))
        #expect(!patient.contains("Boston"))
        #expect(!signed.output.contains("Lovelace"))

        let publicKey = state.appendingPathComponent("keys/kiosk-ed25519.pub")
        let verified = try Self.run(["verify", output.path, "--key", publicKey.path])
        #expect(verified.status == 0, "\(verified.output)")

        // The same output again: refused, the record untouched.
        let again = try Self.run(["sign", "--input", input.path, "-o", output.path, "--state-dir", state.path])
        #expect(again.status == 1)

        try Data("{}".utf8).write(to: output.appendingPathComponent("contract.json"))
        let tampered = try Self.run(["verify", output.path, "--key", publicKey.path])
        #expect(tampered.status == 2)
        #expect(tampered.output.contains("contract.json"))
    }

    @Test func stu3FlagWritesTheC3Shape() throws {
        let directory = try Fixture.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let input = directory.appendingPathComponent("session.json")
        try Data(session().utf8).write(to: input)
        let output = directory.appendingPathComponent("record")
        let result = try Self.run(["sign", "--input", input.path, "-o", output.path, "--state-dir", directory.appendingPathComponent("state").path, "--stu3"])
        #expect(result.status == 0, "\(result.output)")
        let contract = try String(contentsOf: output.appendingPathComponent("contract.json"), encoding: .utf8)
        #expect(contract.contains("whoReference"))
        #expect(contract.contains("http://hl7.org/fhir/ValueSet/contract-signer-type"))
    }

    @Test(arguments: [
        ("[true, true, true, true]", "[[[0.1, 0.2, 0]]]", "ineligible"),
        ("[true, true, false, true]", "[]", "signature"),
    ])
    func refusalsWriteNothing(answers: String, strokes: String, reason: String) throws {
        let directory = try Fixture.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let input = directory.appendingPathComponent("session.json")
        try Data(session(answers: answers, strokes: strokes).utf8).write(to: input)
        let output = directory.appendingPathComponent("record")
        let result = try Self.run(["sign", "--input", input.path, "-o", output.path, "--state-dir", directory.appendingPathComponent("state").path])
        #expect(result.status == 1)
        #expect(result.output.contains(reason), "\(result.output)")
        #expect(!FileManager.default.fileExists(atPath: output.path))
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted() == ["session.json"])
    }

    @Test func missingKeyFileAndMissingRecordExitOne() throws {
        let directory = try Fixture.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let input = directory.appendingPathComponent("session.json")
        try Data(session().utf8).write(to: input)
        let result = try Self.run(["sign", "--input", input.path, "-o", directory.appendingPathComponent("r").path, "--key", "/nonexistent.key"])
        #expect(result.status == 1)
        #expect(result.output.contains("does not exist"))
        #expect(try Self.run(["verify", directory.appendingPathComponent("nope").path]).status == 1)
    }
}
