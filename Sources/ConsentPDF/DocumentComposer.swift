import ConsentCore
import Foundation

/// Composes the consent as ResearchKit ≥ 2.0 does (docs/C3PRO.md): the document title and each section in the
/// document (title as heading, then its HTML), or the custom review document when configured; then, always, the
/// signature page: a page break, the signature page title and text, and one block per signer. A study with key
/// information (`KeyInformation`) begins with it, under its heading, before all of that.
struct DocumentComposer {
    var study: Study
    var signers: [SignerBlock]
    var signedAt: Date?
    var timeZone: TimeZone
    /// The PDF's own texts, in the study's language.
    var texts: PDFBuiltInTexts
    /// The participant's comprehension check, printed as a short "Understanding" section on the signature page.
    var comprehension: ComprehensionOutcome? = nil
    /// The participant's answers to the optional elements, listed on the signature page (`composeOptional`).
    var optionalAnswers: [OptionalElementAnswer] = []
    /// A reading copy's optional elements: listed as the signed consent lists them, with no box ticked.
    var optionalQuestions: [OptionalElement] = []

    func compose() -> (blocks: [Block], warnings: [String]) {
        let (blocks, warnings) = composeStudy()
        return (blocks + composeSignaturePage(), warnings)
    }

    /// The study's part: the same for every participant of a study document (`StudyLayoutCache.Key`).
    func composeStudy() -> (blocks: [Block], warnings: [String]) {
        var blocks: [Block] = []
        var warnings: [String] = []
        let document = study.document

        if let key = document.keyInformation {
            // 45 CFR 46.116(a)(5)(i): the consent begins with it, set apart from the full document.
            let origin = "key information"
            blocks.append(
                Block(.text(TextBlock(role: .sectionTitle, text: InlineText(study.texts.keyInformationTitle))), origin: origin))
            let (keyBlocks, keyWarnings) = BlockBuilder.blocks(fromHTML: key.htmlContent, origin: origin, loadImage: loadImage)
            blocks += keyBlocks
            warnings += keyWarnings
            blocks.append(Block(.spacer(18), origin: origin))
        }
        if let review = study.reviewHTML {
            let (reviewBlocks, reviewWarnings) = BlockBuilder.blocks(
                fromHTML: review, origin: "review document", loadImage: loadImage)
            blocks += reviewBlocks
            warnings += reviewWarnings
        } else {
            // The study's own title (the Contract's `title` in this language), else the built-in "Consent".
            blocks.append(Block(.text(TextBlock(role: .documentTitle, text: InlineText(study.title))), origin: "title"))
            for (index, section) in document.sections.enumerated() where section.isInDocument {
                let origin = Self.origin(section: section, number: index + 1)
                if let title = section.title, !title.isEmpty {
                    blocks.append(Block(.text(TextBlock(role: .sectionTitle, text: InlineText(title))), origin: origin))
                }
                let (sectionBlocks, sectionWarnings) = BlockBuilder.blocks(
                    fromHTML: section.htmlContent ?? "", origin: origin, loadImage: loadImage)
                blocks += sectionBlocks
                warnings += sectionWarnings
            }
        }
        return (blocks, warnings)
    }

    /// The signature page, on a page of its own: the participant's part.
    func composeSignaturePage() -> [Block] {
        let document = study.document
        var blocks: [Block] = []
        let page = "signature page"
        blocks.append(Block(.pageBreak, origin: page))
        blocks += composeOptional()
        blocks += composeUnderstanding()
        blocks.append(
            Block(.text(TextBlock(role: .sectionTitle, text: InlineText(document.signaturePageTitle))), origin: page))
        blocks.append(
            Block(.text(TextBlock(role: .body, text: InlineText(document.signaturePageContent))), origin: page))
        for signer in signers {
            blocks.append(Block(.signer(signerModel(signer)), origin: page))
        }
        return blocks
    }

    /// "Understanding": each question, the answers given in order, and whether the last was right; then the
    /// staff note when a question was missed on every attempt. Plain text: study texts are never read as markup.
    func composeUnderstanding() -> [Block] {
        guard let comprehension, !comprehension.results.isEmpty else { return [] }
        let check = ComprehensionTexts(language: study.language)
        let origin = "understanding"
        var blocks = [Block(.text(TextBlock(role: .sectionTitle, text: InlineText(check.recordTitle))), origin: origin)]
        for result in comprehension.results {
            let question = result.question
            let given = result.attempts.map { question.choices.indices.contains($0) ? question.choices[$0] : "?" }
            let verdict = result.understood
                ? check.understood(attempt: result.attempts.count) : check.missed(attempts: result.attempts.count)
            blocks.append(
                Block(.text(TextBlock(role: .body, text: InlineText("\(question.index + 1). \(question.question)", wrappedIn: "b"))), origin: origin))
            let answers = "\(check.answersGiven) " + given.map { "\u{201C}\($0)\u{201D}" }.joined(separator: ", ") + ". " + verdict
            blocks.append(Block(.text(TextBlock(role: .body, text: InlineText(answers))), origin: origin))
        }
        if comprehension.flaggedForStaff {
            blocks.append(Block(.text(TextBlock(role: .body, text: InlineText(check.flaggedNote))), origin: origin))
        }
        return blocks
    }

