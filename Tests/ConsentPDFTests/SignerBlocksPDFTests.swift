import ConsentCore
import Foundation
import Testing

@testable import ConsentPDF

/// A representative's and a witness's blocks on the signature page, read back through poppler.
@Suite struct SignerBlocksPDFTests {
    @Test func representativeAndWitnessEachHaveABlock() throws {
        let study = try Fixtures.sampleStudy()
        let pdf = try ConsentPDFRenderer(options: Fixtures.options).render(
            study: study,
            signers: [
                .representative(
                    printedName: "Anne Milbanke", strokes: Fixtures.strokes(), relationship: "Parent",
                    participant: "Ada Lovelace"),
                .witness(printedName: "Grace Hopper", strokes: Fixtures.strokes()),
            ],
            signedAt: Fixtures.signedAt)
        let last = try Poppler.text(pdf.data, page: pdf.pageCount).normalizedPDFText
        // Block by block: name, captions, relationship and participant, meaning; then the witness's.
        #expect(last.containsInOrder([
            BuiltInTexts.english.signaturePageContent, "Anne Milbanke", "Legally Authorized Representative's Name (printed)",
            "Legally Authorized Representative's Signature", "\(PDFBuiltInTexts.english.relationshipCaption) Parent",
            "\(PDFBuiltInTexts.english.onBehalfOfCaption) Ada Lovelace", PDFBuiltInTexts.english.representativeMeaning, "Grace Hopper",
            "Witness's Name (printed)", "Witness's Signature", PDFBuiltInTexts.english.witnessMeaning,
        ]), "\(last)")
        // Each block dates its signature.
        #expect(last.components(separatedBy: "2026-11-22 14:05").count - 1 == 2, "\(last)")
        #expect(!last.contains("Participant's Signature"))
        // Both signatures are drawn.
        let counts = try Poppler.operatorCounts(pdf.data)
        let perSignature = Fixtures.strokes().strokes.map { max($0.count - 1, 0) }.reduce(0, +)
        #expect(counts.curves >= 2 * perSignature, "curves: \(counts.curves)")
    }
}
