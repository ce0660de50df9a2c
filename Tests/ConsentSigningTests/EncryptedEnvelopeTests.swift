import Crypto
import CryptoExtras
import Foundation
import Testing

@testable import ConsentSigning

@Suite struct EncryptedEnvelopeTests {
    /// One 2048-bit key for the suite (generation is slow); kept as PEM because the key type is not Sendable.
    static let receiverPEM: String = (try? _RSA.Encryption.PrivateKey(keySize: .bits2048).pemRepresentation) ?? ""
    static var receiver: _RSA.Encryption.PrivateKey? { try? _RSA.Encryption.PrivateKey(pemRepresentation: receiverPEM) }

    /// C3-PRO's envelope: `Tests/EncryptionTests.swift` vector, AES-128-CBC with a zero IV.
    @Test func c3TestVector() throws {
        let key = SymmetricKey(data: Data("why-is-this-here".utf8))
        let ciphertext = try AESCBC.encrypt(Data("Let's encrypt!".utf8), key: key, iv: Data(count: 16))
        #expect(ciphertext.base64EncodedString() == "Iy8Mbj2ye1fI0yUWvyzwWw==")
        let back = try AESCBC.decrypt(try #require(Data(base64Encoded: "Iy8Mbj2ye1fI0yUWvyzwWw==")), key: key, iv: Data(count: 16))
        #expect(String(decoding: back, as: UTF8.self) == "Let's encrypt!")
    }

    /// A C3-made envelope (no `iv`: the zero IV) around the test vector opens.
    @Test func c3EnvelopeOpens() throws {
        let receiver = try #require(Self.receiver)
        let wrapped = try receiver.publicKey.encrypt(Data("why-is-this-here".utf8), padding: .PKCS1_OAEP)
        let envelope = EncryptedEnvelope(
            keyID: "", symmetricKey: wrapped.base64EncodedString(), message: "Iy8Mbj2ye1fI0yUWvyzwWw==", version: "3.0.0")
        #expect(try envelope.open(with: receiver) == Data("Let's encrypt!".utf8))
    }

    @Test func roundTripWithFreshKeyAndIVPerMessage() throws {
        let receiver = try #require(Self.receiver)
        let plaintext = Data(#"{"resourceType":"Contract"}"#.utf8)
        let a = try EncryptedEnvelope.seal(plaintext, for: receiver.publicKey, keyID: "k1")
        let b = try EncryptedEnvelope.seal(plaintext, for: receiver.publicKey, keyID: "k1")
        #expect(try a.open(with: receiver) == plaintext)
        #expect(try b.open(with: receiver) == plaintext)
        #expect(a.iv != nil && a.iv != b.iv)
        #expect(a.message != b.message)
        #expect(try receiver.decrypt(Data(base64Encoded: a.symmetricKey) ?? Data(), padding: .PKCS1_OAEP)
            != receiver.decrypt(Data(base64Encoded: b.symmetricKey) ?? Data(), padding: .PKCS1_OAEP))
        #expect(a.version == "4.0.1")
    }

    @Test func zeroIVModeForC3ConsumersStillUsesAFreshKey() throws {
        let receiver = try #require(Self.receiver)
        let plaintext = Data("same".utf8)
        let a = try EncryptedEnvelope.seal(plaintext, for: receiver.publicKey, ivPolicy: .zero)
        let b = try EncryptedEnvelope.seal(plaintext, for: receiver.publicKey, ivPolicy: .zero)
        #expect(a.iv == nil)
        #expect(a.message != b.message)
        #expect(try a.open(with: receiver) == plaintext)
    }

    @Test func wireShapeUsesC3MemberNames() throws {
        let receiver = try #require(Self.receiver)
        let envelope = try EncryptedEnvelope.seal(Data("x".utf8), for: receiver.publicKey, keyID: "site-7", ivPolicy: .zero)
        let object = try JSONSerialization.jsonObject(with: JSONEncoder().encode(envelope)) as? [String: Any]
        #expect(Set(object?.keys.map { $0 } ?? []) == ["key_id", "symmetric_key", "message", "version"])
        #expect(object?["key_id"] as? String == "site-7")
    }

    @Test func wrongKeyAndCorruptEnvelopeAreTypedErrors() throws {
        let receiver = try #require(Self.receiver)
        let other = try _RSA.Encryption.PrivateKey(keySize: .bits2048)
        let envelope = try EncryptedEnvelope.seal(Data("x".utf8), for: receiver.publicKey)
        #expect(throws: ConsentSigningError(.decryptionFailed, "")) { try envelope.open(with: other) }
        var corrupt = envelope
        corrupt.message = "%%%"
        #expect(throws: ConsentSigningError(.envelopeInvalid, "")) { try corrupt.open(with: receiver) }
        corrupt = envelope
        corrupt.iv = Data(count: 8).base64EncodedString()
        #expect(throws: ConsentSigningError(.envelopeInvalid, "")) { try corrupt.open(with: receiver) }
    }
}
