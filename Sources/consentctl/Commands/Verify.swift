import ArgumentParser
import ConsentSigning
import FileBytes
import Foundation

/// `consentctl verify RECORD_DIR [--key PUBKEY]`: checks a record against its signed manifest.
///
/// Exit status: 0 when every file and the signature match; 2 when anything does not match (each mismatch is
/// printed); 1 for usage and I/O errors (no such directory, unreadable key).
struct Verify: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Check a consent record's files and manifest signature.",
        discussion: "Exit status: 0 intact, 2 something does not match (each mismatch is named), 1 usage or I/O error.")

    /// The documented status for a record that does not match its manifest.
    static let mismatchExitCode: Int32 = 2

    @Argument(help: ArgumentHelp("A record directory written by consentd or consentctl sign.", valueName: "RECORD_DIR"))
    var record: String

    @Option(help: ArgumentHelp("The kiosk's public key (PEM, or base64 of the raw 32 bytes) to pin; default: trust the manifest's key.", valueName: "PUBKEY"))
    var key: String?

    @Option(help: ArgumentHelp("For a record stored with recordEncryption: the recipient's RSA private key, to check what the encrypted files contain too.", valueName: "PRIVATE.pem"))
    var privateKey: String?

    func run() throws {
        let recipientKey = try privateKey.map(Decrypt.loadPrivateKey)
        let pinned = try key.map { path in
            guard let data = try? Data(FileBytes.read(path)) else {
                throw CommandFailure("\(path): cannot read the public key file; check the path and its permissions")
            }
            guard let text = String(data: data, encoding: .utf8), let key = KeyPEM.publicKey(fromText: text) else {
                throw CommandFailure("\(path): not an Ed25519 public key (PEM or base64 of 32 bytes)")
            }
            return key
        }
        let report: RecordVerifier.Report
        do {
            report = try RecordVerifier.verify(directory: URL(fileURLWithPath: record), pinnedKey: pinned, privateKey: recipientKey)
        } catch let error as ConsentSigningError {
            throw CommandFailure(error.description)
        }
        for finding in report.findings {
            print("MISMATCH \(finding)")
        }
        // Each signature's binding to the document it was given on (records before bindings have none).
        for signature in report.signatures {
            print("SIGNATURE \(signature.role): \(signature.status)")
        }
        guard report.isIntact, let manifest = report.manifest else {
            print("record \(record) does NOT match its manifest (\(report.findings.count) problem(s))")
            throw ExitCode(Self.mismatchExitCode)
        }
        print("OK record \(manifest.recordID): \(manifest.files.count) files and the manifest signature match")
        print("   study \(manifest.studyID) version \(manifest.studyVersion), signed \(manifest.signedAt) by kiosk \(manifest.kioskID)")
        if let encryption = manifest.encryption {
            if report.sealedUnchecked.isEmpty {
                print("   encrypted (\(encryption.files.count) files, key id \"\(encryption.keyID)\"): the contents match too")
            } else {
                print("   encrypted (\(encryption.files.count) files, key id \"\(encryption.keyID)\"): the encrypted files match; pass --private-key to check what they contain")
            }
        }
        if !report.keyWasPinned {
            print("   note: the key was taken from the manifest; pass --key to check which kiosk signed")
        }
    }
}
