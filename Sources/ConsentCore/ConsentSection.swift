/// One consent section, made from one Contract term (docs/C3PRO.md).
public struct ConsentSection: Sendable, Hashable {
    /// The position of the term in `Contract.term` (0-based), so warnings and records can point back to it.
    public var termIndex: Int
    public var type: ConsentSectionType
    /// The title; nil when the ORKConsentSection `title` extension has no `valueString` (C3 then loses even the
    /// default), or for `Custom`/`OnlyInDocument` without a title.
    public var title: String?
    /// `term.text`: shown on the visual scene only, never in the document or the PDF.
    public var summary: String?
    /// The section's HTML ("Learn more" page and document body), from `htmlContent` or `htmlContentFile`.
    public var htmlContent: String?
    /// The name of the `htmlContentFile` the HTML came from, when it came from a file.
    public var htmlContentFile: String?
    /// Custom image asset name (used by UIs for `Custom` sections only).
    public var image: String?
    /// Custom animation base name.
    public var animation: String?

    public init(
        termIndex: Int, type: ConsentSectionType, title: String?, summary: String? = nil, htmlContent: String? = nil,
        htmlContentFile: String? = nil, image: String? = nil, animation: String? = nil
    ) {
        self.termIndex = termIndex
        self.type = type
        self.title = title
        self.summary = summary
        self.htmlContent = htmlContent
        self.htmlContentFile = htmlContentFile
        self.image = image
        self.animation = animation
    }

    /// Whether the section has a scene in the visual consent.
    public var isVisual: Bool { type.isVisual }

    /// Whether the section appears in the review document and the PDF: only when it has non-empty HTML
    /// (C3 never sets plain content, so `omitFromDocument` means "no HTML").
    public var isInDocument: Bool { !(htmlContent ?? "").isEmpty }

    /// The "Learn more" button title of the scene, nil when the section has no HTML to show.
    public var learnMoreTitle: String? { isInDocument ? type.learnMoreTitle : nil }
}
