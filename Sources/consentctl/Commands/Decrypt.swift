import ArgumentParser
import ConsentSigning
import FileBytes
import Foundation

/// `consentctl decrypt --key PRIVATE.pem RECORD_DIR [--out DIR]`: the plaintext copy of an encrypted record.
///
/// Every envelope is opened and checked against the signed manifest before anything is written; the copy is
/// written like a record (each file 0600, a temporary directory renamed into place, never over an existing one)
/// and verifies with `consentctl verify` like a record that was never encrypted.
struct Decrypt: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Decrypt a record stored with recordEncryption into a plaintext record directory.",
        discussion: """
            The copy holds PHI: write it only where the recipient is allowed to keep it. It is checked against the \
            record's signed manifest before it is written. Exit status: 0 written, 1 wrong key, damaged record, \
            existing output or I/O error (nothing is written then). See docs/RECORDS.md.
            """)

    @Option(help: ArgumentHelp("The recipient's RSA private key (PEM, PKCS#1 or PKCS#8).", valueName: "PRIVATE.pem"))
    var key: String

    @Argument(help: ArgumentHelp("An encrypted record directory written by consentd.", valueName: "RECORD_DIR"))
    var record: String

    @Option(help: ArgumentHelp("The plaintext record directory to create; it must not exist. Default: ./<record id>.", valueName: "DIR"))
    var out: String?

    func run() throws {
        let privateKey = try Self.loadPrivateKey(key)
        let source = URL(fileURLWithPath: record)
        do {
            let files = try RecordDecryptor.decrypt(directory: source, with: privateKey)
            let target = URL(fileURLWithPath: out ?? source.standardizedFileURL.lastPathComponent)
            let written = try RecordWriter.write(files: files, to: target)
            print("decrypted \(files.count - 2) files into \(written.path); check it with consentctl verify")
        } catch let error as ConsentSigningError {
            throw CommandFailure(error.description)
        }
    }

    /// Reads an RSA private key PEM; also `verify --private-key`.
    static func loadPrivateKey(_ path: String) throws -> RecordRecipientKey {
        guard let data = try? Data(FileBytes.read(path)), let text = String(data: data, encoding: .utf8) else {
            throw CommandFailure("\(path): cannot read the private key file; check the path and its permissions")
        }
        do {
            return try RecordRecipientKey(pemRepresentation: text)
        } catch {
            throw CommandFailure("\(path): not an RSA private key in PEM form (of at least 2048 bits)")
        }
    }
}
