import ConsentCore
import Foundation
import Testing

@testable import ConsentPDF

/// The sample study's German and French consents as PDFs, read back with pdftotext.
@Suite struct LanguagePDFTests {
    static func study(_ tag: String) throws -> Study {
        try #require(try Fixtures.sampleStudy().inLanguage(tag))
    }

    @Test func germanPDFIsGermanThroughout() throws {
        let study = try Self.study("de")
        let texts = PDFBuiltInTexts.german
        let pdf = try ConsentPDFRenderer(options: Fixtures.options).render(
            study: study, signers: [.participant(printedName: "Jürgen Weiß", strokes: Fixtures.strokes(), in: texts)],
            signedAt: Fixtures.signedAt)
        #expect(pdf.warnings.isEmpty, "\(pdf.warnings)")
        let text = try Poppler.text(pdf.data).replacing(/\s+/, with: " ")
        #expect(text.containsInOrder([
            study.title, "Willkommen bei Heartbeat & Sleep", "Datenerhebung", "Schutz Ihrer Privatsphäre",
        ]), "\(text)")
        for page in 1...pdf.pageCount {
            #expect(text.contains("Seite \(page) von \(pdf.pageCount)"))
        }
        #expect(text.contains("Studienversion \(study.shortVersion)"))

        let last = try Poppler.text(pdf.data, page: pdf.pageCount).replacing(/\s+/, with: " ")
        #expect(last.contains(BuiltInTexts.german.signaturePageContent), "\(last)")
        for caption in [
            "Name in Druckschrift (Teilnehmer/in)", "Unterschrift (Teilnehmer/in)", "Datum", "Jürgen Weiß",
            "Bedeutung dieser Unterschrift:", texts.participantMeaning,
        ] {
            #expect(last.contains(caption), "\(caption)")
        }
        // The date in German order; zone and offset as in every language.
        #expect(last.contains("22.11.2026 14:05 CET (UTC+01:00)"), "\(last)")
        for english in ["Participant", "Signature", "Page 1 of", "Study version", "2026-11-22"] {
            #expect(!text.contains(english), "\(english)")
        }
        let info = try Poppler.info(pdf.data)
        #expect(info["Subject"] == texts.subject)
    }

    @Test func spanishPDFIsSpanishThroughout() throws {
        let study = try Self.study("es")
        let texts = PDFBuiltInTexts(language: "es")
        #expect(texts.language == "es")
        let pdf = try ConsentPDFRenderer(options: Fixtures.options).render(
            study: study, signers: [.participant(printedName: "José Núñez Peña", strokes: Fixtures.strokes(), in: texts)],
            signedAt: Fixtures.signedAt)
        #expect(pdf.warnings.isEmpty, "\(pdf.warnings)")
        let text = try Poppler.text(pdf.data).replacing(/\s+/, with: " ")
        #expect(text.containsInOrder([
            "Estudio Heartbeat & Sleep", "Bienvenido a Heartbeat & Sleep", "Recogida de datos", "Protección de su privacidad",
        ]), "\(text)")
        for page in 1...pdf.pageCount {
            #expect(text.contains("Página \(page) de \(pdf.pageCount)"))
        }
        #expect(text.contains("Versión del estudio \(study.shortVersion)"))

        let last = try Poppler.text(pdf.data, page: pdf.pageCount).replacing(/\s+/, with: " ")
        #expect(last.contains(BuiltInTexts(language: "es").signaturePageContent), "\(last)")
        for caption in [
            "Nombre en letra de imprenta (Participante)", "Firma (Participante)", "Fecha", "José Núñez Peña",
            "Significado de esta firma:", texts.participantMeaning,
        ] {
            #expect(last.contains(caption), "\(caption)")
        }
        // The date in Spanish order (day/month/year); zone and offset as in every language.
        #expect(last.contains("22/11/2026 14:05 CET (UTC+01:00)"), "\(last)")
        for english in ["Participant's", "Signature", "Page 1 of", "Study version", "2026-11-22"] {
            #expect(!text.contains(english), "\(english)")
        }
        #expect(try Poppler.info(pdf.data)["Subject"] == "Consentimiento para la investigación")
    }

    @Test func frenchPreviewUsesFrenchCaptionsAndDateOrder() throws {
        let study = try Self.study("fr")
        let preview = try ConsentPDFRenderer(options: Fixtures.options).renderPreview(study: study)
        let text = try Poppler.text(preview.data).replacing(/\s+/, with: " ")
        // The key information comes first, under its French heading; then the French Contract's own title.
        #expect(text.hasPrefix("Informations clés "), "\(text.prefix(200))")
        #expect(text.contains(" \(study.title) ") && study.title.hasPrefix("Étude"))
        #expect(text.contains("Signature (Participant(e))"))
        #expect(text.contains("Page 1 sur \(preview.pageCount)"))
        #expect(try Poppler.info(preview.data)["Subject"] == PDFBuiltInTexts.french.unsignedSubject)
        #expect(SigningTime.localDateTime(Fixtures.signedAt, in: Fixtures.berlin, style: .dayMonthYearSlashes) == "22/11/2026 14:05")
    }

    @Test func unknownLanguagesPrintInEnglish() {
        #expect(PDFBuiltInTexts(language: "it") == .english)
        #expect(PDFBuiltInTexts(language: "de-AT") == .german)
        #expect(PDFBuiltInTexts.english.pageFooter(page: 2, of: 3) == "Page 2 of 3")
        #expect(PDFBuiltInTexts.english.versionFooter("abc") == "Study version abc")
    }
}