    /// The optional elements under their heading, as the review document lists them: each one's title and
    /// question, then "☒ Yes ☐ No" in the consent's language (`ReviewDocument.checkboxes`). On the signature page,
    /// not in the study's part: the answers are the participant's. Plain text: study texts are never read as markup.
    func composeOptional() -> [Block] {
        let rows = optionalAnswers.map { ($0.element, Optional($0.accepted)) } + optionalQuestions.map { ($0, Bool?.none) }
        guard !rows.isEmpty else { return [] }
        let origin = "optional elements"
        var blocks = [
            Block(.text(TextBlock(role: .sectionTitle, text: InlineText(study.texts.optionalTitle))), origin: origin)
        ]
        for (element, accepted) in rows {
            blocks.append(Block(.text(TextBlock(role: .body, text: InlineText(element.title, wrappedIn: "b"))), origin: origin))
            blocks.append(Block(.text(TextBlock(role: .body, text: InlineText(element.text))), origin: origin))
            blocks.append(
                Block(
                    .text(TextBlock(role: .body, text: InlineText(ReviewDocument.checkboxes(accepted, language: study.language)))),
                    origin: origin))
        }
        blocks.append(Block(.spacer(12), origin: origin))
        return blocks
    }

    /// "section 3 (“Privacy”)": names a section in warnings without quoting its content.
    static func origin(section: ConsentSection, number: Int) -> String {
        if let title = section.title.map(PangoMarkup.clean), !title.isEmpty {
            return "section \(number) (\u{201C}\(title)\u{201D})"
        }
        return "section \(number) (\(section.type.rawValue))"
    }

    func signerModel(_ signer: SignerBlock) -> SignerModel {
        var aspect: Double?
        if let w = signer.strokes?.widthMM, let h = signer.strokes?.heightMM, h > 0 { aspect = w / h }
        let strokes = (signer.strokes?.strokes ?? []).map { stroke in
            stroke.map { StrokeGeometry.Point(x: $0.x, y: $0.y, pressure: $0.p) }
        }
        let hasSigned = signer.printedName != nil || !(signer.strokes?.isEmpty ?? true)
        return SignerModel(
            nameCaption: texts.core.printedNameCaption(role: signer.role),
            signatureCaption: texts.core.signatureCaption(role: signer.role),
            dateCaption: texts.core.dateCaption,
            printedName: signer.printedName,
            strokes: strokes,
            aspectRatio: aspect,
            dateText: hasSigned ? signedAt.map { SigningTime.format($0, in: timeZone, style: texts.dateStyle) } : nil,
            meaning: signer.meaning,
            details: signer.details,
            meaningLabel: texts.meaningLabel)
    }

    // MARK: Images

    /// An image `src`: a `data:image/png;base64,` URI, or one of the images the study read when it loaded
    /// (`Study.assets`, the bytes its version covers). The folder is never read here: a file swapped in after the
    /// version was fixed is not printed. Remote URLs are never fetched, and paths may not leave the study folder.
    func loadImage(_ src: String) -> Result<[UInt8], BlockBuilder.ImageLoadFailure> {
        func fail(_ reason: String) -> Result<[UInt8], BlockBuilder.ImageLoadFailure> {
            .failure(BlockBuilder.ImageLoadFailure(reason: reason))
        }
        let lower = src.lowercased()
        if lower.hasPrefix("data:") {
            guard let comma = src.firstIndex(of: ","),
                src[..<comma].lowercased().hasSuffix(";base64")
            else { return fail("is a data URI that is not base64") }
            guard let data = Data(base64Encoded: String(src[src.index(after: comma)...]), options: .ignoreUnknownCharacters)
            else { return fail("is a data URI whose base64 does not decode") }
            return .success([UInt8](data))
        }
        if lower.contains("://") || lower.hasPrefix("//") {
            return fail("is remote; the renderer never fetches from the network")
        }
        // The same name the UI's sanitizer looks the image up by (HTMLSanitizer): one image per name and language.
        if let asset = study.asset(named: src) { return .success([UInt8](asset.bytes)) }
        let path = src.removingPercentEncoding ?? src
        let folder = study.folder.standardizedFileURL
        guard folder.appendingPathComponent(path).standardizedFileURL.path.hasPrefix(folder.path + "/") else {
            return fail("is outside the study folder")
        }
        return fail("is not in the study folder")
    }
}
