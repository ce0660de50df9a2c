import Foundation
import Testing

@testable import ConsentPDF

@Suite struct UnicodeTests {
    static let samples = [
        "Größe, Straße, Zoë, naïve, café — “quotes” – €100",
        "Ελληνικά: συναίνεση για έρευνα",
        "Русский текст: информированное согласие",
        "עברית: הסכמה מדעת",
    ]

    @Test func accentsGreekCyrillicHebrewRoundTrip() throws {
        let html = Self.samples.map { "<p>\($0)</p>" }.joined()
        let study = try Fixtures.study(sections: [(title: "Languages — Γλώσσες", html: html)])
        let pdf = try ConsentPDFRenderer(options: Fixtures.options).render(
            study: study, signers: [.participant(printedName: "Ζωή Иванова", strokes: Fixtures.strokes())],
            signedAt: Fixtures.signedAt)
        let text = try Poppler.text(pdf.data).normalizedPDFText
        #expect(text.contains("Languages — Γλώσσες"))
        for sample in Self.samples.prefix(3) {
            #expect(text.contains(sample), "\(sample) missing from \(text)")
        }
        // Hebrew is laid out right to left; pdftotext may order the words either way, so check each word.
        for word in Self.samples[3].split(separator: " ") {
            #expect(text.contains(word.trimmingCharacters(in: .punctuationCharacters)), "\(word)")
        }
        #expect(text.contains("Ζωή Иванова"))
        #expect(pdf.warnings.isEmpty, "\(pdf.warnings)")
    }
}
