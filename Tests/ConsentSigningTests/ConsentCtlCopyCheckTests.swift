import Foundation
import Testing

/// `consentctl copy check` as built (Sources/consentctl/Commands/Copy.swift): the mark's record id must be the
/// record's own, and the record must be signed by a kiosk key the clinic trusts (`--kiosk-key`, or the identity of
/// the records' state directory); when no key is at hand it says so with its own exit status.
@Suite struct ConsentCtlCopyCheckTests {
    typealias Run = ConsentCtlSignVerifyTests.Run

    static func run(_ arguments: [String]) throws -> Run { try ConsentCtlSignVerifyTests.run(arguments) }

    /// A record signed by the kiosk of `state`, kept in `state/records/<its id>`; its mark's text.
    static func record(in state: URL, scratch: URL) throws -> (id: String, mark: String) {
        let session = scratch.appendingPathComponent("session-\(UUID().uuidString).json")
        try Data("""
            {"answers": [true, true, false, true], "shareWidely": true, "given": "Ada", "family": "Lovelace",
             "strokes": [[[0.1, 0.2, 0, 0.5], [0.3, 0.4, 10, 0.5]]], "patient": null, "deidentify": true,
             "location": null, "signedAt": "2026-09-14T10:15:30Z", "comprehension": [[1], [1], [0]], "optional": {"future-research": true, "contact-other-studies": false}}
            """.utf8).write(to: session)
        let out = scratch.appendingPathComponent("out-\(UUID().uuidString)")
        let signed = try run(["sign", "--input", session.path, "-o", out.path, "--state-dir", state.path, "--kiosk-id", "kiosk-7"])
        #expect(signed.status == 0, "\(signed.output)")
        let manifest = try Data(contentsOf: out.appendingPathComponent("manifest.json"))
        let id = try #require((try JSONSerialization.jsonObject(with: manifest) as? [String: Any])?["recordID"] as? String)
        let records = state.appendingPathComponent("records")
        try FileManager.default.createDirectory(at: records, withIntermediateDirectories: true)
        try FileManager.default.moveItem(at: out, to: records.appendingPathComponent(id))
        return (id, "CK1:\(id):\(try sha256(manifest))")
    }

    static func sha256(_ data: Data) throws -> String {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("manifest-\(UUID().uuidString)")
        try data.write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/sha256sum")
        process.arguments = [file.path]
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        let output = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return String(String(decoding: output, as: UTF8.self).prefix(64))
    }

    @Test func theMarkMustNameTheRecordAndATrustedKioskMustHaveSignedIt() throws {
        let scratch = try Fixture.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: scratch) }
        let clinic = scratch.appendingPathComponent("state"), elsewhere = scratch.appendingPathComponent("other-kiosk")
        let own = try Self.record(in: clinic, scratch: scratch)
        let records = clinic.appendingPathComponent("records").path
        let clinicKey = clinic.appendingPathComponent("keys/kiosk-ed25519.pub").path

        // The clinic's own record, checked against the state directory's kiosk identity, or the key given.
        let ok = try Self.run(["copy", "check", own.mark, "--records", records])
        #expect(ok.status == 0, "\(ok.output)")
        #expect(ok.output.contains("OK record \(own.id)"), "\(ok.output)")
        #expect(try Self.run(["copy", "check", own.mark, "--records", records, "--kiosk-key", clinicKey]).status == 0)

        // The same record copied into another record's folder: a mark naming that id does not name this record.
        let other = "r-0123456789abcdef"
        try FileManager.default.copyItem(
            atPath: records + "/" + own.id, toPath: records + "/" + other)
        let renamed = own.mark.replacingOccurrences(of: own.id, with: other)
        let wrong = try Self.run(["copy", "check", renamed, "--records", records])
        #expect(wrong.status == 2, "\(wrong.output)")
        #expect(wrong.output.contains("WRONG RECORD"), "\(wrong.output)")

        // A record signed by a kiosk the clinic does not know, put among its records: intact, but untrusted.
        let foreign = try Self.record(in: elsewhere, scratch: scratch)
        try FileManager.default.moveItem(
            atPath: elsewhere.appendingPathComponent("records/\(foreign.id)").path, toPath: records + "/" + foreign.id)
        let untrusted = try Self.run(["copy", "check", foreign.mark, "--records", records])
        #expect(untrusted.status == 2, "\(untrusted.output)")
        #expect(untrusted.output.contains("UNTRUSTED"), "\(untrusted.output)")
        let otherKey = elsewhere.appendingPathComponent("keys/kiosk-ed25519.pub").path
        #expect(try Self.run(["copy", "check", foreign.mark, "--records", records, "--kiosk-key", otherKey]).status == 0)
        #expect(try Self.run(["copy", "check", foreign.mark, "--records", records, "--kiosk-key", clinicKey, "--kiosk-key", otherKey]).status == 0)
        #expect(try Self.run(["copy", "check", foreign.mark, "--records", records, "--kiosk-key", clinicKey]).status == 2)

        // Records without a kiosk identity beside them, and no key given: intact, but who signed is not checked.
        let loose = scratch.appendingPathComponent("copied/records")
        try FileManager.default.createDirectory(at: loose, withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: records + "/" + own.id, toPath: loose.appendingPathComponent(own.id).path)
        let unchecked = try Self.run(["copy", "check", own.mark, "--records", loose.path])
        #expect(unchecked.status == 3, "\(unchecked.output)")
        #expect(unchecked.output.contains("NOT checked"), "\(unchecked.output)")
        #expect(try Self.run(["copy", "check", own.mark, "--records", loose.path, "--kiosk-key", clinicKey]).status == 0)

        // A key file that cannot be read is a usage error, never a verdict.
        #expect(try Self.run(["copy", "check", own.mark, "--records", records, "--kiosk-key", scratch.path + "/missing.pem"]).status == 1)
    }
}
