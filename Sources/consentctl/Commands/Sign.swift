import ArgumentParser
import ConsentCore
import ConsentPDF
import ConsentRecords
import ConsentSigning
import FileBytes
import Foundation
import UploadQueue

/// `consentctl sign STUDY --input SESSION.json -o RECORD_DIR [--stu3]`: signs a consent captured elsewhere,
/// offline, on the agent's own path (ConsentSession replay, then `ConsentRecordComposer`, then `RecordWriter`).
struct Sign: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Sign a consent captured elsewhere and write its record, exactly as the agent would.",
        discussion: """
            SESSION.json holds: answers (booleans in requirement order), shareWidely (bool or null), given, family, \
            strokes (the stroke format), patient (a FHIR Patient or null), deidentify (bool), location (a FHIR \
            Address or null; else --site-address), signedAt (RFC 3339), and when needed passcode, \
            additionalSigners, representative {given, family, relationship} (when one signed for the participant) \
            and witness {given, family, strokes} (when the study requires one), comprehension (when the study asks \
            comprehension questions: per question, the 0-based choices given in order, e.g. [[0, 1], [1], [0]]). Ineligible answers or a missing signature exit 1 and write nothing. See docs/RECORDS.md.
            """)

    @OptionGroup var studyArgument: StudyArgument

    @Option(name: [.customLong("input"), .customShort("i")], help: ArgumentHelp("The captured consent.", valueName: "SESSION.json"))
    var input: String

    @Option(name: [.customLong("output"), .customShort("o")], help: ArgumentHelp("The record directory to create; it must not exist.", valueName: "RECORD_DIR"))
    var output: String

    @Flag(help: "Write the Contract in C3-PRO 2.0's STU3 shape instead of R4.")
    var stu3 = false

    @Option(help: ArgumentHelp("The agent's state directory; the kiosk key is keys/kiosk-ed25519.key there, made on first use.", valueName: "DIR"))
    var stateDir = "./state"

    @Option(help: ArgumentHelp("An existing Ed25519 private key (PEM) to sign the manifest with, instead of the state directory's.", valueName: "FILE"))
    var key: String?

    @Option(help: ArgumentHelp("The kiosk id written into the manifest and the Provenance. Default: the host name.", valueName: "ID"))
    var kioskID: String?

    @Option(help: "The PDF's paper size. Default: from the locale (LC_PAPER, LANG).")
    var paper: PDFOptions.Paper?

    @Option(help: ArgumentHelp("The kiosk's site address (a FHIR Address JSON file), reduced for de-identified records.", valueName: "FILE"))
    var siteAddress: String?

    @Option(help: ArgumentHelp("Seal the biometric data (signature.json and the ISO/IEC 19794-7 files) to this RSA public key (PEM or X.509 certificate): the record keeps no plaintext copy; consentctl escrow open recovers it.", valueName: "PUBLIC.pem"))
    var biometricEscrow: String?

    @Option(help: ArgumentHelp("The key id written into the escrow envelopes (with --biometric-escrow).", valueName: "ID"))
    var biometricEscrowKeyId: String = ""

    func validate() throws {
        if let kioskID, kioskID.isEmpty { throw ValidationError("Please give a non-empty --kiosk-id.") }
    }

    func run() throws {
        let study = try studyArgument.load()
        let session = try failing { try OfflineSession.parse(try read(input, what: "session file")) }
        let outcome = try failing { try session.replay(study: study) }
        let siteLocation = try siteAddress.map { path in
            try failing { try JSONValue.parse(try read(path, what: "site address file")) }
        }
        let hostName = ProcessInfo.processInfo.hostName
        let kioskID = self.kioskID ?? (hostName.isEmpty ? "kiosk" : hostName)
        let kiosk = try failing {
            if let key { return try KioskIdentity.load(id: kioskID, keyFile: URL(fileURLWithPath: key)) }
            return try KioskIdentity.loadOrCreate(id: kioskID, stateDirectory: URL(fileURLWithPath: stateDir))
        }

        let escrow = try biometricEscrow.map { path in
            do {
                return try RecordEncryption(recipientPublicKeyDER: RSAPublicKeyFile.load(path: path), keyID: biometricEscrowKeyId)
            } catch let error as ConsentSigningError {
                throw CommandFailure("\(path): \(error.message)")
            } catch {
                throw CommandFailure("\(path): \(error)")
            }
        }
        // The agent's own composition: signature PNG and consent PDF, then the signed resources and manifest.
        let composer = ConsentRecordComposer(
            signer: ConsentSigner(kiosk: kiosk),
            settings: .init(
                mode: stu3 ? .stu3 : .r4, siteAddress: siteLocation,
                pdf: PDFOptions(paper: paper, localeIdentifier: Preview.localeIdentifier()), biometricEscrow: escrow))
        let composed = try failing {
            try composer.compose(
                outcome: outcome, study: study, patient: session.patient, deidentify: session.deidentify,
                location: session.location, signedAt: session.signedAt, additionalSigners: session.additionalSigners)
        }
        for warning in composed.pdfWarnings { log("consentctl: warning: PDF: \(warning)") }
        let record = composed.record
        let directory = try failing { try RecordWriter.write(record, to: URL(fileURLWithPath: output)) }
        print("signed record \(record.id) written to \(directory.path) (\(record.files.count) files, kiosk \(kiosk.id))")
    }

    private func read(_ path: String, what: String) throws -> Data {
        do {
            return Data(try FileBytes.read(path))
        } catch {
            throw CommandFailure("\(path): cannot read the \(what); check the path and its permissions")
        }
    }

    /// Turns the libraries' typed errors into one-line failures (exit 1); their messages carry no PHI.
    private func failing<T>(_ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch let error as ConsentSigningError {
            throw CommandFailure(error.description)
        } catch let error as ConsentCoreError {
            throw CommandFailure(error.description)
        }
    }
}
