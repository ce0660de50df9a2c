import Foundation

/// Blocks to PDF bytes: measure and paginate (`FlowLayout` over `PangoMeasurer`), draw each page, finish.
enum PDFPipeline {
    struct Output {
        var data: Data
        var pageCount: Int
        var warnings: [String]
    }

    static func render(
        blocks: [Block], paper: PDFOptions.Paper, metadata: PDFMetadata, zone: TimeZone, shortVersion: String,
        texts: PDFBuiltInTexts = .english
    ) throws -> Output {
        // All of it with the font map's lock held: the PDF's fonts are embedded at `finish`, from the map's fonts,
        // and the measurer and its layouts are freed before the lock is let go.
        try FontLibrary.withFontMap { fontMap in
            let size = paper.size
            let canvas = try PDFCanvas(width: size.width, height: size.height)
            canvas.setMetadata(
                title: metadata.title, subject: metadata.subject, keywords: metadata.keywords, creator: PDFTexts.creator,
                created: metadata.created, zone: zone)
            let measurer = PangoMeasurer(cairo: canvas.context, fontMap: fontMap)
            var flow = FlowLayout(geometry: PageGeometry(width: size.width, height: size.height), measurer: measurer)
            flow.layout(blocks) { page, count in
                (texts.pageFooter(page: page, of: count), texts.versionFooter(shortVersion))
            }
            let renderer = PageRenderer(context: canvas.context, measurer: measurer)
            for page in flow.pages {
                renderer.draw(page)
                canvas.showPage()
            }
            let data = try canvas.finish()
            return Output(data: data, pageCount: flow.pages.count, warnings: flow.warnings)
        }
    }
}
