import ConsentCore
import Foundation

/// Renders a study's consent as the participant's PDF copy, with cairo and pango and no browser.
///
/// The document is composed as ResearchKit ≥ 2.0 composes it (docs/C3PRO.md): the title "Consent" and each section
/// in the document (its title as a heading, then its HTML), or the study's custom review document; then, always,
/// the signature page with one block per signer: printed name, the signature drawn as smooth vector strokes, and
/// the date and time of signing with its time zone, each with its caption, and the meaning of the signature
/// (21 CFR 11.50). Pages are A4 or US Letter with 18 pt margins and a "Page n of N" footer that also names the
/// study's short version hash. Fonts are DejaVu, embedded as subsets. The kiosk's own texts (captions, footer,
/// the participant's role and meaning, the date order) are in the study's language (`PDFBuiltInTexts`).
///
/// ```swift
/// let renderer = ConsentPDFRenderer(options: PDFOptions(timeZone: zone, localeIdentifier: "en_US"))
/// let pdf = try renderer.render(
///     study: study, signers: [.participant(printedName: "Zoë Müller", strokes: strokes)], signedAt: now)
/// try pdf.writeAtomically(to: url)   // 0600, temp file + fsync + rename
/// ```
///
/// Rendering is in memory and synchronous (a few milliseconds); renders in one process take turns on one font
/// map (`FontLibrary`), so one renderer can be used from several tasks at once. A study's pages are laid out on
/// its first render and kept for the next (`StudyLayoutCache`): only the signature page is new for each
/// participant. Content problems (malformed HTML, a missing
/// image, markup pango rejects) never fail a render: the text is still shown and `RenderedPDF.warnings` says what
/// happened and where.
public struct ConsentPDFRenderer: Sendable {
    public var options: PDFOptions

    public init(options: PDFOptions = PDFOptions()) {
        self.options = options
    }

    /// Renders the consent with the given signer blocks.
    ///
    /// - Parameters:
    ///   - study: The loaded study.
    ///   - signers: One block per signer, in order (participant first; witness or representative after). Blocks
    ///     without a name or strokes print empty, to be signed on paper.
    ///   - signedAt: The signing instant, printed in `options.timeZone` next to every signer who signed; nil for
    ///     an unsigned document. It is also the PDF's creation date.
    /// - Returns: The PDF bytes, page count and warnings.
    /// - Throws: `ConsentPDFError` with `.invalidSignature` for strokes out of range, `.renderingFailed` when
    ///   cairo fails.
    /// - Parameter comprehension: the participant's comprehension check, printed on the signature page.
    /// - Parameter optionalAnswers: the participant's answers to the optional elements, printed on the signature
    ///   page.
    public func render(
        study: Study, signers: [SignerBlock], signedAt: Date?, comprehension: ComprehensionOutcome? = nil,
        optionalAnswers: [OptionalElementAnswer] = []
    ) throws -> RenderedPDF {
        try render(
            study: study, signers: signers, signedAt: signedAt, comprehension: comprehension,
            optionalAnswers: optionalAnswers, readingCopy: nil)
    }

    private func render(
        study: Study, signers: [SignerBlock], signedAt: Date?, comprehension: ComprehensionOutcome?,
        optionalAnswers: [OptionalElementAnswer], readingCopy: ReadingCopy?
    ) throws -> RenderedPDF {
        for signer in signers {
            do {
                try signer.strokes?.validate()
            } catch let error as ConsentCoreError {
                throw ConsentPDFError(.invalidSignature, "the \(signer.role.lowercased())'s signature: \(error.message)")
            }
        }
        let texts = PDFBuiltInTexts(language: study.language)
        let composer = DocumentComposer(
            study: study, signers: signers, signedAt: signedAt, timeZone: options.timeZone, texts: texts,
            comprehension: comprehension, optionalAnswers: optionalAnswers,
            optionalQuestions: readingCopy == nil ? [] : study.document.optionalElements)
        let isSigned = signedAt != nil && signers.contains { $0.printedName != nil || !($0.strokes?.isEmpty ?? true) }
        let metadata = PDFMetadata(
            title: "\(study.document.title): \(study.id)",
            subject: readingCopy != nil ? texts.readingCopySubject : isSigned ? texts.subject : texts.unsignedSubject,
            keywords: "consent; study \(study.id); study version \(study.version)",
            created: signedAt ?? Date())
        let result = try PDFPipeline.render(
            study: StudyLayoutCache.Key(study: study, paper: options.paper), composeStudy: composer.composeStudy,
            signaturePage: composer.composeSignaturePage(), metadata: metadata, zone: options.timeZone,
            shortVersion: study.shortVersion, texts: texts,
            pageMark: readingCopy.map {
                PageMark(
                    title: texts.readingOnlyMark,
                    detail: texts.readingCopyDetail(shortVersion: study.shortVersion, approvalReference: $0.approvalReference))
            })
        return RenderedPDF(data: result.data, pageCount: result.pageCount, warnings: result.warnings)
    }

    /// The unsigned preview a coordinator proofs before a study goes live: the consent with an empty participant
    /// block.
    public func renderPreview(study: Study) throws -> RenderedPDF {
        try render(study: study, signers: [.participant(in: PDFBuiltInTexts(language: study.language))], signedAt: nil)
    }

    /// The form a participant takes home to read (`copy.printBlank`): the consent as it is signed, key information
    /// first, the optional elements with no box ticked and an empty signature block, every page headed
    /// "NOT SIGNED: FOR READING ONLY" with the study version and the approval it runs under, in the study's
    /// language. No name, no answer, no record: nothing of a participant is on it.
    ///
    /// - Parameter approval: The approval the kiosk verified for this version (`approvalKeys`); nil when it checks
    ///   none, and the pages then name the version only.
    public func renderReadingCopy(study: Study, approval: StudyApprovalBinding?) throws -> RenderedPDF {
        let reference = approval.map { $0.reference ?? "\($0.approved)\u{2013}\($0.expires)" }
        return try render(
            study: study, signers: [.participant(in: PDFBuiltInTexts(language: study.language))], signedAt: nil,
            comprehension: nil, optionalAnswers: [], readingCopy: ReadingCopy(approvalReference: reference))
    }

    /// What makes a render a reading copy: its pages are marked.
    private struct ReadingCopy {
        var approvalReference: String?
    }
}

/// The document information of a rendered PDF.
struct PDFMetadata {
    var title: String
    var subject: String
    var keywords: String
    var created: Date
}
