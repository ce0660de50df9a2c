/// What a run of text is, which decides its font and spacing (`StyleSheet`).
enum TextRole: Sendable, Hashable {
    case documentTitle
    /// h1…h6 of section HTML.
    case heading(Int)
    /// A consent section's title.
    case sectionTitle
    case body
    case preformatted
    case tableCell
    case tableHeader
    /// Captions under the signature lines.
    case caption
    /// The printed name in the signature block.
    case signatureValue
    /// The date and time of signing in the signature block (smaller, so the zone fits on one line).
    case signatureDate
    case meaning
    case footer
    /// A reading copy's mark at the head of every page ("NOT SIGNED: FOR READING ONLY"), and the line under it.
    case pageMark
    case pageMarkDetail
}
