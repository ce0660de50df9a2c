import ConsentCore
import Foundation
import Testing

@testable import ConsentPDF

/// The review pack's PDF of a language (`renderReviewScreens`): every screen from a new page, its words there, and
/// the same bytes each time (a pack made twice is the same pack).
@Suite struct ReviewScreensPDFTests {
    @Test func everyScreenIsLaidOutAndTheBytesAreTheSameEachTime() throws {
        let study = try #require(try Fixtures.sampleStudy().inLanguage("de"))
        let screens = ReviewScreens.of(study)
        let renderer = ConsentPDFRenderer(options: PDFOptions(paper: .a4))
        let pdf = try renderer.renderReviewScreens(study: study, screens: screens)
        #expect(pdf.pageCount >= screens.count, "each screen starts a page")
        #expect(try renderer.renderReviewScreens(study: study, screens: screens).data == pdf.data)
        let text = try (1...pdf.pageCount).map { try Poppler.text(pdf.data, page: $0) }.joined(separator: "\n")
            .replacing(/\s+/, with: " ")
        for screen in screens {
            #expect(text.contains(screen.title.replacing(/\s+/, with: " ")), "\(screen.id)")
        }
        #expect(text.contains(BuiltInTexts.german.agree))
        // A review render is never taken for the consent's cached layout, nor the other way round.
        let consent = try renderer.renderPreview(study: study)
        #expect(consent.pageCount != pdf.pageCount)
        #expect(try renderer.renderReviewScreens(study: study, screens: screens).data == pdf.data)
        #expect(try Poppler.info(pdf.data)["CreationDate"].map { !$0.isEmpty } ?? true)
    }
}
