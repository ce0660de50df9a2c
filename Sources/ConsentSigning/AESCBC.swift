import Crypto
import CryptoExtras
import Foundation

/// AES-CBC with PKCS#7 padding over swift-crypto's `AES._CBC`, with errors in this module's shape.
public enum AESCBC {
    /// - Throws: `.encryptionFailed` for a key of the wrong size or an IV that is not 16 bytes.
    public static func encrypt(_ plaintext: Data, key: SymmetricKey, iv: Data) throws -> Data {
        do {
            return try AES._CBC.encrypt(plaintext, using: key, iv: AES._CBC.IV(ivBytes: iv))
        } catch {
            throw ConsentSigningError(.encryptionFailed, "AES-CBC needs a 16, 24 or 32-byte key and a 16-byte IV", cause: error)
        }
    }

    /// - Throws: `.decryptionFailed` when the ciphertext or its padding is corrupt.
    public static func decrypt(_ ciphertext: Data, key: SymmetricKey, iv: Data) throws -> Data {
        do {
            return try AES._CBC.decrypt(ciphertext, using: key, iv: AES._CBC.IV(ivBytes: iv))
        } catch {
            throw ConsentSigningError(.decryptionFailed, "the message does not decrypt (wrong key, IV or corrupt data)", cause: error)
        }
    }
}
