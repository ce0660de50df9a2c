import ConsentCore
import Foundation
import Testing

@testable import ConsentPDF

/// The bundled sample study, signed, checked through poppler as an auditor would read it.
@Suite struct SampleStudyPDFTests {
    let study: Study
    let pdf: RenderedPDF

    init() throws {
        study = try Fixtures.sampleStudy()
        pdf = try ConsentPDFRenderer(options: Fixtures.options).render(
            study: study, signers: [.participant(printedName: "Zoë Müller-Østergaard", strokes: Fixtures.strokes())],
            signedAt: Fixtures.signedAt)
    }

    @Test func pageCountAndSizeMatchPdfinfo() throws {
        let info = try Poppler.info(pdf.data)
        #expect(info["Pages"] == "\(pdf.pageCount)")
        #expect(pdf.pageCount >= 2)
        #expect(info["Page size"]?.hasPrefix("595.276 x 841.89 pts") == true)
        #expect(pdf.warnings.isEmpty, "\(pdf.warnings)")
    }

    @Test func metadataNamesTheStudyAndItsVersion() throws {
        let info = try Poppler.info(pdf.data)
        #expect(info["Title"] == "Consent: org.example.heartbeat-sleep.consent")
        #expect(info["Subject"] == "Research consent")
        #expect(info["Creator"] == "consent-kiosk ConsentPDF")
        #expect(info["Keywords"]?.contains(study.version) == true)
        #expect(info["CreationDate"]?.contains("2026") == true)
    }

    @Test func everySectionTitleAndBodyAppearsInOrder() throws {
        let text = try Poppler.text(pdf.data).normalizedPDFText.wordsOnly
        // The heading is the study's own title, not the built-in "Consent".
        #expect(study.title != "Consent")
        var expected = [study.title]
        for section in study.document.documentSections {
            if let title = section.title { expected.append(title) }
            let words = (section.htmlContent ?? "").htmlTextForTest.wordsOnly.split(separator: " ").map(String.init)
            // The start and the end of each section's text, so a dropped or reordered paragraph shows.
            expected.append(words.prefix(6).joined(separator: " "))
            expected.append(words.suffix(6).joined(separator: " "))
        }
        #expect(expected.count == 1 + 8 * 3)
        #expect(text.containsInOrder(expected), "\(text)")
        #expect(text.contains("Study Tasks"), "every section of the lint-clean sample has HTML, so is in the document")
    }

