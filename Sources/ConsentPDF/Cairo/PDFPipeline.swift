import ConsentCore
import Foundation

/// Blocks to PDF bytes: measure and paginate (`FlowLayout` over `PangoMeasurer`), draw each page, finish.
enum PDFPipeline {
    struct Output {
        var data: Data
        var pageCount: Int
        var warnings: [String]
    }

    /// Renders the study's part (laid out once per `study` key, `StudyLayoutCache`) followed by the signature page.
    ///
    /// - Parameters:
    ///   - study: What the study's part is made of; `composeStudy` is only called when it is not laid out yet.
    ///   - signaturePage: The participant's part, starting with its page break.
    ///   - pageMark: Printed at the head of every page (a reading copy's "not signed"); nil: nothing is.
    /// - Returns: The PDF; its warnings are composing's, then the layout's, in document order.
    static func render(
        study: StudyLayoutCache.Key, composeStudy: () -> (blocks: [Block], warnings: [String]), signaturePage: [Block],
        metadata: PDFMetadata, zone: TimeZone, shortVersion: String, texts: PDFBuiltInTexts = .english,
        pageMark: PageMark? = nil
    ) throws -> Output {
        // All of it with the font map's lock held: the PDF's fonts are embedded at `finish`, from the map's fonts,
        // and the measurer and its layouts are freed (or kept in the map's cache) before the lock is let go.
        try FontLibrary.withFonts { fontMap, studyLayouts in
            let size = study.paper.size
            let canvas = try PDFCanvas(width: size.width, height: size.height)
            canvas.setMetadata(
                title: metadata.title, subject: metadata.subject, keywords: metadata.keywords, creator: PDFTexts.creator,
                created: metadata.created, zone: zone)
            let geometry = PageGeometry(width: size.width, height: size.height)
            let laidOut = studyLayouts.entry(for: study) {
                let (blocks, warnings) = composeStudy()
                let measurer = PangoMeasurer(cairo: canvas.context, fontMap: fontMap)
                var flow = FlowLayout(geometry: geometry, measurer: measurer)
                flow.place(blocks)
                return StudyLayoutCache.Entry(measurer: measurer, flow: flow, composeWarnings: warnings)
            }
            let measurer = PangoMeasurer(continuing: laidOut.measurer)
            var flow = FlowLayout(continuing: laidOut.flow, measurer: measurer)
            flow.place(signaturePage)
            flow.addFooters { page, count in
                (texts.pageFooter(page: page, of: count), texts.versionFooter(shortVersion))
            }
            if let pageMark { flow.addPageMarks(pageMark) }
            let renderer = PageRenderer(context: canvas.context, measurer: measurer)
            for page in flow.pages {
                renderer.draw(page)
                canvas.showPage()
            }
            let data = try canvas.finish()
            return Output(data: data, pageCount: flow.pages.count, warnings: laidOut.composeWarnings + flow.warnings)
        }
    }
}
