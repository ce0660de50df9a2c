import ConsentCore
/// The document model between the HTML reader and the page layout: a flat list of blocks in reading order.
///
/// Lists are flattened to text blocks with an indent level and a marker, so pagination never has to recurse.
struct Block: Sendable, Hashable {
    enum Content: Sendable, Hashable {
        case text(TextBlock)
        case image(ImageBlock)
        case table(TableBlock)
        case signer(SignerModel)
        /// Extra vertical space (points), merged with the neighbours' spacing.
        case spacer(Double)
        /// Start a new page unless the current one is empty.
        case pageBreak
    }

    var content: Content
    /// What the block came from, for warnings: "section 3 (“Privacy”)", "review document".
    var origin: String

    init(_ content: Content, origin: String) {
        self.content = content
        self.origin = origin
    }
}

/// A paragraph, heading or list item.
struct TextBlock: Sendable, Hashable {
    var role: TextRole
    var text: InlineText
    /// List nesting depth: 0 for ordinary text; each level indents by `StyleSheet.listIndent`.
    var indent: Int = 0
    /// The list marker ("•", "2.") drawn in the hanging indent before the first line.
    var marker: String? = nil
    var centered: Bool = false
    /// The rest of a paragraph that was cut for size: no spacing before it.
    var isContinuation: Bool = false
}

/// A PNG image, already read from the study folder or a `data:` URI.
struct ImageBlock: Sendable, Hashable {
    var png: [UInt8]
    var alt: String?
    /// The `width`/`height` attributes, in CSS pixels, when given.
    var width: Double?
    var height: Double?
}

/// A simple table: rows of cells, no spans.
struct TableBlock: Sendable, Hashable {
    struct Cell: Sendable, Hashable {
        var text: InlineText
        var isHeader: Bool
    }
    var rows: [[Cell]]
}

/// One signer's block, with the texts already formatted.
struct SignerModel: Sendable, Hashable {
    var nameCaption: String
    var signatureCaption: String
    var dateCaption: String
    var printedName: String?
    var strokes: [[StrokeGeometry.Point]]
    /// The signing area's width / height, when known, so the signature keeps its shape.
    var aspectRatio: Double?
    var dateText: String?
    var meaning: String
    /// Lines between the captions and the meaning (a representative's relationship and participant).
    var details: [String] = []
    /// "Meaning of this signature:", in the document's language.
    var meaningLabel: String = PDFBuiltInTexts.english.meaningLabel
}
