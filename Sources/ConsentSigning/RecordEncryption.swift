import ConsentCore
import CryptoExtras
import Foundation

/// Encryption at rest of a record's files for a recipient who alone holds the RSA private key.
///
/// Every record file except the manifest and its signature carries PHI (names, signature images and strokes, the
/// Patient, the PDF), so each is stored as `<name>.enc`: the C3-PRO envelope of its bytes (`EncryptedEnvelope`,
/// a fresh AES-256 key and random IV per file, the key wrapped with RSA-OAEP for the recipient). The manifest stays
/// plaintext: it holds hashes, ids and the signing time, no participant data, and it must verify without the key.
/// It keeps the plaintext files' hashes (so a decrypted record verifies like any other) and lists the envelopes
/// with their own hashes in `encryption`, so the signature also covers what is on disk.
///
/// The kiosk only has the public key: once written, nothing on the kiosk can read the record back.
public struct RecordEncryption: Sendable, Hashable {
    /// The scheme named in the manifest.
    public static let scheme = "c3pro-envelope/rsa-oaep-aes-cbc"
    /// The suffix of an encrypted file's name.
    public static let fileSuffix = ".enc"
    /// The suffix of a biometric file sealed to the escrow key (`manifest.biometricEscrow`).
    public static let escrowSuffix = ".escrow"

    /// The recipient key's SubjectPublicKeyInfo DER (`_RSA.Encryption.PublicKey` is not `Sendable`).
    public var recipientPublicKeyDER: Data
    /// The `key_id` of every envelope and of the manifest's `encryption`: how the recipient finds its private key.
    public var keyID: String

    /// - Throws: `.invalidKey` when `recipientPublicKeyDER` is not an RSA public key of at least 2048 bits.
    public init(recipientPublicKeyDER: Data, keyID: String = "") throws {
        guard (try? _RSA.Encryption.PublicKey(derRepresentation: recipientPublicKeyDER)) != nil else {
            throw ConsentSigningError(.invalidKey, "the record encryption key is not an RSA public key of at least 2048 bits")
        }
        self.recipientPublicKeyDER = recipientPublicKeyDER
        self.keyID = keyID
    }

    /// Seals each file into its envelope, returning the `.enc` file and the manifest entry of both forms.
    ///
    /// - Throws: `.encryptionFailed`.
    ///
    /// The one home of sealing: record encryption (`suffix` `.enc`) and the biometric escrow (`.escrow`,
    /// `keepsPlaintextHash`, `BiometricEscrow`) both go through it.
    func seal(
        _ files: [SignedRecord.File], suffix: String = fileSuffix, keepsPlaintextHash: Bool = false
    ) throws -> (files: [SignedRecord.File], entries: [RecordManifest.EncryptedFile]) {
        let key: _RSA.Encryption.PublicKey
        do {
            key = try _RSA.Encryption.PublicKey(derRepresentation: recipientPublicKeyDER)
        } catch {
            throw ConsentSigningError(.encryptionFailed, "the record encryption key cannot be loaded", cause: error)
        }
        var sealed: [SignedRecord.File] = []
        var entries: [RecordManifest.EncryptedFile] = []
        for file in files {
            let envelope = try EncryptedEnvelope.seal(file.contents, for: key, keyID: keyID)
            let bytes = try Self.encode(envelope)
            let name = file.name + suffix
            sealed.append(.init(name: name, contents: bytes))
            let entry = RecordManifest.entry(name: name, contents: bytes)
            let plaintextHash = keepsPlaintextHash ? RecordManifest.entry(name: file.name, contents: file.contents).sha256 : nil
            entries.append(
                .init(name: name, sha256: entry.sha256, size: entry.size, plaintext: file.name, plaintextSHA256: plaintextHash))
        }
        return (sealed, entries.sorted { $0.name < $1.name })
    }

    static func encode(_ envelope: EncryptedEnvelope) throws -> Data {
        // JSONEncoder's bytes with .sortedKeys alone (base64's "/" escaped), which wrote every envelope before.
        Data(try JSONValueEncoder().encodedBytes(envelope, escapingSlashes: true) + [UInt8(ascii: "\n")])
    }

    /// Opens one `.enc` file's bytes.
    ///
    /// - Throws: `.envelopeInvalid` when the bytes are not an envelope, `.decryptionFailed` for another key.
    public static func open(_ bytes: Data, with privateKey: RecordRecipientKey) throws -> Data {
        let envelope: EncryptedEnvelope
        do {
            envelope = try JSONValueDecoder().decode(EncryptedEnvelope.self, from: bytes)
        } catch {
            throw ConsentSigningError(.envelopeInvalid, "not an encrypted envelope (JSON with key_id, symmetric_key, message)")
        }
        return try envelope.open(with: privateKey.key)
    }
}

/// The recipient's RSA private key, which opens encrypted records (`consentctl decrypt`, `verify --private-key`).
public struct RecordRecipientKey {
    let key: _RSA.Encryption.PrivateKey

    /// - Throws: `.invalidKey` when `pem` is not an RSA private key (PKCS#1 or PKCS#8 PEM) of at least 2048 bits.
    public init(pemRepresentation pem: String) throws {
        do {
            key = try _RSA.Encryption.PrivateKey(pemRepresentation: pem)
        } catch {
            throw ConsentSigningError(.invalidKey, "not an RSA private key in PEM form of at least 2048 bits", cause: error)
        }
    }

    public init(_ key: _RSA.Encryption.PrivateKey) {
        self.key = key
    }
}
