/// Fonts, sizes and spacing of the consent: the print rules of ResearchKit's PDF HTML translated to
/// points, with DejaVu named explicitly so fontconfig never substitutes.
///
/// Everything is DejaVu Serif in three faces (regular, bold, italic), like a printed form: each extra face is one
/// more font subset cairo embeds and compresses in every PDF, which is a third of the render time. Scripts
/// DejaVu Serif lacks (Hebrew, Arabic, CJK) fall back through fontconfig to DejaVu Sans or Noto when installed.
enum StyleSheet {
    struct Style: Sendable, Hashable {
        /// A Pango font description string.
        var font: String
        var spaceBefore: Double
        var spaceAfter: Double
        /// Headings stay with the first lines of what follows them.
        var keepWithNext: Bool = false
        var centered: Bool = false
        /// Grey level 0 (black) … 1 (white).
        var grey: Double = 0
    }

    static let serif = "DejaVu Serif"
    static let mono = "DejaVu Sans Mono"

    /// The indent of each list level, in points.
    static let listIndent = 20.0
    /// The gap between a list marker and its text.
    static let markerGap = 5.0

    static func style(for role: TextRole) -> Style {
        switch role {
        case .documentTitle:
            Style(font: "\(serif) Bold 18", spaceBefore: 0, spaceAfter: 12, keepWithNext: true, centered: true)
        case .sectionTitle:
            Style(font: "\(serif) Bold 13", spaceBefore: 14, spaceAfter: 5, keepWithNext: true)
        case .heading(let level):
            switch level {
            // ResearchKit centres h1 and h2.
            case 1: Style(font: "\(serif) Bold 16", spaceBefore: 14, spaceAfter: 6, keepWithNext: true, centered: true)
            case 2: Style(font: "\(serif) Bold 14", spaceBefore: 14, spaceAfter: 5, keepWithNext: true, centered: true)
            case 3: Style(font: "\(serif) Bold 12", spaceBefore: 12, spaceAfter: 4, keepWithNext: true)
            default: Style(font: "\(serif) Bold 10.5", spaceBefore: 10, spaceAfter: 3, keepWithNext: true)
            }
        case .body: Style(font: "\(serif) 11", spaceBefore: 0, spaceAfter: 6)
        case .preformatted: Style(font: "\(mono) 9", spaceBefore: 0, spaceAfter: 6)
        case .tableCell: Style(font: "\(serif) 9.5", spaceBefore: 0, spaceAfter: 0)
        case .tableHeader: Style(font: "\(serif) Bold 9", spaceBefore: 0, spaceAfter: 0)
        case .caption: Style(font: "\(serif) 8.5", spaceBefore: 0, spaceAfter: 0, grey: 0.3)
        case .signatureValue: Style(font: "\(serif) 11", spaceBefore: 0, spaceAfter: 0)
        case .signatureDate: Style(font: "\(serif) 9", spaceBefore: 0, spaceAfter: 0)
        case .meaning: Style(font: "\(serif) 9", spaceBefore: 0, spaceAfter: 0, grey: 0.2)
        case .footer: Style(font: "\(serif) 8", spaceBefore: 0, spaceAfter: 0, grey: 0.4)
        // Black and bold where nothing else is printed: no one takes the page for a signed consent.
        case .pageMark: Style(font: "\(serif) Bold 11", spaceBefore: 0, spaceAfter: 0, centered: true)
        case .pageMarkDetail: Style(font: "\(serif) 8", spaceBefore: 0, spaceAfter: 0, centered: true, grey: 0.2)
        }
    }
}
