/// The signer block: three columns (printed name, signature, date and time), each a box with its value sitting on
/// a line and a caption under the line, as ResearchKit's signature grid; then the meaning of the
/// signature across the full width. The block is never split across pages.
extension FlowLayout {
    static let signerColumnGap = 14.0
    static let signerBoxHeight = 60.0
    static let signerSpaceBefore = 20.0

    mutating func placeSigner(_ signer: SignerModel) {
        let gap = Self.signerColumnGap
        let boxHeight = Self.signerBoxHeight
        let columnWidth = (geometry.contentWidth - 2 * gap) / 3
        let columnX = (0..<3).map { geometry.contentLeft + Double($0) * (columnWidth + gap) }

        let name = signer.printedName.map {
            measurer.measure(InlineText($0), role: .signatureValue, width: columnWidth, centered: false)
        }
        let date = signer.dateText.map {
            measurer.measure(InlineText($0), role: .signatureDate, width: columnWidth, centered: false)
        }
        let captions = [signer.nameCaption, signer.signatureCaption, signer.dateCaption].map {
            measurer.measure(InlineText($0), role: .caption, width: columnWidth, centered: false)
        }
        let meaningText = InlineText(
            markup: "<b>\(PangoMarkup.escape(signer.meaningLabel))</b> \(PangoMarkup.escape(PangoMarkup.clean(signer.meaning)))",
            plain: signer.meaningLabel + " " + PangoMarkup.clean(signer.meaning))
        let meaning = measurer.measure(meaningText, role: .meaning, width: geometry.contentWidth, centered: false)
        let details = signer.details.map {
            measurer.measure(InlineText(PangoMarkup.clean($0)), role: .meaning, width: geometry.contentWidth, centered: false)
        }
        let detailsHeight = details.map(\.height).reduce(0, +)

        let captionHeight = captions.map(\.height).max() ?? 0
        let total = boxHeight + 2 + captionHeight + 5 + detailsHeight + meaning.height

        openSpace(Self.signerSpaceBefore)
        ensureRoom(total)
        let boxTop = currentY
        let lineY = boxTop + boxHeight

        for (measured, x, role) in [(name, columnX[0], TextRole.signatureValue), (date, columnX[2], .signatureDate)] {
            guard let measured else { continue }
            // Bottom-aligned on the line, as a name written on a form; an overlong value starts at the box top.
            let top = max(boxTop, lineY - 2 - measured.height)
            addLines(measured, x: x, top: top, role: role)
        }
        if !signer.strokes.isEmpty {
            let box = Rect(x: columnX[1], y: boxTop + 2, width: columnWidth, height: boxHeight - 4)
            addPlacement(.strokes(signer.strokes, rect: StrokeGeometry.fit(aspectRatio: signer.aspectRatio, into: box)))
        }
        for (index, caption) in captions.enumerated() {
            addPlacement(.rule(x: columnX[index], y: lineY, width: columnWidth))
            addLines(caption, x: columnX[index], top: lineY + 2, role: .caption)
        }
        var detailTop = lineY + 2 + captionHeight + 5
        for detail in details {
            addLines(detail, x: geometry.contentLeft, top: detailTop, role: .meaning)
            detailTop += detail.height
        }
        addLines(meaning, x: geometry.contentLeft, top: detailTop, role: .meaning)
        advance(to: boxTop + total, spaceAfter: 6)
    }

    private mutating func addLines(_ measured: MeasuredText, x: Double, top: Double, role: TextRole) {
        var lineTop = top
        var lines: [PlacedLine] = []
        for (index, line) in measured.lines.enumerated() {
            lines.append(PlacedLine(index: index, baseline: lineTop + line.baseline))
            lineTop += line.height
        }
        if !lines.isEmpty { addPlacement(.text(handle: measured.handle, x: x, lines: lines, role: role)) }
    }
}
