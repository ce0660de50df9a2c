import ConsentCore
import Crypto
import CryptoExtras
import Foundation
import Testing

@testable import ConsentSigning

/// Records encrypted at rest: what is stored, how `RecordVerifier` treats it with and without the private key, and
/// the plaintext copy `RecordDecryptor` makes.
@Suite struct RecordEncryptionTests {
    /// Key generation is slow: one recipient and one stranger for the suite, kept as PEM (the key is not Sendable).
    static let recipientPEM: String = (try? _RSA.Encryption.PrivateKey(keySize: .bits2048).pemRepresentation) ?? ""
    static let strangerPEM: String = (try? _RSA.Encryption.PrivateKey(keySize: .bits2048).pemRepresentation) ?? ""

    static func key(_ pem: String) throws -> RecordRecipientKey { try RecordRecipientKey(pemRepresentation: pem) }

    static func encryption() throws -> RecordEncryption {
        let key = try _RSA.Encryption.PrivateKey(pemRepresentation: recipientPEM)
        return try RecordEncryption(recipientPublicKeyDER: key.publicKey.derRepresentation, keyID: "irb-1")
    }

    /// The same consent signed in plaintext and encrypted, both written under a fresh directory.
    static func records() throws -> (plain: SignedRecord, sealed: SignedRecord, parent: URL) {
        let study = try Fixture.study()
        let plain = try Fixture.signer().sign(
            outcome: Fixture.outcome(study), study: study, signedAt: Fixture.signedAt, pdf: Fixture.pdf)
        let sealed = try Fixture.signer().sign(
            outcome: Fixture.outcome(study), study: study, signedAt: Fixture.signedAt, pdf: Fixture.pdf,
            encryption: try encryption())
        return (plain, sealed, try Fixture.temporaryDirectory())
    }

    @Test func everyFileButTheManifestIsAnEnvelopeAndTheManifestKeepsThePlaintextHashes() throws {
        let (plain, sealed, parent) = try Self.records()
        defer { try? FileManager.default.removeItem(at: parent) }
        let names = sealed.files.map(\.name)
        #expect(names.filter { !$0.hasSuffix(".enc") } == [RecordManifest.fileName, RecordManifest.signatureFileName])
        #expect(Set(names.filter { $0.hasSuffix(".enc") }) == Set(plain.manifest.files.map { $0.name + ".enc" }))
        // Same plaintext hashes: a decrypted copy verifies against the sealed record's manifest.
        #expect(sealed.manifest.files == plain.manifest.files)
        let encryption = try #require(sealed.manifest.encryption)
        #expect(encryption.scheme == RecordEncryption.scheme && encryption.keyID == "irb-1")
        #expect(encryption.files.map(\.plaintext).sorted() == plain.manifest.files.map(\.name))
        for file in sealed.files where file.name.hasSuffix(".enc") {
            let text = String(decoding: file.contents, as: UTF8.self)
            // Only the long needle: three letters such as "Ada" turn up in random base64 now and then.
            #expect(!text.contains("Lovelace"), "\(file.name)")
            let envelope = try JSONDecoder().decode(EncryptedEnvelope.self, from: file.contents)
            #expect(envelope.keyID == "irb-1" && envelope.iv != nil)
        }
        // A plaintext record's manifest is byte-for-byte what it was before encryption existed.
        #expect(!String(decoding: try plain.manifest.encoded(), as: UTF8.self).contains("encryption"))
    }

    @Test func verifiesWithoutTheKeyAndChecksContentsWithIt() throws {
        let (_, sealed, parent) = try Self.records()
        defer { try? FileManager.default.removeItem(at: parent) }
        let directory = try RecordWriter.write(sealed, into: parent)
        let withoutKey = try RecordVerifier.verify(directory: directory)
        #expect(withoutKey.isIntact, "\(withoutKey.findings)")
        #expect(withoutKey.sealedUnchecked.count == sealed.manifest.files.count)
        let withKey = try RecordVerifier.verify(directory: directory, privateKey: try Self.key(Self.recipientPEM))
        #expect(withKey.isIntact && withKey.sealedUnchecked.isEmpty, "\(withKey.findings)")
        let stranger = try RecordVerifier.verify(directory: directory, privateKey: try Self.key(Self.strangerPEM))
        #expect(!stranger.isIntact)
        #expect(stranger.findings.count == sealed.manifest.files.count)
        #expect(stranger.findings.allSatisfy { $0.problem.hasPrefix("does not decrypt") })
    }

