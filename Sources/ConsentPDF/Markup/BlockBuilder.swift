/// Turns the events of one HTML page into `Block`s: headings, paragraphs, flattened (nested) lists with markers,
/// simple tables and images; inline b/strong/i/em/u/links become Pango markup.
///
/// Unknown elements degrade to their text. Every start event pushes one `Frame` and its end pops it, so the
/// builder's state always unwinds exactly, whatever the nesting.
struct BlockBuilder {
    /// How an image `src` becomes PNG bytes; returns the bytes or a reason (for the warning).
    typealias ImageLoader = (_ src: String) -> Result<[UInt8], ImageLoadFailure>

    struct ImageLoadFailure: Error, Sendable, Hashable {
        var reason: String
    }

    private enum Frame {
        /// A block-level element: its end closes the paragraph.
        case none
        /// An empty element (br, img, hr) or one with nothing to undo.
        case void
        case inlineTag
        case link
        case role
        case list
        case listItem
        case indent
        case center
        case table
        case tableRow
        case tableCell
        /// Inside a table cell: elements that only break the cell's line.
        case cellBlock
    }

    private struct ListContext {
        var ordered: Bool
        var next: Int
        var style: String
    }

    private struct TableState {
        var rows: [[TableBlock.Cell]] = []
        var row: [TableBlock.Cell]?
        var cell: InlineTextBuilder?
        var cellIsHeader = false
    }

    private let origin: String
    private let loadImage: ImageLoader
    private(set) var blocks: [Block] = []
    private(set) var warnings: [String] = []

    private var inline: InlineTextBuilder
    private var frames: [Frame] = []
    private var roles: [TextRole] = [.body]
    private var lists: [ListContext] = []
    private var quoteDepth = 0
    private var centerDepth = 0
    private var pendingMarker: String?
    private var table: TableState?

    init(origin: String, chunkBytes: Int = InlineTextBuilder.defaultChunkBytes, loadImage: @escaping ImageLoader) {
        self.origin = origin
        self.loadImage = loadImage
        self.inline = InlineTextBuilder(chunkBytes: chunkBytes)
    }

    /// Reads `html` and returns its blocks, with a warning when libxml2 had to repair it.
    static func blocks(
        fromHTML html: String, origin: String, loadImage: @escaping ImageLoader
    ) -> (blocks: [Block], warnings: [String]) {
        let read = HTMLReader.read(html)
        var builder = BlockBuilder(origin: origin, loadImage: loadImage)
        if let problem = read.problem {
            let more = read.problemCount > 1 ? " and \(read.problemCount - 1) more problem(s)" : ""
            builder.warnings.append("\(origin): the HTML is malformed (\(problem)\(more)); it is shown as repaired")
        }
        for event in read.events { builder.handle(event) }
        builder.finish()
        return (builder.blocks, builder.warnings)
    }

    mutating func handle(_ event: HTMLEvent) {
        switch event {
        case .start(let name, let attributes):
            frames.append(start(name, attributes))
        case .end:
            end(frames.popLast() ?? .none)
        case .text(let text):
            if table?.cell != nil {
                table?.cell?.appendText(text)
            } else if table != nil {
                return  // whitespace between rows and cells
            } else {
                inline.appendText(text)
            }
        }
    }

    mutating func finish() {
        while let frame = frames.popLast() { end(frame) }
        flush()
    }

    // MARK: Start and end

    private mutating func start(_ name: String, _ attributes: [String: String]) -> Frame {
        if table != nil { return startInTable(name, attributes) }
        if let tag = Self.inlineTags[name] {
            inline.open(tag.open, close: tag.close)
            return .inlineTag
        }
        switch name {
        case "a":
            return Self.startLink(attributes, in: &inline)
        case "br":
            inline.lineBreak()
            return .void
        case "img":
            flush()
            placeImage(attributes)
            return .void
        case "h1", "h2", "h3", "h4", "h5", "h6":
            flush()
            roles.append(.heading(Int(name.dropFirst()) ?? 4))
            return .role
        case "pre":
            flush()
            roles.append(.preformatted)
            inline.preservesWhitespace = true
            return .role
        case "ul", "ol", "menu", "dir":
            flush()
            let start = attributes["start"].flatMap { Int($0.trimmingSpaces) } ?? 1
            lists.append(ListContext(ordered: name == "ol", next: start, style: attributes["type"] ?? ""))
            return .list
        case "li":
            flush()
            pendingMarker = nextMarker(value: attributes["value"].flatMap { Int($0.trimmingSpaces) })
            return .listItem
        case "blockquote", "dd":
            flush()
            quoteDepth += 1
            return .indent
        case "center":
            flush()
            centerDepth += 1
            return .center
        case "table":
            flush()
            table = TableState()
            return .table
        case "hr":
            flush()
            blocks.append(Block(.spacer(10), origin: origin))
            return .void
        case "p", "div", "section", "article", "header", "footer", "main", "nav", "aside", "figure", "figcaption",
            "address", "dl", "dt", "form", "fieldset", "legend", "details", "summary", "caption", "body", "html":
            flush()
            if attributes["align"]?.lowercased() == "center" {
                centerDepth += 1
                return .center
            }
            return .none
        default:
            // Unknown and purely presentational elements (span, font, label, …) degrade to their text.
            inline.open("", close: "")
            return .inlineTag
        }
    }

