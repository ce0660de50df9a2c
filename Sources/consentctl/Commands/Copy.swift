import ArgumentParser
import AuditTrail
import ConsentPDF
import ConsentSigning
import Crypto
import FileBytes
import Foundation

/// `consentctl copy check "<text>" [--records DIR] [--kiosk-key PUBLIC.pem]…`: which record a printed copy's
/// verification mark names, when it was signed, whether that record is intact, and whether a kiosk the clinic
/// trusts signed it, so anyone holding the paper can have it checked against the signed record.
struct Copy: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "The participant's printed copy.", subcommands: [Check.self])

    struct Check: ParsableCommand {
        /// The documented status for an intact record matching the mark whose signing kiosk could not be checked: no
        /// `--kiosk-key`, and no kiosk identity beside the records.
        static let keyNotCheckedExitCode: Int32 = 3

        static let configuration = CommandConfiguration(
            abstract: "Check a printed copy's verification mark (CK1:<record>:<manifest SHA-256>) against its record.",
            discussion: """
                The mark is the QR code on the copy's signature page, or the text printed under it. The record must \
                be the one the mark names (its manifest's record id and SHA-256), intact, and signed by a kiosk key \
                the clinic trusts: each --kiosk-key, or else the kiosk identity of the records' state directory \
                (DIR/../keys/kiosk-ed25519.pub). Exit status: 0 all of that holds; 2 no record matches the mark, the \
                record is another than the mark names, it changed since it was signed, or a key the clinic does not \
                trust signed it; 3 the record matches and is intact, but no trusted kiosk key was given or found, so \
                who signed it is not checked; 1 usage or I/O error.
                """)

        @Argument(help: ArgumentHelp("The mark's text, as the QR code holds it or as printed.", valueName: "TEXT"))
        var text: String

        @Option(help: ArgumentHelp("The records folder (<stateDir>/records).", valueName: "DIR"))
        var records = "./state/records"

        @Option(
            name: .customLong("kiosk-key"),
            help: ArgumentHelp(
                "A kiosk's public key the clinic trusts (PEM, or base64 of the raw 32 bytes; keys/kiosk-ed25519.pub of its state directory); repeatable. Default: the kiosk identity beside --records.",
                valueName: "PUBLIC.pem"))
        var kioskKeys: [String] = []

        func run() throws {
            guard let mark = VerificationMark(text: text) else {
                throw ValidationError("not a verification mark: expected CK1:<record id>:<64 hex digits>")
            }
            let trusted = try trustedKeys()
            let directory = URL(fileURLWithPath: records).appendingPathComponent(mark.recordID)
            let manifestPath = directory.appendingPathComponent(RecordManifest.fileName).path
            guard FileManager.default.fileExists(atPath: directory.path) else {
                print("NO RECORD \(mark.recordID): no record of this id in \(records)")
                throw ExitCode(Verify.mismatchExitCode)
            }
            guard let manifestBytes = try? FileBytes.read(manifestPath, limit: 16 << 20) else {
                print("CHANGED record \(mark.recordID): its manifest is missing or unreadable")
                throw ExitCode(Verify.mismatchExitCode)
            }
            guard AuditDigest(sha256Of: Data(manifestBytes)).hex == mark.manifestSHA256 else {
                print("CHANGED record \(mark.recordID): its manifest is not the one the copy was printed from")
                throw ExitCode(Verify.mismatchExitCode)
            }
            // The folder is found by the mark's id, but the manifest says which record it is: a record copied into
            // another record's folder, or a mark made for it under another id, is not the record the mark names.
            guard let named = try? RecordManifest.decoded(manifestBytes), named.recordID == mark.recordID else {
                print("WRONG RECORD \(mark.recordID): the folder of that id holds another record's manifest; the mark does not name it")
                throw ExitCode(Verify.mismatchExitCode)
            }
            let manifestKey = Data(base64Encoded: named.publicKey.key)
            let pinned = trusted.keys.first { $0.rawRepresentation == manifestKey }
            if !trusted.keys.isEmpty, pinned == nil {
                print("UNTRUSTED record \(mark.recordID): signed by a kiosk key that is not \(trusted.source)")
                throw ExitCode(Verify.mismatchExitCode)
            }
            let report: RecordVerifier.Report
            do { report = try RecordVerifier.verify(directory: directory, pinnedKey: pinned) } catch let error as ConsentSigningError {
                throw CommandFailure(error.description)
            }
            guard report.isIntact, let signed = report.manifest else {
                for finding in report.findings { print("MISMATCH \(finding)") }
                print("CHANGED record \(mark.recordID): it does not match its signed manifest (\(report.findings.count) problem(s))")
                throw ExitCode(Verify.mismatchExitCode)
            }
            guard pinned != nil else {
                print("INTACT record \(signed.recordID): the copy's mark matches and the record is intact, but who signed it is NOT checked")
                print("   no kiosk key is trusted: pass --kiosk-key PUBLIC.pem (keys/kiosk-ed25519.pub of the kiosk's state directory)")
                print("   signed \(signed.signedAt) by kiosk \(signed.kioskID); study \(signed.studyID) version \(signed.studyVersion)")
                throw ExitCode(Self.keyNotCheckedExitCode)
            }
            print("OK record \(signed.recordID): the copy's mark matches; the record is intact and signed by \(trusted.source)")
            print("   signed \(signed.signedAt) by kiosk \(signed.kioskID); study \(signed.studyID) version \(signed.studyVersion)")
        }

        /// The kiosk keys the clinic trusts, and how to name them: the `--kiosk-key` files (each must be a key), or
        /// the state directory's identity beside the records (its public file, or the key itself when only that is
        /// there and readable); none when neither is at hand.
        func trustedKeys() throws -> (keys: [Curve25519.Signing.PublicKey], source: String) {
            if !kioskKeys.isEmpty {
                let keys = try kioskKeys.map { path -> Curve25519.Signing.PublicKey in
                    guard let bytes = try? FileBytes.read(path, limit: 64 * 1024) else {
                        throw CommandFailure("\(path): cannot read the kiosk key file; check the path and its permissions")
                    }
                    guard let text = String(validating: bytes, as: UTF8.self), let key = KeyPEM.publicKey(fromText: text) else {
                        throw CommandFailure("\(path): not an Ed25519 public key (PEM or base64 of 32 bytes)")
                    }
                    return key
                }
                return (keys, keys.count == 1 ? "the --kiosk-key given" : "one of the \(keys.count) --kiosk-key given")
            }
            let state = URL(fileURLWithPath: records).deletingLastPathComponent()
            let publicFile = state.appendingPathComponent(KioskIdentity.publicKeyPathInStateDirectory).path
            if let bytes = try? FileBytes.read(publicFile, limit: 64 * 1024),
                let key = String(validating: bytes, as: UTF8.self).flatMap(KeyPEM.publicKey(fromText:))
            {
                return ([key], "this state directory's kiosk (\(publicFile))")
            }
            let keyFile = StateLayout(root: state.path).kioskKey
            if let bytes = try? FileBytes.read(keyFile, limit: 64 * 1024),
                let key = String(validating: bytes, as: UTF8.self).flatMap(KeyPEM.privateKey(fromPEM:))
            {
                return ([key.publicKey], "this state directory's kiosk (\(keyFile))")
            }
            return ([], "")
        }
    }
}
