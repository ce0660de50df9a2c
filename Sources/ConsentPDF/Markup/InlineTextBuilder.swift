/// Accumulates the inline content of one paragraph as Pango markup, collapsing whitespace as HTML does.
///
/// Tags are opened and closed through `open`/`close` only, so the markup is always balanced; text goes through
/// `PangoMarkup` escaping. Long paragraphs are cut into chunks of about `chunkBytes` (at a space when there is
/// one), closing and reopening the open tags, because pango's line breaking slows down badly on huge paragraphs.
struct InlineTextBuilder {
    static let defaultChunkBytes = 16 * 1024

    private var markup: [UInt8] = []
    private var plain: [UInt8] = []
    private var links: [InlineText.Link] = []
    /// Open tags as (opening markup, closing markup).
    private var openTags: [(open: String, close: String)] = []
    private var openLink: (start: Int, uri: String)?
    private var chunks: [InlineText] = []
    private var pendingSpace = false
    /// `<br>`s not yet written: written before the next visible text, so leading and trailing ones vanish.
    private var pendingBreaks = 0
    private var atLineStart = true
    private let chunkBytes: Int

    /// `<pre>`: keep spaces and newlines as they are.
    var preservesWhitespace = false

    init(chunkBytes: Int = defaultChunkBytes) {
        self.chunkBytes = chunkBytes
    }

    /// Whether no visible text has been added since the last `take()`.
    var isBlank: Bool { chunks.isEmpty && !plain.contains { !Self.isSpace($0) } }

    mutating func open(_ openMarkup: String, close closeMarkup: String) {
        flushPendingSpace()
        markup += Array(openMarkup.utf8)
        openTags.append((openMarkup, closeMarkup))
    }

    mutating func close() {
        guard let tag = openTags.popLast() else { return }
        markup += Array(tag.close.utf8)
    }

    mutating func beginLink(_ uri: String) {
        endLink()
        flushPendingSpace()
        openLink = (plain.count, uri)
    }

    mutating func endLink() {
        guard let link = openLink else { return }
        if plain.count > link.start { links.append(InlineText.Link(range: link.start..<plain.count, uri: link.uri)) }
        openLink = nil
    }

    mutating func lineBreak() {
        pendingSpace = false
        if !plain.isEmpty { pendingBreaks += 1 }
        atLineStart = true
    }

    /// Adds text, collapsing runs of HTML whitespace to one space (none at the start of a line).
    mutating func appendText(_ text: String) {
        for byte in text.utf8 {
            if PangoMarkup.isRejectedControl(byte) && byte != 0x0D && byte != 0x0C { continue }
            if preservesWhitespace {
                if byte == 0x0A {
                    lineBreak()
                    continue
                }
                if byte == 0x0D || byte == 0x0C { continue }
                appendVisible(byte)
            } else if Self.isSpace(byte) {
                pendingSpace = true
                if plain.count >= chunkBytes { cutChunk() }
            } else {
                // No space in sight: cut anyway, at the start of a UTF-8 sequence.
                if plain.count >= 2 * chunkBytes && byte & 0xC0 != 0x80 { cutChunk() }
                appendVisible(byte)
            }
        }
    }

    /// The paragraph so far, as one or more chunks; the builder starts over with the same tags open.
    mutating func take() -> [InlineText] {
        let rest = finishChunk()
        var result = chunks
        if !rest.isBlank { result.append(rest) }
        chunks = []
        atLineStart = true
        pendingSpace = false
        pendingBreaks = 0
        return result.filter { !$0.isBlank }
    }

    /// Closes every open tag (after `take()` at the end of a block whose inline elements were not closed).
    mutating func reset() {
        openTags = []
        openLink = nil
        markup = []
        plain = []
        links = []
    }

    private mutating func flushPendingSpace() {
        if pendingBreaks > 0 {
            markup += Array(repeating: 0x0A, count: pendingBreaks)
            plain += Array(repeating: 0x0A, count: pendingBreaks)
            pendingBreaks = 0
        } else if pendingSpace && !atLineStart {
            markup.append(0x20)
            plain.append(0x20)
        }
        pendingSpace = false
    }

    private mutating func appendVisible(_ byte: UInt8) {
        flushPendingSpace()
        PangoMarkup.appendEscaped(byte, to: &markup)
        plain.append(byte)
        atLineStart = false
    }

    private mutating func cutChunk() {
        chunks.append(finishChunk())
        atLineStart = true
        pendingSpace = false
        pendingBreaks = 0
    }

    /// Ends the current chunk with its tags closed, and starts the next with them reopened.
    private mutating func finishChunk() -> InlineText {
        var closed = markup
        for tag in openTags.reversed() { closed += Array(tag.close.utf8) }
        var chunkLinks = links
        if let link = openLink, plain.count > link.start {
            chunkLinks.append(InlineText.Link(range: link.start..<plain.count, uri: link.uri))
        }
        let text = InlineText(
            markup: String(decoding: closed, as: UTF8.self), plain: String(decoding: plain, as: UTF8.self),
            links: chunkLinks)
        markup = openTags.flatMap { Array($0.open.utf8) }
        plain = []
        links = []
        if let link = openLink { openLink = (0, link.uri) }
        return text
    }

    private static func isSpace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D || byte == 0x0C
    }
}
