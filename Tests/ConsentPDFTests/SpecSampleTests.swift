import ConsentCore
import Foundation
import Testing

@testable import ConsentPDF

/// The C3-PRO documentation's sample Contract, with a witness block.
@Suite struct SpecSampleTests {
    @Test func sectionsInTermOrderAndWitnessBlock() throws {
        let study = try Fixtures.specStudy()
        let pdf = try ConsentPDFRenderer(options: PDFOptions(paper: .letter, timeZone: TimeZone(identifier: "America/New_York")!))
            .render(
                study: study,
                signers: [
                    .participant(printedName: "Jane Roe", strokes: Fixtures.strokes(pressure: true)),
                    .witness(printedName: "John Doe", strokes: Fixtures.strokes()),
                ],
                signedAt: Fixtures.signedAt)
        #expect(pdf.warnings.isEmpty, "\(pdf.warnings)")
        let text = try Poppler.text(pdf.data).normalizedPDFText
        #expect(
            text.containsInOrder([
                "Consent",
                "Welcome to SleepWell", "SleepWell studies how daily routines affect sleep quality in adults.",
                "Data Gathering", "Your phone records your step count", "while the study app is switched off.",
                "Protecting Your Privacy", "Data leaves your phone encrypted",
                "Wrist Sensor", "The sensor measures movement only.",
                "Withdrawing", "Use “Leave Study” in the Profile tab.",
                "Compensation", "Participants receive a $20 gift card after completing the first month.",
                "Jane Roe", "Participant's Name (printed)", PDFBuiltInTexts.english.participantMeaning,
                "John Doe", "Witness's Name (printed)", "Witness's Signature", PDFBuiltInTexts.english.witnessMeaning,
            ]), "\(text)")
        #expect(text.components(separatedBy: "2026-11-22 08:05 EST (UTC-05:00)").count == 3, "one date per signer")
        // Summaries (term.text) are never printed.
        #expect(!text.contains("This short walkthrough"))
        let info = try Poppler.info(pdf.data)
        #expect(info["Page size"]?.hasPrefix("612 x 792") == true)
        #expect(info["Pages"] == "\(pdf.pageCount)")
        #expect(try Poppler.text(pdf.data, page: 1).contains("Page 1 of \(pdf.pageCount)"))
        // Both signatures are curves; the pressure one is stroked per segment.
        #expect(try Poppler.operatorCounts(pdf.data).curves >= 2 * (59 + 39))
    }

    @Test func reviewDocumentIsFollowedByTheSignaturePage() throws {
        var study = try Fixtures.specStudy()
        study.reviewHTML = "<h1>Our own review</h1><p>Everything in one custom document.</p>"
        let pdf = try ConsentPDFRenderer(options: Fixtures.options).render(
            study: study, signers: [.participant(printedName: "Jane Roe", strokes: Fixtures.strokes())],
            signedAt: Fixtures.signedAt)
        let text = try Poppler.text(pdf.data).normalizedPDFText
        // The RK ≤ 1.5 defect fixed: the custom review document still gets the signature page.
        #expect(text.containsInOrder(["Our own review", "Everything in one custom document.", "Jane Roe", "Participant's Signature"]))
        #expect(!text.contains("Welcome to SleepWell"))
    }
}
