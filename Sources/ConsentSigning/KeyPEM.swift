import Crypto
import Foundation

/// Ed25519 keys as PEM, written without an ASN.1 library: the DER of an Ed25519 PKCS#8 private key and of its
/// SubjectPublicKeyInfo is a fixed prefix followed by the 32 key bytes (RFC 8410).
public enum KeyPEM {
    private static let privatePrefix: [UInt8] = [
        0x30, 0x2e, 0x02, 0x01, 0x00, 0x30, 0x05, 0x06, 0x03, 0x2b, 0x65, 0x70, 0x04, 0x22, 0x04, 0x20,
    ]
    private static let publicPrefix: [UInt8] = [0x30, 0x2a, 0x30, 0x05, 0x06, 0x03, 0x2b, 0x65, 0x70, 0x03, 0x21, 0x00]

    public static func privateKeyPEM(_ key: Curve25519.Signing.PrivateKey) -> String {
        pem(label: "PRIVATE KEY", der: Data(privatePrefix) + key.rawRepresentation)
    }

    public static func publicKeyPEM(_ key: Curve25519.Signing.PublicKey) -> String {
        pem(label: "PUBLIC KEY", der: Data(publicPrefix) + key.rawRepresentation)
    }

    /// The key's SubjectPublicKeyInfo DER (what an approval key's fingerprint hashes).
    public static func publicKeyDER(_ key: Curve25519.Signing.PublicKey) -> Data {
        Data(publicPrefix) + key.rawRepresentation
    }

    public static func privateKey(fromPEM text: String) -> Curve25519.Signing.PrivateKey? {
        guard let der = der(fromPEM: text, label: "PRIVATE KEY"), der.count == privatePrefix.count + 32,
            der.prefix(privatePrefix.count).elementsEqual(privatePrefix)
        else { return nil }
        return try? Curve25519.Signing.PrivateKey(rawRepresentation: der.suffix(32))
    }

    /// Reads a public key as SPKI PEM, or as the base64 of its 32 raw bytes (the manifest's form).
    public static func publicKey(fromText text: String) -> Curve25519.Signing.PublicKey? {
        if let der = der(fromPEM: text, label: "PUBLIC KEY") {
            guard der.count == publicPrefix.count + 32, der.prefix(publicPrefix.count).elementsEqual(publicPrefix) else {
                return nil
            }
            return try? Curve25519.Signing.PublicKey(rawRepresentation: der.suffix(32))
        }
        guard let raw = Data(base64Encoded: text.trimmingSpaces), raw.count == 32 else { return nil }
        return try? Curve25519.Signing.PublicKey(rawRepresentation: raw)
    }

    private static func pem(label: String, der: Data) -> String {
        "-----BEGIN \(label)-----\n" + der.base64EncodedString(options: [.lineLength64Characters, .endLineWithLineFeed])
            + "\n-----END \(label)-----\n"
    }

    private static func der(fromPEM text: String, label: String) -> Data? {
        let begin = "-----BEGIN \(label)-----", end = "-----END \(label)-----"
        guard let start = text.range(of: begin), let stop = text.range(of: end, range: start.upperBound..<text.endIndex)
        else { return nil }
        let body = text[start.upperBound..<stop.lowerBound].filter { !$0.isWhitespace }
        return Data(base64Encoded: String(body))
    }
}
