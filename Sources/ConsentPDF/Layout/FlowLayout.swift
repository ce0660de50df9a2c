/// Pure pagination: places blocks top to bottom on pages, breaking text between lines.
///
/// Rules: vertical spacing between blocks is the larger of the previous block's `spaceAfter` and the next one's
/// `spaceBefore`, and is dropped at the top of a page; a heading moves to the next page when it and the first line
/// after it do not both fit; images, table rows and signer blocks are never split; an explicit page break starts a
/// new page unless the current one is empty. Everything is measured through `TextMeasuring`, so the same code
/// paginates for cairo and for tests.
struct FlowLayout {
    let geometry: PageGeometry
    private(set) var measurer: any TextMeasuring

    private(set) var pages: [[Placement]] = [[]]
    private(set) var warnings: [String] = []
    private var y: Double
    private var pendingSpace = 0.0
    /// The vertical space a heading wants below it on its page (about two body lines).
    private static let keepWithNextSpace = 28.0

    init(geometry: PageGeometry, measurer: any TextMeasuring) {
        self.geometry = geometry
        self.measurer = measurer
        self.y = geometry.contentTop
    }

    /// The layout so far, continued with another measurer: the pages placed stay as they are (their handles are
    /// the first measurer's), and what is placed from now on is measured by `measurer`. `StudyLayoutCache` keeps a
    /// study's pages this way and continues them with each participant's signature page.
    init(continuing other: FlowLayout, measurer: any TextMeasuring) {
        self = other
        self.measurer = measurer
    }

    /// Lays out the blocks, then adds the footer to every page.
    ///
    /// - Parameter footer: The centred and right-hand footer texts for page n (1-based) of N.
    mutating func layout(_ blocks: [Block], footer: (Int, Int) -> (center: String, right: String)) {
        place(blocks)
        addFooters(footer)
    }

    /// Places the blocks after what is placed already.
    mutating func place(_ blocks: [Block]) {
        for block in blocks { place(block) }
    }

    /// Adds the footer to every page: last, once the page count is known.
    mutating func addFooters(_ footer: (Int, Int) -> (center: String, right: String)) {
        let count = pages.count
        for index in pages.indices { addFooter(footer(index + 1, count), page: index) }
    }

    /// Adds the two centred lines of `mark` in the header band of every page (`PageGeometry.headerBand`, which
    /// nothing else uses): a reading copy says on each page that it is not signed, so no page of it passes for
    /// one of a signed consent.
    mutating func addPageMarks(_ mark: PageMark) {
        let title = measurer.measure(InlineText(mark.title), role: .pageMark, width: width, centered: true)
        let detail = measurer.measure(InlineText(mark.detail), role: .pageMarkDetail, width: width, centered: true)
        for index in pages.indices {
            if !title.lines.isEmpty {
                pages[index].append(
                    .text(handle: title.handle, x: left, lines: [PlacedLine(index: 0, baseline: geometry.markBaseline)], role: .pageMark))
            }
            if !detail.lines.isEmpty {
                pages[index].append(
                    .text(handle: detail.handle, x: left, lines: [PlacedLine(index: 0, baseline: geometry.markDetailBaseline)],
                          role: .pageMarkDetail))
            }
        }
    }

    private var isAtPageTop: Bool { y <= geometry.contentTop }
    private var left: Double { geometry.contentLeft }
    private var width: Double { geometry.contentWidth }

    private mutating func newPage() {
        pages.append([])
        y = geometry.contentTop
        pendingSpace = 0
    }

    private mutating func add(_ placement: Placement) {
        pages[pages.count - 1].append(placement)
    }

    /// For the block extensions: the current position, appending, and moving past a placed block.
    var currentY: Double { y }
    mutating func addPlacement(_ placement: Placement) { add(placement) }
    mutating func advance(to newY: Double, spaceAfter: Double) {
        y = newY
        pendingSpace = spaceAfter
    }

    private mutating func warn(_ message: String) {
        if !warnings.contains(message) { warnings.append(message) }
    }

    /// Applies the spacing before a block (none at the top of a page).
    mutating func openSpace(_ spaceBefore: Double) {
        if !isAtPageTop { y += max(pendingSpace, spaceBefore) }
        pendingSpace = 0
    }

    /// Starts a new page when `height` does not fit below the current position (unless the page is empty).
    mutating func ensureRoom(_ height: Double) {
        if y + height > geometry.contentBottom && !isAtPageTop { newPage() }
    }

    private mutating func place(_ block: Block) {
        switch block.content {
        case .text(let text): placeText(text, origin: block.origin)
        case .image(let image): placeImage(image, origin: block.origin)
        case .table(let table): placeTable(table, origin: block.origin)
        case .signer(let signer): placeSigner(signer)
        case .spacer(let space): pendingSpace = max(pendingSpace, space)
        case .pageBreak: if !(isAtPageTop && pages[pages.count - 1].isEmpty) { newPage() }
        }
    }

    // MARK: Text