    /// 45 CFR 46.116(a)(5)(i): the PDF begins with the key information, under its heading, before the study's
    /// title and its first section; in each language, under that language's heading.
    @Test(arguments: ["en", "de", "fr", "es"])
    func theDocumentBeginsWithTheKeyInformation(_ language: String) throws {
        let translated = try #require(study.inLanguage(language))
        let rendered = try ConsentPDFRenderer(options: Fixtures.options).render(
            study: translated, signers: [.participant(printedName: "Ada Lovelace", strokes: Fixtures.strokes())],
            signedAt: Fixtures.signedAt)
        #expect(rendered.warnings.isEmpty, "\(rendered.warnings)")
        let first = try Poppler.text(rendered.data, page: 1).normalizedPDFText.wordsOnly
        let key = try #require(translated.document.keyInformation)
        let words = key.htmlContent.htmlTextForTest.wordsOnly.split(separator: " ").map(String.init)
        let section = try #require(translated.document.documentSections.first?.title)
        let heading = translated.texts.keyInformationTitle.wordsOnly
        #expect(first.hasPrefix(heading), "\(first.prefix(200))")
        #expect(
            first.containsInOrder([
                heading, words.prefix(5).joined(separator: " "), words.suffix(5).joined(separator: " "),
                translated.title.wordsOnly, section.wordsOnly,
            ]), "\(first)")
    }

    /// The optional elements with the participant's answers, on the signature page, in each language's words:
    /// under the heading, each element's title and question, then "☒ Yes ☐ No" or "☐ Yes ☒ No".
    @Test(arguments: ["en", "de", "fr", "es"])
    func theSignaturePageListsTheOptionalElementsWithTheirAnswers(_ language: String) throws {
        let translated = try #require(study.inLanguage(language))
        let elements = translated.document.optionalElements
        #expect(elements.count == 2)
        let answers = [
            OptionalElementAnswer(element: elements[0], accepted: true), OptionalElementAnswer(element: elements[1], accepted: false),
        ]
        let rendered = try ConsentPDFRenderer(options: Fixtures.options).render(
            study: translated, signers: [.participant(printedName: "Ada Lovelace", strokes: Fixtures.strokes())],
            signedAt: Fixtures.signedAt, optionalAnswers: answers)
        #expect(rendered.warnings.isEmpty, "\(rendered.warnings)")
        let last = try Poppler.text(rendered.data).normalizedPDFText
        let words = ScreenTexts(language: language)
        let yes = "\u{2612} \(words.yes) \u{2610} \(words.no)", no = "\u{2610} \(words.yes) \u{2612} \(words.no)"
        #expect(
            last.containsInOrder([
                translated.texts.optionalTitle, elements[0].title, yes, elements[1].title, no,
                translated.document.signaturePageTitle,
            ]), "\(last)")
        // Without answers, nothing of it is printed.
        let plain = try Poppler.text(pdf.data, page: pdf.pageCount).normalizedPDFText
        #expect(!plain.contains(BuiltInTexts.english.optionalTitle))
    }

    @Test func signaturePageComesLastWithNameDateAndCaptions() throws {
        let last = try Poppler.text(pdf.data, page: pdf.pageCount).normalizedPDFText
        // Name and date share a line; pdftotext may put either first.
        #expect(last.containsInOrder(["Consent", BuiltInTexts.english.signaturePageContent, "Zoë Müller-Østergaard"]), "\(last)")
        #expect(last.containsInOrder([BuiltInTexts.english.signaturePageContent, "2026-11-22 14:05 CET (UTC+01:00)"]), "\(last)")
        for caption in ["Participant's Name (printed)", "Participant's Signature", "Date"] {
            #expect(last.contains(caption))
        }
        #expect(last.contains(PDFBuiltInTexts.english.participantMeaning))
        // The signature page starts a page of its own (ResearchKit's page-break heading).
        #expect(!last.contains("Compensation and Contacts"))
    }

    @Test func everyPageHasItsFooter() throws {
        let text = try Poppler.text(pdf.data)
        for page in 1...pdf.pageCount {
            #expect(text.contains("Page \(page) of \(pdf.pageCount)"))
        }
        let versions = text.components(separatedBy: "Study version \(study.shortVersion)").count - 1
        #expect(versions == pdf.pageCount)
    }

    @Test func signatureIsDrawnAsVectorCurves() throws {
        let counts = try Poppler.operatorCounts(pdf.data)
        let strokes = Fixtures.strokes()
        // One curve per gap between captured points (the dot is a circle: 4 curves).
        let expected = strokes.strokes.map { max($0.count - 1, 0) }.reduce(0, +)
        #expect(counts.curves >= expected, "curves: \(counts.curves)")
        #expect(counts.moves >= 2)
    }

    @Test func linksBecomeAnnotations() throws {
        let raw = String(decoding: pdf.data, as: UTF8.self)
        #expect(raw.contains("mailto:sleep-study@example.org"))
        #expect(raw.contains("https://example.org/heartbeat-sleep/privacy"))
    }

    @Test func fontsAreEmbeddedDejaVu() throws {
        let fonts = try Poppler.withFile(pdf.data) { try Poppler.run("pdffonts", [$0]) }
        #expect(fonts.contains("DejaVuSerif "))
        #expect(fonts.contains("DejaVuSerif-Bold"))
        #expect(fonts.contains("DejaVuSerif-Italic"))
        for line in fonts.split(separator: "\n").dropFirst(2) {
            #expect(line.contains(" yes "), "not embedded: \(line)")
        }
    }

    @Test func letterPaperFromAUSLocale() throws {
        let options = PDFOptions(timeZone: Fixtures.berlin, localeIdentifier: "en_US")
        #expect(options.paper == .letter)
        let letter = try ConsentPDFRenderer(options: options).render(
            study: study, signers: [.participant(printedName: "A B", strokes: Fixtures.strokes())],
            signedAt: Fixtures.signedAt)
        let info = try Poppler.info(letter.data)
        #expect(info["Page size"]?.hasPrefix("612 x 792 pts") == true)
        #expect(info["Pages"] == "\(letter.pageCount)")
    }

    @Test func previewHasAnEmptySignatureBlock() throws {
        let preview = try ConsentPDFRenderer(options: Fixtures.options).renderPreview(study: study)
        let last = try Poppler.text(preview.data, page: preview.pageCount).normalizedPDFText
        #expect(last.contains("Participant's Signature"))
        #expect(!last.contains("2026-"))
        #expect(try Poppler.info(preview.data)["Subject"] == "Research consent (unsigned preview)")
        let counts = try Poppler.operatorCounts(preview.data)
        #expect(counts.curves < 10, "no signature strokes in a preview")
    }
}

@Suite struct ConcurrentRenderingTests {
    @Test func rendersFromSeveralTasksAtOnce() async throws {
        let study = try Fixtures.sampleStudy()
        let renderer = ConsentPDFRenderer(options: Fixtures.options)
        let sizes = try await withThrowingTaskGroup(of: Int.self) { group in
            for index in 0..<4 {
                group.addTask {
                    try renderer.render(
                        study: study, signers: [.participant(printedName: "Signer \(index)", strokes: Fixtures.strokes())],
                        signedAt: Fixtures.signedAt
                    ).pageCount
                }
            }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        #expect(sizes.count == 4)
        #expect(Set(sizes).count == 1)
    }
}
