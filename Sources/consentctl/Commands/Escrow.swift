import ArgumentParser
import ConsentSigning
import Foundation

/// `consentctl escrow open RECORD --key PRIVATE.pem --out DIR`: the examiner's copy of a record's biometric data
/// sealed to the escrow key (`biometricEscrow`, `consentctl sign --biometric-escrow`).
struct Escrow: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Open the biometric data a record keeps sealed to an escrow key.",
        subcommands: [Open.self])

    struct Open: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Recover signature.json and the ISO/IEC 19794-7 files of an escrowed record into a new folder.",
            discussion: """
                The record is verified against its signed manifest first and every opened file is checked against the \
                hash the manifest pins. The folder holds biometric data (PHI): write it only where the examiner may \
                keep it. A record also stored with recordEncryption needs --record-key too. Exit status: 0 written, \
                1 otherwise (nothing is written). See docs/RECORDS.md.
                """)

        @Argument(help: ArgumentHelp("A record directory with biometricEscrow in its manifest.", valueName: "RECORD"))
        var record: String

        @Option(help: ArgumentHelp("The escrow recipient's RSA private key (PEM, PKCS#1 or PKCS#8).", valueName: "PRIVATE.pem"))
        var key: String

        @Option(help: ArgumentHelp("For a record also stored with recordEncryption: that recipient's RSA private key.", valueName: "PRIVATE.pem"))
        var recordKey: String?

        @Option(help: ArgumentHelp("The folder to create; it must not exist.", valueName: "DIR"))
        var out: String

        func run() throws {
            let escrowKey = try Decrypt.loadPrivateKey(key)
            let outerKey = try recordKey.map(Decrypt.loadPrivateKey)
            do {
                let files = try BiometricEscrow.open(directory: URL(fileURLWithPath: record), with: escrowKey, recordKey: outerKey)
                let written = try RecordWriter.write(files: files, to: URL(fileURLWithPath: out))
                print("opened \(files.map(\.name).joined(separator: ", ")) into \(written.path)")
            } catch let error as ConsentSigningError {
                throw CommandFailure(error.description)
            }
        }
    }
}