    private mutating func placeText(_ block: TextBlock, origin: String) {
        let style = StyleSheet.style(for: block.role)
        let indent = Double(block.indent) * StyleSheet.listIndent
        let measured = measurer.measure(
            block.text, role: block.role, width: width - indent, centered: block.centered || style.centered)
        if measured.markupRejected {
            warn("\(origin): pango rejected the formatting of a paragraph; it is shown as plain text")
        }
        guard !measured.lines.isEmpty else { return }
        if block.isContinuation { pendingSpace = 0 } else { openSpace(style.spaceBefore) }
        if style.keepWithNext {
            ensureRoom(measured.height + Self.keepWithNextSpace)
        }
        var placed: [PlacedLine] = []
        var firstLine: (page: Int, baseline: Double)?
        for (index, line) in measured.lines.enumerated() {
            if y + line.height > geometry.contentBottom && !isAtPageTop {
                if !placed.isEmpty { add(.text(handle: measured.handle, x: left + indent, lines: placed, role: block.role)) }
                placed = []
                newPage()
            }
            placed.append(PlacedLine(index: index, baseline: y + line.baseline))
            if index == 0 { firstLine = (pages.count - 1, y + line.baseline) }
            y += line.height
        }
        if !placed.isEmpty { add(.text(handle: measured.handle, x: left + indent, lines: placed, role: block.role)) }
        if let marker = block.marker, let firstLine {
            placeMarker(marker, role: block.role, textX: left + indent, page: firstLine.page, baseline: firstLine.baseline)
        }
        // List items and the paragraphs inside them sit closer together than body paragraphs.
        pendingSpace = block.indent > 0 && block.role == .body ? 3 : style.spaceAfter
    }

    /// Draws a list marker right-aligned in the hanging indent, on the baseline of the item's first line (which
    /// may be on an earlier page than the current one when the item broke across pages).
    private mutating func placeMarker(_ marker: String, role: TextRole, textX: Double, page: Int, baseline: Double) {
        let measured = measurer.measure(InlineText(marker), role: role, width: StyleSheet.listIndent * 3, centered: false)
        guard let line = measured.lines.first else { return }
        let x = textX - StyleSheet.markerGap - line.width - line.x
        pages[page].append(.text(handle: measured.handle, x: x, lines: [PlacedLine(index: 0, baseline: baseline)], role: role))
    }

    // MARK: Images

    private mutating func placeImage(_ block: ImageBlock, origin: String) {
        guard let image = measurer.measureImage(block.png) else {
            warn("\(origin): an image is not a PNG that can be decoded; its description is shown instead")
            placeText(TextBlock(role: .body, text: InlineText(PDFTexts.missingImage(alt: block.alt))), origin: origin)
            return
        }
        // CSS pixels are 0.75 pt; the attributes win over the image's own size, keeping its shape.
        let aspect = Double(image.pixelWidth) / Double(max(image.pixelHeight, 1))
        var w = block.width ?? block.height.map { $0 * aspect } ?? Double(image.pixelWidth)
        var h = block.height ?? block.width.map { $0 / aspect } ?? Double(image.pixelHeight)
        w *= 0.75
        h *= 0.75
        let scale = min(1, width / w, geometry.contentHeight / h)
        w *= scale
        h *= scale
        openSpace(4)
        ensureRoom(h)
        add(.image(handle: image.handle, rect: Rect(x: left, y: y, width: w, height: h)))
        y += h
        pendingSpace = 6
    }

    // MARK: Tables

    private mutating func placeTable(_ table: TableBlock, origin: String) {
        let columns = table.rows.map(\.count).max() ?? 0
        guard columns > 0 else { return }
        let padding = 3.0
        let columnWidth = width / Double(columns)
        openSpace(4)
        for row in table.rows {
            let cells = row.map { cell in
                measurer.measure(
                    cell.text, role: cell.isHeader ? .tableHeader : .tableCell, width: columnWidth - 2 * padding,
                    centered: false)
            }
            let rowHeight = (cells.map(\.height).max() ?? 0) + 2 * padding
            if rowHeight > geometry.contentHeight {
                // A row taller than a page cannot be drawn whole: show its cells as paragraphs instead.
                warn("\(origin): a table row is taller than a page; its cells are shown as paragraphs")
                for cell in row { placeText(TextBlock(role: .body, text: cell.text), origin: origin) }
                continue
            }
            ensureRoom(rowHeight)
            for (column, measured) in cells.enumerated() {
                let x = left + Double(column) * columnWidth
                add(.frame(Rect(x: x, y: y, width: columnWidth, height: rowHeight)))
                var lineTop = y + padding
                var lines: [PlacedLine] = []
                for (index, line) in measured.lines.enumerated() {
                    lines.append(PlacedLine(index: index, baseline: lineTop + line.baseline))
                    lineTop += line.height
                }
                if !lines.isEmpty {
                    let role: TextRole = row[column].isHeader ? .tableHeader : .tableCell
                    add(.text(handle: measured.handle, x: x + padding, lines: lines, role: role))
                }
            }
            y += rowHeight
        }
        pendingSpace = 8
    }

    // MARK: Footer

    private mutating func addFooter(_ texts: (center: String, right: String), page: Int) {
        let center = measurer.measure(InlineText(texts.center), role: .footer, width: width, centered: true)
        let right = measurer.measure(InlineText(texts.right), role: .footer, width: width, centered: false)
        let baseline = geometry.footerBaseline
        if !center.lines.isEmpty {
            pages[page].append(
                .text(handle: center.handle, x: left, lines: [PlacedLine(index: 0, baseline: baseline)], role: .footer))
        }
        if let line = right.lines.first {
            let x = geometry.contentRight - line.width - line.x
            pages[page].append(
                .text(handle: right.handle, x: x, lines: [PlacedLine(index: 0, baseline: baseline)], role: .footer))
        }
    }
}
