import ArgumentParser
import AuditTrail
import ConsentPDF
import ConsentSigning
import FileBytes
import Foundation

/// `consentctl copy check "<text>" [--records DIR]`: which record a printed copy's verification mark names, when it
/// was signed, and whether that record is intact, so anyone holding the paper can have it checked against the
/// signed record.
struct Copy: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "The participant's printed copy.", subcommands: [Check.self])

    struct Check: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Check a printed copy's verification mark (CK1:<record>:<manifest SHA-256>) against its record.",
            discussion: """
                The mark is the QR code on the copy's signature page, or the text printed under it. \
                Exit status: 0 the record exists, matches the mark and is intact; 2 no record matches the mark, or \
                the record changed since it was signed; 1 usage or I/O error.
                """)

        @Argument(help: ArgumentHelp("The mark's text, as the QR code holds it or as printed.", valueName: "TEXT"))
        var text: String

        @Option(help: ArgumentHelp("The records folder (<stateDir>/records).", valueName: "DIR"))
        var records = "./state/records"

        func run() throws {
            guard let mark = VerificationMark(text: text) else {
                throw ValidationError("not a verification mark: expected CK1:<record id>:<64 hex digits>")
            }
            let directory = URL(fileURLWithPath: records).appendingPathComponent(mark.recordID)
            let manifestPath = directory.appendingPathComponent(RecordManifest.fileName).path
            guard FileManager.default.fileExists(atPath: directory.path) else {
                print("NO RECORD \(mark.recordID): no record of this id in \(records)")
                throw ExitCode(Verify.mismatchExitCode)
            }
            guard let manifest = try? Data(FileBytes.read(manifestPath, limit: 16 << 20)) else {
                print("CHANGED record \(mark.recordID): its manifest is missing or unreadable")
                throw ExitCode(Verify.mismatchExitCode)
            }
            guard AuditDigest(sha256Of: manifest).hex == mark.manifestSHA256 else {
                print("CHANGED record \(mark.recordID): its manifest is not the one the copy was printed from")
                throw ExitCode(Verify.mismatchExitCode)
            }
            let report: RecordVerifier.Report
            do { report = try RecordVerifier.verify(directory: directory, pinnedKey: nil) } catch let error as ConsentSigningError {
                throw CommandFailure(error.description)
            }
            guard report.isIntact, let signed = report.manifest else {
                for finding in report.findings { print("MISMATCH \(finding)") }
                print("CHANGED record \(mark.recordID): it does not match its signed manifest (\(report.findings.count) problem(s))")
                throw ExitCode(Verify.mismatchExitCode)
            }
            print("OK record \(signed.recordID): the copy's mark matches; the record is intact")
            print("   signed \(signed.signedAt) by kiosk \(signed.kioskID); study \(signed.studyID) version \(signed.studyVersion)")
        }
    }
}
