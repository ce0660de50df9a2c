import FileBytes
import Foundation

/// Opens the biometric data a record keeps only sealed to the examiner's escrow key (`manifest.biometricEscrow`):
/// `consentctl escrow open`.
///
/// The record is verified against its signed manifest first, and every opened file is checked against the
/// plaintext hash the manifest pins (and each 19794-7 file against its signature's binding), so what the examiner
/// receives is provably what was signed. Nothing is written here (`RecordWriter.write(files:to:)` does that).
public enum BiometricEscrow {
    /// - Parameters:
    ///   - escrowKey: the escrow recipient's RSA private key.
    ///   - recordKey: for a record also stored with `recordEncryption`: its recipient's key, which opens the
    ///     outer envelope (`<name>.escrow.enc`) first; nil when the record (or its decrypted copy) is plaintext.
    /// - Returns: `signature.json` and each `signature-<role>.iso19794-7`, as signed.
    /// - Throws: `ConsentSigningError`: `.manifestInvalid` (not intact, or not escrowed), `.decryptionFailed`
    ///   (another key), `.envelopeInvalid`.
    public static func open(
        directory: URL, with escrowKey: RecordRecipientKey, recordKey: RecordRecipientKey? = nil
    ) throws -> [SignedRecord.File] {
        let report = try RecordVerifier.verify(directory: directory, privateKey: recordKey)
        guard let manifest = report.manifest, report.isIntact else {
            let first = report.findings.first.map { ": \($0)" } ?? ""
            throw ConsentSigningError(
                .manifestInvalid, "the record does not match its signed manifest\(first); consentctl verify says what",
                file: directory.path)
        }
        guard let escrow = manifest.biometricEscrow else {
            throw ConsentSigningError(
                .manifestInvalid, "this record keeps its biometric data in plaintext (no biometricEscrow); read it as it is",
                file: directory.path)
        }
        let bound = Dictionary((manifest.signatures ?? []).map { ($0.biometricFile, $0.biometricSHA256) }, uniquingKeysWith: { a, _ in a })
        var files: [SignedRecord.File] = []
        for sealed in escrow.files {
            guard RecordVerifier.isPlainName(sealed.name), RecordVerifier.isPlainName(sealed.plaintext) else {
                throw ConsentSigningError(.manifestInvalid, "the escrow lists a path outside the record", file: directory.path)
            }
            var bytes = try? Data(FileBytes.read(directory.appendingPathComponent(sealed.name).path))
            if bytes == nil, let recordKey,
                let outer = try? Data(FileBytes.read(directory.appendingPathComponent(sealed.name + RecordEncryption.fileSuffix).path))
            {
                bytes = try RecordEncryption.open(outer, with: recordKey)
            }
            guard let bytes else {
                let hint = manifest.encryption == nil ? "" : "; the record is encrypted: pass its recipient key too"
                throw ConsentSigningError(.manifestInvalid, "the sealed \(sealed.plaintext) is missing or unreadable\(hint)", file: directory.path)
            }
            let opened: Data
            do {
                opened = try RecordEncryption.open(bytes, with: escrowKey)
            } catch let error as ConsentSigningError {
                throw ConsentSigningError(error.code, error.message, file: sealed.name, cause: error)
            }
            let hash = RecordManifest.entry(name: sealed.plaintext, contents: opened).sha256
            guard hash == sealed.plaintextSHA256?.lowercased(), bound[sealed.plaintext].map({ $0.lowercased() == hash }) ?? true else {
                throw ConsentSigningError(
                    .manifestInvalid, "\(sealed.plaintext) opens to other contents than the signed manifest pins", file: sealed.name)
            }
            files.append(.init(name: sealed.plaintext, contents: opened))
        }
        return files
    }
}
