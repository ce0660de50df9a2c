import ConsentCore
import Foundation

extension ConsentPDFRenderer {
    /// The review pack's PDF of one language (`consentctl study review`): every screen a participant can reach
    /// (`ReviewScreens`), one after the other, each from a new page: its title, which screen it is and what shapes
    /// it, its words, and the study HTML it shows, laid out as the consent's pages are.
    ///
    /// Deterministic: the same study and screens give the same bytes (a fixed creation date, UTC, no signer), so a
    /// pack made twice is the same pack.
    public func renderReviewScreens(study: Study, screens: [ReviewScreen]) throws -> RenderedPDF {
        let texts = PDFBuiltInTexts(language: study.language)
        let composer = DocumentComposer(
            study: study, signers: [], signedAt: nil, timeZone: Self.reviewZone, texts: texts)
        var key = StudyLayoutCache.Key(study: study, paper: options.paper)
        key.part = .reviewScreens
        let metadata = PDFMetadata(
            title: "\(study.title): \(study.id) (\(study.language))",
            subject: "The screens of study \(study.id) in \(study.language), for review",
            keywords: "consent; review; study \(study.id); study version \(study.version)",
            created: Self.reviewCreated)
        let result = try PDFPipeline.render(
            study: key, composeStudy: { Self.composeScreens(screens, composer: composer) }, signaturePage: [],
            metadata: metadata, zone: Self.reviewZone, shortVersion: study.shortVersion, texts: texts)
        return RenderedPDF(data: result.data, pageCount: result.pageCount, warnings: result.warnings)
    }

    /// A review pack's PDFs carry no moment of their own (the pack is the same whenever it is made).
    static let reviewCreated = Date(timeIntervalSince1970: 0)
    static let reviewZone = TimeZone(identifier: "UTC") ?? TimeZone(secondsFromGMT: 0) ?? .current

    static func composeScreens(_ screens: [ReviewScreen], composer: DocumentComposer) -> (blocks: [Block], warnings: [String]) {
        var blocks: [Block] = []
        var warnings: [String] = []
        for (index, screen) in screens.enumerated() {
            let origin = "screen \(screen.id)"
            if index > 0 { blocks.append(Block(.pageBreak, origin: origin)) }
            blocks.append(Block(.text(TextBlock(role: .sectionTitle, text: InlineText(screen.title))), origin: origin))
            let about =
                ["\(index + 1)/\(screens.count) \(screen.id)"]
                + screen.settings.keys.sorted().map { "\($0): \(screen.settings[$0] ?? "")" }
            blocks.append(Block(.text(TextBlock(role: .caption, text: InlineText(about.joined(separator: " · ")))), origin: origin))
            for line in screen.lines {
                blocks.append(Block(.text(TextBlock(role: .body, text: InlineText(line))), origin: origin))
            }
            for html in screen.html {
                blocks.append(Block(.spacer(12), origin: origin))
                let (htmlBlocks, htmlWarnings) = BlockBuilder.blocks(fromHTML: html, origin: origin, loadImage: composer.loadImage)
                blocks += htmlBlocks
                warnings += htmlWarnings
            }
        }
        return (blocks, warnings)
    }
}
