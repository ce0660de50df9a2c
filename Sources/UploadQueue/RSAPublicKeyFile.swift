import CryptoExtras
import FileBytes
import Foundation

/// Reads the receiver's RSA public key for the C3-PRO envelope from a file: a PEM public key (`PUBLIC KEY` or
/// `RSA PUBLIC KEY`), or an X.509 certificate as PEM or DER (C3 bundles a DER `.crt`).
///
/// The certificate is not validated (no chain, no dates): like C3's `RSAUtility`, it is only a container for the
/// key the operator installed. Its SubjectPublicKeyInfo is found with a minimal DER walk, so no ASN.1 package is
/// needed. The key is kept as SPKI DER because `_RSA.Encryption.PublicKey` is not `Sendable`. Public: consentd reads
/// the `recordEncryption` recipient key with it too.
public enum RSAPublicKeyFile {
    /// - Returns: the key's SubjectPublicKeyInfo DER, checked to load as an RSA key.
    /// - Throws: `.publicKeyUnreadable`, `.invalidPublicKey`.
    public static func load(path: String) throws -> Data {
        guard let contents = try? Data(FileBytes.read(path)) else {
            throw UploadQueueError(.publicKeyUnreadable, "cannot read the upload public key file; check the path and its permissions", file: path)
        }
        let der: Data?
        if let text = String(data: contents, encoding: .utf8), text.contains("-----BEGIN ") {
            if let certificate = pemBody(text, label: "CERTIFICATE") {
                der = subjectPublicKeyInfo(inCertificate: certificate)
            } else {
                der = try? _RSA.Encryption.PublicKey(pemRepresentation: text).derRepresentation
            }
        } else {
            der = subjectPublicKeyInfo(inCertificate: contents) ?? contents
        }
        guard let der, (try? _RSA.Encryption.PublicKey(derRepresentation: der)) != nil else {
            throw UploadQueueError(
                .invalidPublicKey, "the upload public key file holds no RSA public key (PEM key, or PEM/DER certificate) of at least 2048 bits",
                file: path)
        }
        return der
    }

    private static func pemBody(_ text: String, label: String) -> Data? {
        let begin = "-----BEGIN \(label)-----", end = "-----END \(label)-----"
        guard let start = text.range(of: begin), let stop = text.range(of: end, range: start.upperBound..<text.endIndex)
        else { return nil }
        return Data(base64Encoded: String(text[start.upperBound..<stop.lowerBound].filter { !$0.isWhitespace }))
    }

    /// Certificate → tbsCertificate → skip [0] version, serial, signature, issuer, validity, subject → the SPKI.
    static func subjectPublicKeyInfo(inCertificate der: Data) -> Data? {
        let bytes = [UInt8](der)
        guard let certificate = element(bytes, at: 0), certificate.tag == 0x30,
            let tbs = element(bytes, at: certificate.contentStart), tbs.tag == 0x30
        else { return nil }
        var offset = tbs.contentStart
        if let version = element(bytes, at: offset), version.tag == 0xA0 { offset = version.end }
        for expected: UInt8 in [0x02, 0x30, 0x30, 0x30, 0x30] {  // serial, signature, issuer, validity, subject
            guard let field = element(bytes, at: offset), field.tag == expected else { return nil }
            offset = field.end
        }
        guard let spki = element(bytes, at: offset), spki.tag == 0x30, spki.end <= tbs.end else { return nil }
        return Data(bytes[offset..<spki.end])
    }

    /// One DER TLV at `offset`: its tag, where its content starts, and where it ends; nil when it runs off the end.
    private static func element(_ bytes: [UInt8], at offset: Int) -> (tag: UInt8, contentStart: Int, end: Int)? {
        guard offset + 2 <= bytes.count else { return nil }
        let tag = bytes[offset]
        var length = Int(bytes[offset + 1]), start = offset + 2
        if length & 0x80 != 0 {
            let count = length & 0x7F
            guard (1...4).contains(count), start + count <= bytes.count else { return nil }
            length = bytes[start..<start + count].reduce(0) { $0 << 8 | Int($1) }
            start += count
        }
        guard length <= bytes.count - start else { return nil }
        return (tag, start, start + length)
    }
}
