import AgentProtocol
import ConsentSigning
import Foundation
import UploadQueue

/// The `recordEncryption` object of the config file: records stored encrypted for a recipient's RSA key. The
/// `biometricEscrow` object has the same shape and key kinds: the biometric data sealed to an examiner's key.
///
/// ```json
/// "recordEncryption": {"recipientPublicKey": "/etc/consentd/recipient.pem", "keyId": "irb-2026"}
/// "biometricEscrow": {"recipientPublicKey": "/etc/consentd/escrow.pem", "keyId": "notary-2026"}
/// ```
/// The key file is read when consentd starts (a PEM public key, or an X.509 certificate as PEM or DER), so a
/// missing or wrong key stops the agent instead of writing plaintext records. Unknown keys are refused by name.
public struct RecordEncryptionSettings: Sendable, Hashable {
    public static let knownKeys: Set<String> = ["recipientPublicKey", "keyId"]

    /// The recipient's RSA public key file (at least 2048 bits).
    public var recipientPublicKey: String
    /// The `key_id` written into every envelope, by which the recipient finds its private key; default "".
    public var keyID: String

    public init(recipientPublicKey: String, keyID: String = "") {
        self.recipientPublicKey = recipientPublicKey
        self.keyID = keyID
    }

    /// Reads the recipient key.
    ///
    /// - Throws: `UploadQueueError` (`.publicKeyUnreadable`, `.invalidPublicKey`) naming the file, or
    ///   `ConsentSigningError.invalidKey`.
    public func load() throws -> RecordEncryption {
        try RecordEncryption(recipientPublicKeyDER: RSAPublicKeyFile.load(path: recipientPublicKey), keyID: keyID)
    }

    static func parse(_ raw: RPCValue, file: String, key name: String = "recordEncryption") throws -> RecordEncryptionSettings {
        func refuse(_ message: String) -> AgentError { AgentError(.invalidConfiguration, "\(file): \(message)") }
        guard case .object(let object) = raw else {
            throw refuse("\"\(name)\" must be an object such as {\"recipientPublicKey\": \"/etc/consentd/recipient.pem\"}")
        }
        if let unknown = object.keys.filter({ !knownKeys.contains($0) }).sorted().first {
            throw refuse("unknown key \"\(name).\(unknown)\"; known keys: \(knownKeys.sorted().joined(separator: ", "))")
        }
        guard case .string(let path)? = object["recipientPublicKey"], !path.isEmpty else {
            throw refuse("\"\(name).recipientPublicKey\" must be the path of the recipient's RSA public key (PEM)")
        }
        var keyID = ""
        if let value = object["keyId"] {
            guard case .string(let text) = value else { throw refuse("\"\(name).keyId\" must be a string") }
            keyID = text
        }
        return RecordEncryptionSettings(recipientPublicKey: path, keyID: keyID)
    }
}
