import ConsentCore
import ConsentSigning
import Foundation
import JSONTestSupport
import Testing

/// The record's files are read by the JSON module (`JSONValueDecoder`) as Foundation's `JSONDecoder` read them: the
/// manifests of records already on kiosks (Tests/Fixtures), every optional part filled in, and many random edits of
/// them each decode to the same value, or are refused by both.
@Suite struct RecordJSONDecodingTests {
    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures")

    func expectSame<T: Decodable & Equatable>(
        _ type: T.Type, _ bytes: [UInt8], ours: ([UInt8]) throws -> T, sourceLocation: SourceLocation = #_sourceLocation
    ) {
        let foundation = Result { try JSONDecoder().decode(type, from: Data(bytes)) }
        let decoded = Result { try ours(bytes) }
        switch (foundation, decoded) {
        case (.success(let a), .success(let b)): #expect(a == b, sourceLocation: sourceLocation)
        case (.failure, .failure): break
        case (let a, let b):
            Issue.record(
                "JSONDecoder: \(a)\nours: \(b)\ntext: \(String(decoding: bytes, as: UTF8.self))", sourceLocation: sourceLocation)
        }
    }

    /// Every manifest of the fixtures, and the golden one with every optional member the format has.
    func manifests() throws -> [JSONValue] {
        let paths = [
            "golden-record/records/c30862e5-41c6-4031-afa4-3a2f74255462/manifest.json",
            "legacy-iso19794-7/pen-pad-and-ui-witness/manifest.json", "legacy-iso19794-7/touch-screen/manifest.json",
        ]
        var values = try paths.map { try JSONValue.parse(Data(contentsOf: Self.fixtures.appendingPathComponent($0))) }
        var full = values[1]
        let hash = String(repeating: "ab", count: 32)
        full.set("auditHead", .string(hash))
        full.set("passcode", ["salt": "AAECAwQFBgcICQoLDA0ODw==", "hash": "q83vASNFZ4mrze8BI0VniQ==", "iterations": 210_000])
        full.set("withdraws", "0f0e")
        full.set("previousRecord", "0e0f")
        let encryption: JSONValue = [
            "scheme": "c3pro-envelope", "keyID": "k1",
            "files": [["name": "a.enc", "sha256": .string(hash), "size": 10, "plaintext": "a", "plaintextSHA256": .string(hash)]],
        ]
        full.set("encryption", encryption)
        full.set("biometricEscrow", encryption)
        full.set(
            "comprehension",
            [
                "file": "comprehension.json", "attemptsAllowed": 2, "onRepeatedMiss": "flagForStaff", "flaggedForStaff": true,
                "questions": [["section": 1, "correct": 0, "attempts": [1, 0], "understood": true]],
            ])
        full.set("optionalElements", [["id": "future-research", "system": "urn:s", "code": "c", "permitted": true]])
        full.set(
            "approval",
            ["sha256": .string(hash), "keyFingerprint": "ff", "approved": "2026-01-01", "expires": "2027-01-01", "site": "Berlin"])
        values.append(full)
        return values
    }

    @Test func manifestsAndRandomEditsOfThemReadAsJSONDecoderReadThem() throws {
        var generator = SeededGenerator(seed: 0x3A_5EED)
        for manifest in try manifests() {
            let bytes = try Array(manifest.serialized(pretty: true))
            #expect(try RecordManifest.decoded(bytes) == JSONDecoder().decode(RecordManifest.self, from: Data(bytes)))
            for _ in 0..<250 {
                let edited = try Array(manifest.randomEdit(using: &generator).serialized())
                expectSame(RecordManifest.self, edited, ours: { try RecordManifest.decoded($0) })
            }
        }
    }

    @Test func aWrongMemberIsNamed() throws {
        var manifest = try manifests()[3]
        manifest.set("signatures", [["role": "participant"]])
        #expect {
            try RecordManifest.decoded(manifest.serialized())
        } throws: { error in
            let error = error as? JSONValueDecoder.Error
            return error?.kind == .missingKey && error?.description == "signatures[0]: no member \"documentVersion\""
        }
    }

    @Test func envelopesReadAsJSONDecoderReadThem() throws {
        var generator = SeededGenerator(seed: 0xE4_7E10)
        let envelope: JSONValue = ["key_id": "k", "symmetric_key": "AAEC/w==", "message": "ZGF0YQ==", "version": "4.0.1", "iv": "AAAA"]
        for _ in 0..<200 {
            let edited = try Array(envelope.randomEdit(using: &generator).serialized())
            expectSame(EncryptedEnvelope.self, edited, ours: { try JSONValueDecoder().decode(EncryptedEnvelope.self, from: $0) })
        }
    }
}
