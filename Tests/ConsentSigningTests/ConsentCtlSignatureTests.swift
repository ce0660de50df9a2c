import CryptoExtras
import Foundation
import Testing

/// `consentctl sign --biometric-escrow`, `escrow open`, `signature export` / `show` and `verify`'s per-signature
/// lines, as built.
@Suite struct ConsentCtlSignatureTests {
    static func run(_ arguments: [String]) throws -> ConsentCtlSignVerifyTests.Run { try ConsentCtlSignVerifyTests.run(arguments) }

    static let session = """
        {"answers": [true, true, false, true], "shareWidely": true, "given": "Ada", "family": "Lovelace",
         "strokes": {"strokes": [[[0.1, 0.2, 0, 0.2], [0.2, 0.3, 5, 0.4], [0.3, 0.2, 10, 0.6], [0.4, 0.3, 15, 0.8]],
                                 [[0.5, 0.5, 100, 0.5], [0.7, 0.5, 110, 0.5]]], "widthMM": 120, "heightMM": 40},
         "patient": null, "deidentify": false, "location": null, "signedAt": "2026-09-14T10:15:30Z",
         "comprehension": [[1], [1], [0]], "optional": {"future-research": true, "contact-other-studies": false}}
        """

    static func sign(_ directory: URL, extra: [String] = []) throws -> URL {
        let input = directory.appendingPathComponent("session.json")
        if !FileManager.default.fileExists(atPath: input.path) { try Data(session.utf8).write(to: input) }
        let output = directory.appendingPathComponent("record-\(UUID().uuidString.prefix(8))")
        let signed = try run(["sign", "--input", input.path, "-o", output.path, "--state-dir", directory.appendingPathComponent("state").path] + extra)
        #expect(signed.status == 0, "\(signed.output)")
        IndependentISOReader.keep(output, as: "ConsentCtlSignatureTests")
        return output
    }

    @Test func escrowedRecordOpensForTheExaminerWhoExportsAndExaminesIt() throws {
        let directory = try Fixture.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let key = try _RSA.Encryption.PrivateKey(keySize: .bits2048)
        let privatePEM = directory.appendingPathComponent("escrow.key"), publicPEM = directory.appendingPathComponent("escrow.pem")
        try Data(key.pemRepresentation.utf8).write(to: privatePEM)
        try Data(key.publicKey.pemRepresentation.utf8).write(to: publicPEM)

        let record = try Self.sign(directory, extra: ["--biometric-escrow", publicPEM.path, "--biometric-escrow-key-id", "notary"])
        let names = try FileManager.default.contentsOfDirectory(atPath: record.path)
        #expect(!names.contains("signature.json") && names.contains("signature.json.escrow"))
        #expect(names.contains("signature-participant.iso19794-7.escrow") && !names.contains("signature-participant.iso19794-7"))

        let verified = try Self.run(["verify", record.path])
        #expect(verified.status == 0, "\(verified.output)")
        #expect(verified.output.contains("SIGNATURE participant: intact"))

        // Sealed: nothing to export without the escrow key.
        let sealed = try Self.run(["signature", "export", record.path, "--role", "participant", "--format", "iso19794-7", "-o", directory.appendingPathComponent("no.iso").path])
        #expect(sealed.status == 1)
        #expect(sealed.output.contains("escrow open"))

        let opened = directory.appendingPathComponent("examiner")
        let open = try Self.run(["escrow", "open", record.path, "--key", privatePEM.path, "--out", opened.path])
        #expect(open.status == 0, "\(open.output)")
        #expect(Set(try FileManager.default.contentsOfDirectory(atPath: opened.path)) == ["signature.json", "signature-participant.iso19794-7"])

        let exported = directory.appendingPathComponent("participant.iso19794-7")
        let export = try Self.run(["signature", "export", opened.path, "--role", "participant", "--format", "iso19794-7", "-o", exported.path])
        #expect(export.status == 0, "\(export.output)")
        #expect(try Data(contentsOf: exported) == Data(contentsOf: opened.appendingPathComponent("signature-participant.iso19794-7")))
        #expect(try FileManager.default.attributesOfItem(atPath: exported.path)[.posixPermissions] as? Int == 0o600)

        let prefix = directory.appendingPathComponent("exam").path
        let show = try Self.run(["signature", "show", opened.path, "--png-prefix", prefix])
        #expect(show.status == 0, "\(show.output)")
        #expect(show.output.contains("points: 6"))
        #expect(show.output.contains("strokes: 2"))
        #expect(show.output.contains("pen-up (hover) samples: 0"))
        #expect(show.output.contains("duration: 0.110 s"))
        #expect(show.output.contains("sampling rate: 200.0 Hz"))
        #expect(show.output.contains("pressure: 0.200 ... 0.800"))
        for suffix in ["-pressure.png", "-speed.png"] {
            let png = try Data(contentsOf: URL(fileURLWithPath: prefix + suffix))
            #expect(png.starts(with: [0x89, 0x50, 0x4E, 0x47]))
        }
        // A wrong key writes nothing.
        let stranger = try _RSA.Encryption.PrivateKey(keySize: .bits2048)
        let strangerPEM = directory.appendingPathComponent("stranger.key")
        try Data(stranger.pemRepresentation.utf8).write(to: strangerPEM)
        let wrong = try Self.run(["escrow", "open", record.path, "--key", strangerPEM.path, "--out", directory.appendingPathComponent("x").path])
        #expect(wrong.status == 1)
        #expect(!FileManager.default.fileExists(atPath: directory.appendingPathComponent("x").path))
    }

    @Test func verifyNamesTheSignatureWhoseDocumentChanged() throws {
        let directory = try Fixture.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let record = try Self.sign(directory)
        let export = try Self.run(["signature", "export", record.path, "--role", "participant", "--format", "iso19794-7", "-o", directory.appendingPathComponent("p.iso").path])
        #expect(export.status == 0, "\(export.output)")
        try Data("%PDF-1.7 a different document".utf8).write(to: record.appendingPathComponent("consent.pdf"))
        let verified = try Self.run(["verify", record.path])
        #expect(verified.status == 2)
        #expect(verified.output.contains("SIGNATURE participant: document changed"))
        let missingRole = try Self.run(["signature", "show", record.path, "--role", "witness"])
        #expect(missingRole.status == 1)
    }
}