    @Test func aChangedOrMissingEnvelopeIsFound() throws {
        let (_, sealed, parent) = try Self.records()
        defer { try? FileManager.default.removeItem(at: parent) }
        let directory = try RecordWriter.write(sealed, into: parent)
        // A fresh envelope of other contents for the same key: well-formed, but not the signed one.
        let patient = directory.appendingPathComponent("patient.json.enc")
        let forged = try EncryptedEnvelope.seal(
            Data(#"{"resourceType":"Patient"}"#.utf8), for: try _RSA.Encryption.PublicKey(derRepresentation: Self.encryption().recipientPublicKeyDER))
        try RecordEncryption.encode(forged).write(to: patient)
        try FileManager.default.removeItem(at: directory.appendingPathComponent("signature.json.enc"))
        let report = try RecordVerifier.verify(directory: directory, privateKey: try Self.key(Self.recipientPEM))
        #expect(report.findings.map(\.file).sorted() == ["patient.json.enc", "patient.json.enc", "signature.json"])
        #expect(throws: ConsentSigningError(.manifestInvalid, "")) {
            try RecordDecryptor.decrypt(directory: directory, with: try Self.key(Self.recipientPEM))
        }
    }

    @Test func decryptedCopyVerifiesLikeAPlaintextRecord() throws {
        let (plain, sealed, parent) = try Self.records()
        defer { try? FileManager.default.removeItem(at: parent) }
        let directory = try RecordWriter.write(sealed, into: parent)
        let files = try RecordDecryptor.decrypt(directory: directory, with: try Self.key(Self.recipientPEM))
        for file in plain.files where file.name != RecordManifest.fileName && file.name != RecordManifest.signatureFileName {
            #expect(files.first { $0.name == file.name }?.contents == file.contents, "\(file.name)")
        }
        let copy = try RecordWriter.write(files: files, to: parent.appendingPathComponent("copy"))
        let report = try RecordVerifier.verify(directory: copy, pinnedKey: Fixture.kiosk.publicKey)
        #expect(report.isIntact && report.sealedUnchecked.isEmpty, "\(report.findings)")
        #expect(throws: ConsentSigningError(.recordExists, "")) { try RecordWriter.write(files: files, to: copy) }
    }

    @Test func theWrongKeyOrAPlaintextRecordIsAClearError() throws {
        let (plain, sealed, parent) = try Self.records()
        defer { try? FileManager.default.removeItem(at: parent) }
        let directory = try RecordWriter.write(sealed, into: parent)
        do {
            _ = try RecordDecryptor.decrypt(directory: directory, with: try Self.key(Self.strangerPEM))
            Issue.record("a stranger's key opened the record")
        } catch let error as ConsentSigningError {
            #expect(error.code == .decryptionFailed)
            #expect(error.message.contains("does not open with this private key"))
        }
        let plainDirectory = try RecordWriter.write(plain, to: parent.appendingPathComponent("plain"))
        #expect(throws: ConsentSigningError(.manifestInvalid, "")) {
            try RecordDecryptor.decrypt(directory: plainDirectory, with: try Self.key(Self.recipientPEM))
        }
        #expect(throws: ConsentSigningError(.invalidKey, "")) { try RecordRecipientKey(pemRepresentation: "not a key") }
        #expect(throws: ConsentSigningError(.invalidKey, "")) {
            try RecordEncryption(recipientPublicKeyDER: Data("not a key".utf8))
        }
    }
}