    private mutating func end(_ frame: Frame) {
        switch frame {
        case .none:
            flush()
        case .void:
            break
        case .inlineTag:
            if table?.cell != nil { table?.cell?.close() } else { inline.close() }
        case .link:
            if table?.cell != nil {
                table?.cell?.endLink()
                table?.cell?.close()
            } else {
                inline.endLink()
                inline.close()
            }
        case .role:
            flush()
            if roles.popLast() == .preformatted { inline.preservesWhitespace = roles.contains(.preformatted) }
            if roles.isEmpty { roles = [.body] }
        case .list:
            flush()
            lists.removeLast()
            if lists.isEmpty { blocks.append(Block(.spacer(6), origin: origin)) }
        case .listItem:
            flush()
            pendingMarker = nil
        case .indent:
            flush()
            quoteDepth -= 1
        case .center:
            flush()
            centerDepth -= 1
        case .table:
            endTable()
        case .tableRow:
            endRow()
        case .tableCell:
            endCell()
        case .cellBlock:
            table?.cell?.lineBreak()
        }
    }

    private static func startLink(_ attributes: [String: String], in builder: inout InlineTextBuilder) -> Frame {
        guard let href = attributes["href"]?.trimmingSpaces, !href.isEmpty else {
            builder.open("", close: "")
            return .inlineTag
        }
        builder.open("<span foreground=\"#1a4f9c\" underline=\"single\">", close: "</span>")
        // Only links a reader can follow become annotations; anchors and scripts stay plain text.
        let lower = href.lowercased()
        if lower.hasPrefix("http://") || lower.hasPrefix("https://") || lower.hasPrefix("mailto:")
            || lower.hasPrefix("tel:")
        {
            builder.beginLink(href)
        }
        return .link
    }

    // MARK: Paragraphs

    /// Ends the current paragraph: its text becomes one or more blocks in the current role and indent.
    private mutating func flush() {
        let chunks = inline.take()
        guard !chunks.isEmpty else { return }
        let role = roles.last ?? .body
        for (index, chunk) in chunks.enumerated() {
            var block = TextBlock(
                role: role, text: chunk, indent: lists.count + quoteDepth,
                marker: index == 0 ? pendingMarker : nil, centered: centerDepth > 0)
            block.isContinuation = index > 0
            blocks.append(Block(.text(block), origin: origin))
        }
        pendingMarker = nil
    }

    private mutating func nextMarker(value: Int?) -> String {
        guard var list = lists.popLast() else { return "•" }
        defer { lists.append(list) }
        guard list.ordered else {
            // WinAnsi characters, so list markers never need a CID font subset of their own.
            return ["•", "–", "·"][lists.count % 3]
        }
        if let value { list.next = value }
        let number = list.next
        list.next += 1
        return ListMarker.ordered(number, style: list.style) + "."
    }

    // MARK: Images

    private mutating func placeImage(_ attributes: [String: String]) {
        let alt = attributes["alt"]
        guard let src = attributes["src"]?.trimmingSpaces, !src.isEmpty else {
            warnings.append("\(origin): an <img> has no src; its description is shown instead")
            appendPlaceholder(alt: alt)
            return
        }
        switch loadImage(src) {
        case .success(let png):
            let block = ImageBlock(
                png: png, alt: alt, width: attributes["width"].flatMap(Self.pixels),
                height: attributes["height"].flatMap(Self.pixels))
            blocks.append(Block(.image(block), origin: origin))
        case .failure(let failure):
            warnings.append("\(origin): image \"\(Self.shortened(src))\" \(failure.reason); its description is shown instead")
            appendPlaceholder(alt: alt)
        }
    }

    private mutating func appendPlaceholder(alt: String?) {
        let text = InlineText(PDFTexts.missingImage(alt: alt), wrappedIn: "i")
        blocks.append(Block(.text(TextBlock(role: .body, text: text, indent: lists.count + quoteDepth)), origin: origin))
    }

