import FileBytes
import Foundation

/// Opens an encrypted record (`RecordEncryption`) into a plaintext copy: `consentctl decrypt`.
///
/// Every envelope is opened and checked against the plaintext hash in the signed manifest before anything is
/// written, so a wrong key or a changed file writes nothing. The copy holds the plaintext files with the original
/// `manifest.json` and `manifest.sig`, and verifies like a record that was never encrypted.
public enum RecordDecryptor {
    /// - Returns: the plaintext files, the manifest and its signature, ready for `RecordWriter.write(files:to:)`.
    /// - Throws: `.manifestInvalid` for a directory that is not an encrypted record, `.decryptionFailed` for
    ///   another key, `.envelopeInvalid` or `.manifestInvalid` (naming the file) for damaged files.
    public static func decrypt(directory: URL, with privateKey: RecordRecipientKey) throws -> [SignedRecord.File] {
        let manifestURL = directory.appendingPathComponent(RecordManifest.fileName)
        guard let manifestBytes = try? Data(FileBytes.read(manifestURL.path)),
            let manifest = try? RecordManifest.decoded(manifestBytes)
        else {
            throw ConsentSigningError(.manifestInvalid, "no readable record manifest here; name a record directory", file: manifestURL.path)
        }
        guard let encryption = manifest.encryption else {
            throw ConsentSigningError(.manifestInvalid, "this record is not encrypted; read or verify it as it is", file: directory.path)
        }
        let signature = directory.appendingPathComponent(RecordManifest.signatureFileName)
        guard let signatureBytes = try? Data(FileBytes.read(signature.path)) else {
            throw ConsentSigningError(.manifestInvalid, "manifest.sig is missing or unreadable", file: signature.path)
        }
        let expected = Dictionary(manifest.files.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
        var files: [SignedRecord.File] = []
        for sealed in encryption.files {
            let url = directory.appendingPathComponent(sealed.name)
            guard RecordVerifier.isPlainName(sealed.name), RecordVerifier.isPlainName(sealed.plaintext),
                let bytes = try? Data(FileBytes.read(url.path))
            else {
                throw ConsentSigningError(.manifestInvalid, "an encrypted file the manifest lists is missing or unreadable", file: url.path)
            }
            let opened: Data
            do {
                opened = try RecordEncryption.open(bytes, with: privateKey)
            } catch let error as ConsentSigningError {
                throw ConsentSigningError(error.code, error.message, file: url.path, cause: error)
            }
            guard let entry = expected[sealed.plaintext],
                RecordManifest.entry(name: entry.name, contents: opened).sha256 == entry.sha256.lowercased()
            else {
                throw ConsentSigningError(
                    .manifestInvalid, "decrypts to contents the signed manifest does not list; the record was changed",
                    file: url.path)
            }
            files.append(.init(name: sealed.plaintext, contents: opened))
        }
        // Files the manifest lists but did not encrypt (none today) are copied as they are.
        let sealedNames = Set(encryption.files.map(\.plaintext))
        for entry in manifest.files where !sealedNames.contains(entry.name) && RecordVerifier.isPlainName(entry.name) {
            if let bytes = try? Data(FileBytes.read(directory.appendingPathComponent(entry.name).path)) {
                files.append(.init(name: entry.name, contents: bytes))
            }
        }
        files.append(.init(name: RecordManifest.fileName, contents: manifestBytes))
        files.append(.init(name: RecordManifest.signatureFileName, contents: signatureBytes))
        return files
    }
}
