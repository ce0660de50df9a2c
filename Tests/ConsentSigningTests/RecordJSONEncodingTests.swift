import ConsentCore
import Foundation
import JSONTestSupport
import JSONFoundation
import Testing

@testable import ConsentSigning

/// The signed record's files are written by the JSON module (`JSONValueEncoder`, `JSONValueWriter`) byte for byte as
/// Foundation's `JSONEncoder` wrote them: the records earlier agents wrote (Tests/Fixtures) come out of a read and a
/// write unchanged, and every other manifest, envelope and signature.json gives `JSONEncoder`'s bytes.
@Suite struct RecordJSONEncodingTests {
    static let records = [
        "golden-record/records/c30862e5-41c6-4031-afa4-3a2f74255462", "legacy-iso19794-7/pen-pad-and-ui-witness",
        "legacy-iso19794-7/touch-screen",
    ]

    func fixture(_ path: String) throws -> Data {
        try Data(contentsOf: RecordJSONDecodingTests.fixtures.appendingPathComponent(path))
    }

    /// What `RecordManifest.encoded()` replaced, with the same options.
    func jsonEncoderManifest(_ manifest: RecordManifest) throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return try encoder.encode(manifest) + Data("\n".utf8)
    }

    @Test func fixtureManifestsAreWrittenAgainByteForByte() throws {
        for record in Self.records {
            let bytes = try fixture(record + "/manifest.json")
            #expect(try RecordManifest.decoded(bytes).encoded() == bytes, "\(record)")
        }
    }

    @Test func everyManifestIsWrittenAsJSONEncoderWroteIt() throws {
        var generator = SeededGenerator(seed: 0x3B_5EED)
        var written = 0
        for manifest in try RecordJSONDecodingTests().manifests() {
            for round in 0..<150 {
                let edited = round == 0 ? manifest : manifest.randomEdit(using: &generator)
                // Only the edits that still read as a manifest can be written again.
                guard let value = try? RecordManifest.decoded(edited.serialized()) else { continue }
                let ours = try value.encoded()
                #expect(ours == (try jsonEncoderManifest(value)), "\(String(decoding: ours, as: UTF8.self))")
                written += 1
            }
        }
        #expect(written > 100)
    }

    /// The bytes `JSONEncoder` wrote for this manifest, pinned: a later Foundation cannot move them unnoticed.
    @Test func aManifestsBytesArePinned() throws {
        var manifest = try RecordManifest.decoded(fixture(Self.records[0] + "/manifest.json"))
        manifest.files = [.init(name: "a/b.json", sha256: "ab", size: 3)]
        manifest.passcode = try JSONValueDecoder.foundation().decode(
            PasscodeHash.self, from: Array(#"{"salt": "+/8=", "hash": "AAEC", "iterations": 210000}"#.utf8))
        manifest.language = "de"
        manifest.kioskID = "Zoë \"1\"\n"
        let expected = """
            {
              "auditHead" : "f9ef59cde6daf7fd495f22afa3573d699cdc57924176676df166f606900b19b2",
              "deidentified" : false,
              "files" : [
                {
                  "name" : "a/b.json",
                  "sha256" : "ab",
                  "size" : 3
                }
              ],
              "format" : "consent-kiosk-record/1",
              "kioskID" : "Zoë \\"1\\"\\n",
              "language" : "de",
              "mode" : "r4",
              "passcode" : {
                "hash" : "AAEC",
                "iterations" : 210000,
                "salt" : "+/8="
              },
              "publicKey" : {
                "algorithm" : "Ed25519",
                "key" : "/J8Kfm/tXQl2R8MrEnCMIrsu0nWlKLs9G+pTEbi3t9Q="
              },
              "recordID" : "c30862e5-41c6-4031-afa4-3a2f74255462",
              "signedAt" : "2026-11-22T14:32:33.57Z",
              "studyID" : "org.example.heartbeat-sleep.consent",
              "studyVersion" : "e12645c73bf781be4d7785463219be9c0f9514eb4192c751a2d1f7f5b4467a28"
            }

            """
        #expect(String(decoding: try manifest.encoded(), as: UTF8.self) == expected)
        #expect(try jsonEncoderManifest(manifest) == Data(expected.utf8))
    }

    @Test func fixtureSignatureFilesAreWrittenAgainByteForByte() throws {
        struct Signers: Decodable {
            struct Additional: Decodable {
                var role: SignerRole
                var signature: SignatureStrokes
            }
            var signedBy: SignerRole?
            var additionalSigners: [Additional]?
        }
        for record in Self.records {
            let bytes = try fixture(record + "/signature.json")
            let signers = try JSONDecoder().decode(Signers.self, from: bytes)
            let file = SignatureFile(
                participant: try JSONDecoder().decode(SignatureStrokes.self, from: bytes), signedBy: signers.signedBy,
                additionalSigners: (signers.additionalSigners ?? []).map { .init(role: $0.role, signature: $0.signature) })
            #expect(try ConsentSigner.encodeCompact(file) == bytes, "\(record)")
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
            #expect(try ConsentSigner.encodeCompact(file) == encoder.encode(file) + Data("\n".utf8))
        }
    }

    /// Envelopes were written with `.sortedKeys` alone, so base64's "/" is escaped.
    @Test func envelopesAreWrittenAsJSONEncoderWroteThem() throws {
        let envelope = EncryptedEnvelope(keyID: "kiosk/1 ä", symmetricKey: "ab/+c/==", message: "//8=", version: "4.0.1", iv: "AA/A")
        let expected = #"{"iv":"AA\/A","key_id":"kiosk\/1 ä","message":"\/\/8=","symmetric_key":"ab\/+c\/==","version":"4.0.1"}"# + "\n"
        #expect(String(decoding: try RecordEncryption.encode(envelope), as: UTF8.self) == expected)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        #expect(try encoder.encode(envelope) + Data("\n".utf8) == Data(expected.utf8))
        var without = envelope
        without.iv = nil
        #expect(try RecordEncryption.encode(without) == encoder.encode(without) + Data("\n".utf8))
    }
}