    /// "120" or "120px"; percentages and other units are ignored.
    private static func pixels(_ value: String) -> Double? {
        var v = Substring(value.trimmingSpaces.lowercased())
        if v.hasSuffix("px") { v = v.dropLast(2) }
        guard let number = Double(v), number.isFinite, number > 0 else { return nil }
        return number
    }

    /// A `src` for a warning: data URIs are cut short.
    private static func shortened(_ src: String) -> String {
        src.count > 40 ? String(src.prefix(37)) + "…" : src
    }

    // MARK: Tables

    private mutating func startInTable(_ name: String, _ attributes: [String: String]) -> Frame {
        guard var state = table else { return .none }
        defer { table = state }
        if state.cell != nil {
            // Inside a cell: inline formatting stays; blocks and nested tables only break lines.
            if let tag = Self.inlineTags[name] {
                state.cell?.open(tag.open, close: tag.close)
                return .inlineTag
            }
            switch name {
            case "a":
                if var cell = state.cell {
                    let frame = Self.startLink(attributes, in: &cell)
                    state.cell = cell
                    return frame
                }
                return .void
            case "br":
                state.cell?.lineBreak()
                return .void
            case "img":
                state.cell?.appendText(" " + PDFTexts.missingImage(alt: attributes["alt"]) + " ")
                return .void
            case "p", "div", "li", "tr", "ul", "ol", "table", "h1", "h2", "h3", "h4", "h5", "h6", "pre", "blockquote":
                state.cell?.lineBreak()
                return .cellBlock
            case "td", "th":
                state.cell?.appendText(" ")
                return .void
            default:
                state.cell?.open("", close: "")
                return .inlineTag
            }
        }
        switch name {
        case "tr":
            if state.row != nil { rowsAppend(&state) }
            state.row = []
            return .tableRow
        case "td", "th":
            if state.row == nil { state.row = [] }
            state.cell = InlineTextBuilder()
            state.cellIsHeader = name == "th"
            return .tableCell
        default:
            return .void  // thead, tbody, tfoot, colgroup; text outside cells (a caption) is dropped
        }
    }

    private func rowsAppend(_ state: inout TableState) {
        if let row = state.row, !row.isEmpty { state.rows.append(row) }
        state.row = nil
    }

    private mutating func endCell() {
        guard var state = table, var cell = state.cell else { return }
        let text = cell.take().first ?? InlineText("")
        state.row?.append(TableBlock.Cell(text: text, isHeader: state.cellIsHeader))
        state.cell = nil
        table = state
    }

    private mutating func endRow() {
        guard var state = table else { return }
        rowsAppend(&state)
        table = state
    }

    private mutating func endTable() {
        guard var state = table else { return }
        rowsAppend(&state)
        table = nil
        if !state.rows.isEmpty { blocks.append(Block(.table(TableBlock(rows: state.rows)), origin: origin)) }
    }

    // MARK: Inline tags

    /// HTML inline elements and the Pango markup they become.
    static let inlineTags: [String: (open: String, close: String)] = [
        "b": ("<b>", "</b>"), "strong": ("<b>", "</b>"),
        "i": ("<i>", "</i>"), "em": ("<i>", "</i>"), "cite": ("<i>", "</i>"), "var": ("<i>", "</i>"),
        "dfn": ("<i>", "</i>"),
        "u": ("<u>", "</u>"), "ins": ("<u>", "</u>"),
        "s": ("<s>", "</s>"), "strike": ("<s>", "</s>"), "del": ("<s>", "</s>"),
        "code": ("<tt>", "</tt>"), "kbd": ("<tt>", "</tt>"), "samp": ("<tt>", "</tt>"), "tt": ("<tt>", "</tt>"),
        "sub": ("<sub>", "</sub>"), "sup": ("<sup>", "</sup>"),
        "small": ("<small>", "</small>"), "big": ("<big>", "</big>"),
        "mark": ("<span background=\"#fff3a0\">", "</span>"),
    ]
}

extension String {
    /// Without leading and trailing ASCII whitespace (no Foundation in the markup files).
    var trimmingSpaces: String {
        let isSpace: (Character) -> Bool = { $0 == " " || $0 == "\t" || $0 == "\n" || $0 == "\r" || $0 == "\u{0C}" }
        guard let first = firstIndex(where: { !isSpace($0) }), let last = lastIndex(where: { !isSpace($0) }) else {
            return ""
        }
        return String(self[first...last])
    }
}
