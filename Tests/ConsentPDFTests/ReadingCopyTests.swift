import ConsentCore
import Foundation
import Testing

@testable import ConsentPDF

/// The form a participant takes home (`renderReadingCopy`, `copy.printBlank`): every page says it is not signed,
/// with the study version and the approval, in the form's language; nothing of a participant is on it.
@Suite struct ReadingCopyTests {
    static let approval = StudyApprovalBinding(
        sha256: String(repeating: "a", count: 64), keyFingerprint: "SHA256:x", approved: "2026-01-01",
        expires: "2027-06-30", reference: "IRB #2026-0042")

    static func pages(_ pdf: RenderedPDF) throws -> [String] {
        try (1...pdf.pageCount).map { try Poppler.text(pdf.data, page: $0).replacing(/\s+/, with: " ") }
    }

    @Test func everyPageIsMarkedWithTheVersionAndTheApproval() throws {
        let study = try Fixtures.sampleStudy()
        let pdf = try ConsentPDFRenderer(options: Fixtures.options).renderReadingCopy(study: study, approval: Self.approval)
        #expect(pdf.pageCount >= 2)
        #expect(pdf.warnings.isEmpty, "\(pdf.warnings)")
        for (index, page) in try Self.pages(pdf).enumerated() {
            // The mark heads the page, before anything of the consent.
            #expect(page.trimmingCharacters(in: .whitespaces).hasPrefix("NOT SIGNED: FOR READING ONLY"), "page \(index + 1): \(page.prefix(120))")
            #expect(page.contains("Study version \(study.shortVersion) \u{00B7} IRB approval IRB #2026-0042"), "page \(index + 1)")
        }
        #expect(try Poppler.info(pdf.data)["Subject"] == "Research consent (not signed, for reading only)")
    }

    @Test func theOptionalElementsAreListedWithNoBoxTickedAndTheSignatureBlockIsEmpty() throws {
        let study = try Fixtures.sampleStudy()
        #expect(study.document.optionalElements.count == 2)
        let pdf = try ConsentPDFRenderer(options: Fixtures.options).renderReadingCopy(study: study, approval: nil)
        let text = try Self.pages(pdf).joined(separator: " ")
        for element in study.document.optionalElements {
            #expect(text.contains(element.title), "\(element.id)")
        }
        #expect(text.components(separatedBy: "\u{2610} Yes \u{2610} No").count - 1 == study.document.optionalElements.count, "\(text)")
        #expect(!text.contains("\u{2612}"))
        #expect(text.contains("Participant's Signature"))
        // No approval checked: the version alone, and no date of signing.
        #expect(!text.contains("IRB approval"))
        #expect(!text.contains("2026-"))
        #expect(try Poppler.operatorCounts(pdf.data).curves < 10, "no signature strokes")
    }

    @Test func theMarkIsInTheFormsLanguageAndAnApprovalWithoutReferenceNamesItsDays() throws {
        let study = try #require(try Fixtures.sampleStudy().inLanguage("de"))
        var approval = Self.approval
        approval.reference = nil
        let pdf = try ConsentPDFRenderer(options: Fixtures.options).renderReadingCopy(study: study, approval: approval)
        for page in try Self.pages(pdf) {
            #expect(page.contains("NICHT UNTERSCHRIEBEN: NUR ZUM LESEN"))
            #expect(page.contains("Studienversion \(study.shortVersion) \u{00B7} Ethikvotum 2026-01-01\u{2013}2027-06-30"), "\(page.prefix(200))")
            #expect(!page.contains("NOT SIGNED"))
        }
        #expect(try Poppler.info(pdf.data)["Subject"] == PDFBuiltInTexts.german.readingCopySubject)
    }

    @Test func aSignedConsentCarriesNoMark() throws {
        let study = try Fixtures.sampleStudy()
        let signed = try ConsentPDFRenderer(options: Fixtures.options).render(
            study: study, signers: [.participant(printedName: "A B", strokes: Fixtures.strokes())], signedAt: Fixtures.signedAt)
        #expect(!(try Poppler.text(signed.data)).contains("FOR READING ONLY"))
    }
}
