import ConsentCore
import ConsentRecords
import ConsentSigning
import Crypto
import Foundation
import SampleStudy
import Testing

/// A withdrawal's PDF is a short document of its own, not the consent again.
@Suite struct WithdrawalDocumentTests {
    static func text(ofPDF pdf: Data) throws -> String {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("withdrawal-\(UUID().uuidString).pdf")
        try pdf.write(to: url)
        defer { try? FileManager.default.removeItem(at: url) }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/pdftotext")
        process.arguments = ["-layout", url.path, "-"]
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return String(decoding: data, as: UTF8.self)
    }

    @Test func withdrawalPDFNamesWhatIsWithdrawnAndTheReasonOnly() throws {
        let study = try Study.load(from: try #require(SampleStudy.folder))
        let record = "0b7c2f9e-1111-4aaa-8bbb-0123456789ab"
        let outcome = ConsentOutcome(
            studyID: study.id, studyVersion: study.version, eligibilityAnswers: [], shareWidely: nil, givenName: "Zoë",
            familyName: "Müller", signature: ConsentRecordComposerTests.strokes,
            link: RecordLink(
                kind: .withdrawal, recordID: record, reason: "Moving <far> away & back", studyTitle: "Heartbeat",
                signedOn: "2026-09-01"))
        let composer = ConsentRecordComposer(
            signer: ConsentSigner(kiosk: KioskIdentity(id: "kiosk-test", signingKey: Curve25519.Signing.PrivateKey())))
        let consent = ConsentOutcome(
            studyID: study.id, studyVersion: study.version, eligibilityAnswers: [true, true, false, true], shareWidely: true,
            givenName: "Zoë", familyName: "Müller", signature: ConsentRecordComposerTests.strokes)
        let withdrawalPDF = try #require(
            composer.compose(outcome: outcome, study: study, signedAt: ConsentRecordComposerTests.signedAt).record.file("consent.pdf"))
        let consentPDF = try #require(
            composer.compose(outcome: consent, study: study, signedAt: ConsentRecordComposerTests.signedAt).record.file("consent.pdf"))

        let text = try Self.text(ofPDF: withdrawalPDF)
        #expect(text.contains("Withdrawal of Consent"))
        #expect(text.contains("Heartbeat") && text.contains("2026-09-01") && text.contains(record))
        #expect(text.contains("Moving <far> away & back"))
        #expect(text.contains("Zoë Müller"))
        // The consent's own sections are not printed again.
        let consentText = try Self.text(ofPDF: consentPDF)
        let heading = try #require(study.document.documentSections.compactMap(\.title).first)
        #expect(consentText.contains(heading))
        #expect(!text.contains(heading))
        #expect(text.count < consentText.count)
    }
}
