import Crypto
import CryptoExtras
import Foundation

/// C3-PRO's encrypted upload envelope (docs/UPLOAD.md), with a fresh AES key and IV for every message.
///
/// ```
/// { "key_id":        "<key id the receiver looks its private key up by, or "">",
///   "symmetric_key": "<base64 RSA-OAEP (SHA-1, MGF1-SHA-1) of the AES key>",
///   "message":       "<base64 AES-CBC, PKCS#7 padding, of the resource JSON>",
///   "version":       "<FHIR version, 4.0.1>",
///   "iv":            "<base64 of the 16-byte IV>"   only with `.random` IVs }
/// ```
/// C3 reused one AES key with a zero IV for every message. Here each envelope gets its own key (wire-compatible,
/// since every envelope carries its key) and by default its own random IV, sent in the extra `iv` member; an
/// envelope without `iv` is opened with the zero IV, so C3's own envelopes still open. `.zero` exists only for
/// consumers that cannot read `iv`, and is sound only because the key is never reused.
public struct EncryptedEnvelope: Sendable, Hashable, Codable {
    public enum IVPolicy: Sendable, Hashable {
        /// A random IV per message, carried in `iv`.
        case random
        /// The all-zero IV C3 consumers assume; safe only because each message has a fresh key.
        case zero
    }

    public static let defaultVersion = "4.0.1"

    public var keyID: String
    public var symmetricKey: String
    public var message: String
    public var version: String
    public var iv: String?

    private enum CodingKeys: String, CodingKey {
        case keyID = "key_id", symmetricKey = "symmetric_key", message, version, iv
    }

    public init(keyID: String, symmetricKey: String, message: String, version: String, iv: String? = nil) {
        self.keyID = keyID
        self.symmetricKey = symmetricKey
        self.message = message
        self.version = version
        self.iv = iv
    }

    /// Encrypts `plaintext` (a resource's JSON bytes) for the holder of `publicKey`.
    ///
    /// - Parameter keySize: the AES key size; 32 bytes (AES-256) as C3's default.
    /// - Throws: `.encryptionFailed`.
    public static func seal(
        _ plaintext: Data, for publicKey: _RSA.Encryption.PublicKey, keyID: String = "",
        version: String = defaultVersion, ivPolicy: IVPolicy = .random, keySize: SymmetricKeySize = .bits256
    ) throws -> EncryptedEnvelope {
        let key = SymmetricKey(size: keySize)
        let ivBytes = ivPolicy == .random ? Data((0..<16).map { _ in UInt8.random(in: .min ... .max) }) : Data(count: 16)
        do {
            let message = try AESCBC.encrypt(plaintext, key: key, iv: ivBytes)
            let wrapped = try key.withUnsafeBytes { try publicKey.encrypt(Data($0), padding: .PKCS1_OAEP) }
            return EncryptedEnvelope(
                keyID: keyID, symmetricKey: wrapped.base64EncodedString(), message: message.base64EncodedString(),
                version: version, iv: ivPolicy == .random ? ivBytes.base64EncodedString() : nil)
        } catch {
            throw ConsentSigningError(.encryptionFailed, "the message could not be encrypted; check the public key", cause: error)
        }
    }

    /// Decrypts the envelope with the receiver's private key.
    ///
    /// - Throws: `.envelopeInvalid` for members that are not base64, `.decryptionFailed` for a wrong key or a
    ///   corrupt message.
    public func open(with privateKey: _RSA.Encryption.PrivateKey) throws -> Data {
        guard let wrapped = Data(base64Encoded: symmetricKey), let ciphertext = Data(base64Encoded: message) else {
            throw ConsentSigningError(.envelopeInvalid, "symmetric_key and message must be base64")
        }
        var ivBytes = Data(count: 16)
        if let iv {
            guard let decoded = Data(base64Encoded: iv), decoded.count == 16 else {
                throw ConsentSigningError(.envelopeInvalid, "iv must be the base64 of 16 bytes")
            }
            ivBytes = decoded
        }
        let keyBytes: Data
        do {
            keyBytes = try privateKey.decrypt(wrapped, padding: .PKCS1_OAEP)
        } catch {
            throw ConsentSigningError(.decryptionFailed, "the symmetric key does not open with this private key; use the key named by key_id", cause: error)
        }
        guard [16, 24, 32].contains(keyBytes.count) else {
            throw ConsentSigningError(.decryptionFailed, "the symmetric key has \(keyBytes.count) bytes, not an AES key size")
        }
        return try AESCBC.decrypt(ciphertext, key: SymmetricKey(data: keyBytes), iv: ivBytes)
    }
}
