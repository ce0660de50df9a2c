/// A run of styled text: its Pango markup, the plain text that markup shows, and the links in it.
///
/// The markup is always built by `InlineTextBuilder` from escaped text, so its plain text is known without asking
/// pango; link ranges are UTF-8 byte offsets into `plain`, which are also pango's indices into the laid-out text.
struct InlineText: Sendable, Hashable {
    struct Link: Sendable, Hashable {
        /// UTF-8 byte range in `plain`.
        var range: Range<Int>
        var uri: String
    }

    var markup: String
    var plain: String
    var links: [Link]

    init(markup: String, plain: String, links: [Link] = []) {
        self.markup = markup
        self.plain = plain
        self.links = links
    }

    /// Text shown as is: escaped for Pango.
    init(_ text: String) {
        let clean = PangoMarkup.clean(text)
        self.init(markup: PangoMarkup.escape(clean), plain: clean)
    }

    /// Text shown in one style, e.g. `InlineText("Consent", wrappedIn: "b")`.
    init(_ text: String, wrappedIn tag: String) {
        let clean = PangoMarkup.clean(text)
        self.init(markup: "<\(tag)>\(PangoMarkup.escape(clean))</\(tag)>", plain: clean)
    }

    /// Whether nothing visible would be drawn.
    var isBlank: Bool { plain.allSatisfy(\.isWhitespace) }
}
