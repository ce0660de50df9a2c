import ConsentCore
import Foundation
import Testing

@testable import ConsentPDF

/// Bad content never fails a render: the text still shows, and a warning names the problem and the section.
@Suite struct BadInputTests {
    func render(_ study: Study) throws -> RenderedPDF {
        try ConsentPDFRenderer(options: Fixtures.options).render(
            study: study, signers: [.participant(printedName: "A B", strokes: Fixtures.strokes())],
            signedAt: Fixtures.signedAt)
    }

    @Test func malformedHTMLIsRepairedAndWarned() throws {
        let html = "<p>First <b>bold <i>both</p><p>Second &amp &nbsp; <unknown>tag</unknown> <<< >>> </div></span>"
        let study = try Fixtures.study(sections: [(title: "Broken", html: html)])
        let pdf = try render(study)
        let text = try Poppler.text(pdf.data).normalizedPDFText
        #expect(text.contains("First bold both"))
        // libxml2 keeps "&amp" without its semicolon as text, as the HTML 4 rules it follows say.
        #expect(text.contains("Second &amp tag <<< >>>"), "\(text)")
        #expect(pdf.warnings.contains { $0.contains("section 1 (“Broken”)") && $0.contains("malformed") }, "\(pdf.warnings)")
    }

    @Test func scriptsAndStylesAreIgnoredAndMarkupLookalikesEscaped() throws {
        let html = """
            <style>p { color: red }</style><script>alert("x")</script>
            <p>Use &lt;b&gt; and <span foreground="red">&lt;/span&gt;</span> &amp; "quotes" 'apostrophes'</p>
            """
        let study = try Fixtures.study(sections: [(title: "Tricky", html: html)])
        let pdf = try render(study)
        let text = try Poppler.text(pdf.data).normalizedPDFText
        #expect(text.contains("Use <b> and </span> & \"quotes\" 'apostrophes'"), "\(text)")
        #expect(!text.contains("alert"))
        #expect(!text.contains("color: red"))
        #expect(pdf.warnings.isEmpty, "\(pdf.warnings)")
    }

    @Test func missingImageShowsItsDescriptionAndWarns() throws {
        let html = #"<p>Before</p><img src="wrist.png" alt="A wrist sensor"><img src="https://example.org/x.png"><p>After</p>"#
        let study = try Fixtures.study(sections: [(title: "Images", html: html)])
        let pdf = try render(study)
        let text = try Poppler.text(pdf.data).normalizedPDFText
        #expect(text.containsInOrder(["Before", "[image: A wrist sensor]", "[image]", "After"]), "\(text)")
        #expect(pdf.warnings.contains { $0.contains("wrist.png") && $0.contains("section 1") && $0.contains("is not in the study folder") })
        #expect(pdf.warnings.contains { $0.contains("remote") })
    }

    @Test func imagesFromTheFolderAndDataURIsAreDrawn() throws {
        let png = try SignaturePNG.render(strokes: Fixtures.strokes(), width: 300, height: 100)
        let html = """
            <p>Folder image:</p><img src="sensor.png" width="200"><p>Inline image:</p>
            <img src="data:image/png;base64,\(png.base64EncodedString())" alt="inline">
            <img src="../outside.png" alt="escape attempt">
            """
        let study = try Fixtures.study(sections: [(title: "Images", html: html)], files: ["sensor.png": png])
        let pdf = try render(study)
        let images = try Poppler.withFile(pdf.data) { try Poppler.run("pdfimages", ["-list", $0]) }
        #expect(images.split(separator: "\n").count - 2 == 2, "\(images) \(pdf.warnings)")
        #expect(pdf.warnings.count == 1 && pdf.warnings[0].contains("outside the study folder"), "\(pdf.warnings)")
    }

    @Test func aCorruptPNGIsReplacedByItsDescription() throws {
        let html = #"<img src="data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAAB" alt="truncated">"#
        let study = try Fixtures.study(sections: [(title: "Corrupt", html: html)])
        let pdf = try render(study)
        #expect(try Poppler.text(pdf.data).contains("[image: truncated]"))
        #expect(pdf.warnings.contains { $0.contains("not a PNG") })
    }

    @Test func tenMegabyteSectionStillRenders() throws {
        let sentence = "Lorem ipsum dolor sit amet, <b>consectetur</b> adipiscing elit & more. "
        let paragraph = "<p>" + String(repeating: sentence, count: 200) + "</p>"
        let html = String(repeating: paragraph, count: 10 * 1024 * 1024 / paragraph.utf8.count + 1)
        #expect(html.utf8.count >= 10 * 1024 * 1024)
        // Study.load refuses files over 8 MB, so the section is put in after loading (as inline htmlContent could).
        var study = try Fixtures.study(sections: [(title: "Huge", html: "<p>placeholder</p>")])
        study.document.sections[0].htmlContent = "<p>START</p>" + html + "<p>THE END</p>"
        let clock = ContinuousClock()
        let start = clock.now
        let pdf = try render(study)
        print("10 MB section: \(pdf.pageCount) pages, \(pdf.data.count) bytes in \(clock.now - start)")
        #expect(pdf.pageCount > 1000)
        let info = try Poppler.info(pdf.data)
        #expect(info["Pages"] == "\(pdf.pageCount)")
        #expect(try Poppler.text(pdf.data, page: 1).contains("START"))
        #expect(try Poppler.text(pdf.data, page: pdf.pageCount - 1).contains("THE END"))
    }

    @Test func oneHugeParagraphIsCutIntoChunks() throws {
        // 1 MB without a single space: pango never sees a paragraph larger than the chunk size.
        var builder = InlineTextBuilder(chunkBytes: 1000)
        builder.open("<b>", close: "</b>")
        builder.appendText(String(repeating: "é", count: 2000))
        let chunks = builder.take()
        #expect(chunks.count == 2)
        #expect(chunks.allSatisfy { $0.markup.hasPrefix("<b>") && $0.markup.hasSuffix("</b>") })
        #expect(chunks.map(\.plain).joined() == String(repeating: "é", count: 2000))
    }

    @Test func markupPangoRejectsFallsBackToPlainTextWithAWarning() throws {
        try FontLibrary.withFontMap { fontMap in
            let canvas = try PDFCanvas(width: 595, height: 842)
            let measurer = PangoMeasurer(cairo: canvas.context, fontMap: fontMap)
            let bad = InlineText(markup: "<b>unclosed <nonsense>tag", plain: "unclosed tag")
            var flow = FlowLayout(geometry: PageGeometry(width: 595, height: 842), measurer: measurer)
            flow.layout([Block(.text(TextBlock(role: .body, text: bad)), origin: "section 9 (“Bad”)")]) { _, _ in ("", "") }
            #expect(flow.warnings.count == 1)
            #expect(flow.warnings.first?.contains("section 9 (“Bad”)") == true)
            #expect(flow.warnings.first?.contains("pango rejected") == true)
            #expect(measurer.layouts.first?.metrics.count == 1)
        }
    }

    @Test func controlCharactersDoNotBreakTheMarkup() throws {
        let study = try Fixtures.study(sections: [(title: "Ctrl\u{1}", html: "<p>Bell\u{7} and null-ish \u{1B}[0m text</p>")])
        let pdf = try render(study)
        let text = try Poppler.text(pdf.data).normalizedPDFText
        #expect(text.contains("Bell and null-ish [0m text"), "\(text)")
        #expect(text.contains("Ctrl"))
        // libxml2 reports the control characters; the warning itself carries none.
        #expect(pdf.warnings.allSatisfy { !$0.contains("\u{1}") }, "\(pdf.warnings)")
    }

    @Test func invalidStrokesAreRefused() throws {
        let bad = SignatureStrokes(strokes: [[StrokePoint(x: 2, y: 0.5, t: 0)]])
        #expect(throws: ConsentPDFError(.invalidSignature, "")) {
            try ConsentPDFRenderer(options: Fixtures.options).render(
                study: try Fixtures.sampleStudy(), signers: [.participant(printedName: "A", strokes: bad)],
                signedAt: Fixtures.signedAt)
        }
    }
}
