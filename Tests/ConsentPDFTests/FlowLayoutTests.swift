import Testing

@testable import ConsentPDF

/// A measurer for pure layout tests: every line is 10 pt high and holds 50 characters; paragraphs break at "\n".
final class FakeMeasurer: TextMeasuring {
    var texts: [InlineText] = []

    func measure(_ text: InlineText, role: TextRole, width: Double, centered: Bool) -> MeasuredText {
        texts.append(text)
        let lines = text.plain.split(separator: "\n", omittingEmptySubsequences: false).flatMap { paragraph in
            Array(repeating: LineMetrics(x: 0, width: Double(min(paragraph.count, 50)) * 5, height: 10, baseline: 8),
                  count: max(1, (paragraph.count + 49) / 50))
        }
        return MeasuredText(handle: texts.count - 1, lines: lines)
    }

    func measureImage(_ png: [UInt8]) -> MeasuredImage? {
        png.count == 2 ? MeasuredImage(handle: 0, pixelWidth: Int(png[0]) * 10, pixelHeight: Int(png[1]) * 10) : nil
    }
}

@Suite struct FlowLayoutTests {
    /// 100 pt of content per page: top 43, bottom 143.
    let geometry = PageGeometry(width: 300, height: 186)

    func layout(_ contents: [Block.Content]) -> (FlowLayout, FakeMeasurer) {
        let measurer = FakeMeasurer()
        var flow = FlowLayout(geometry: geometry, measurer: measurer)
        flow.layout(contents.map { Block($0, origin: "test") }) { page, count in ("Page \(page) of \(count)", "v") }
        return (flow, measurer)
    }

    func paragraph(lines: Int, role: TextRole = .body) -> Block.Content {
        .text(TextBlock(role: role, text: InlineText(Array(repeating: "x", count: lines).joined(separator: "\n"))))
    }

    func baselines(_ page: [Placement], role: TextRole = .body) -> [Double] {
        page.flatMap { placement -> [Double] in
            if case .text(_, _, let lines, let r) = placement, r == role { return lines.map(\.baseline) }
            return []
        }
    }

    @Test func textBreaksBetweenLinesAcrossPages() {
        let (flow, _) = layout([paragraph(lines: 25)])
        #expect(flow.pages.count == 3)
        #expect(baselines(flow.pages[0]).count == 10)
        #expect(baselines(flow.pages[1]).count == 10)
        #expect(baselines(flow.pages[2]).count == 5)
        #expect(baselines(flow.pages[1]).first == geometry.contentTop + 8)
        for page in flow.pages { #expect(baselines(page).allSatisfy { $0 <= geometry.contentBottom }) }
    }

    @Test func everyPageGetsTheFooterWithThePageCount() {
        let (flow, measurer) = layout([paragraph(lines: 25)])
        let footers = measurer.texts.map(\.plain).filter { $0.hasPrefix("Page ") }
        #expect(footers == ["Page 1 of 3", "Page 2 of 3", "Page 3 of 3"])
        for page in flow.pages { #expect(baselines(page, role: .footer).allSatisfy { $0 == geometry.footerBaseline }) }
    }

    @Test func spacingIsDroppedAtThePageTopAndMergedBetweenBlocks() {
        let (flow, _) = layout([paragraph(lines: 1), paragraph(lines: 1)])
        // body: spaceAfter 6, spaceBefore 0 → 6 pt between the 10 pt lines.
        #expect(baselines(flow.pages[0]) == [geometry.contentTop + 8, geometry.contentTop + 10 + 6 + 8])
    }

    @Test func aHeadingMovesToTheNextPageWithItsText() {
        let (flow, _) = layout([paragraph(lines: 8), paragraph(lines: 1, role: .sectionTitle), paragraph(lines: 3)])
        #expect(flow.pages.count == 2)
        #expect(baselines(flow.pages[0], role: .sectionTitle).isEmpty)
        #expect(baselines(flow.pages[1], role: .sectionTitle) == [geometry.contentTop + 8])
    }

    @Test func pageBreakStartsANewPageButNeverAnEmptyOne() {
        let (flow, _) = layout([.pageBreak, paragraph(lines: 1), .pageBreak, .pageBreak, paragraph(lines: 1)])
        #expect(flow.pages.count == 2)
    }

    @Test func theSignerBlockIsNeverSplit() {
        let signer = SignerModel(
            nameCaption: "N", signatureCaption: "S", dateCaption: "D", printedName: "Name", strokes: [[]],
            aspectRatio: 3, dateText: "2026", meaning: "M")
        let (flow, _) = layout([paragraph(lines: 5), .signer(signer)])
        #expect(flow.pages.count == 2)
        let rules = flow.pages[1].filter { if case .rule = $0 { true } else { false } }
        #expect(rules.count == 3)
        #expect(baselines(flow.pages[1], role: .signatureValue).count == 1)
        #expect(baselines(flow.pages[1], role: .signatureDate).count == 1)
        // Name and date sit on the same line, above the rules.
        #expect(baselines(flow.pages[1], role: .signatureValue) == baselines(flow.pages[1], role: .signatureDate))
    }

    @Test func listMarkersHangBeforeTheText() {
        let item = TextBlock(role: .body, text: InlineText("item"), indent: 1, marker: "•")
        let (flow, _) = layout([.text(item)])
        let xs = flow.pages[0].compactMap { placement -> Double? in
            if case .text(_, let x, _, .body) = placement { return x }
            return nil
        }
        #expect(xs.count == 2)
        #expect(xs[0] == geometry.contentLeft + StyleSheet.listIndent)
        #expect(xs[1] < xs[0])
    }

    @Test func imagesScaleToFitAndUndecodableOnesBecomeText() {
        let (flow, measurer) = layout([.image(ImageBlock(png: [200, 5])), .image(ImageBlock(png: [1], alt: "alt"))])
        let rects = flow.pages.flatMap { $0 }.compactMap { placement -> Rect? in
            if case .image(_, let rect) = placement { return rect }
            return nil
        }
        #expect(rects.count == 1)
        #expect(rects[0].width == geometry.contentWidth)
        #expect(measurer.texts.contains { $0.plain == "[image: alt]" })
        #expect(flow.warnings.count == 1)
    }

    @Test func tableRowsAreFramedAndKeptWhole() {
        let cell = TableBlock.Cell(text: InlineText("a\nb"), isHeader: false)
        let table = TableBlock(rows: Array(repeating: [cell, cell, cell], count: 6))
        let (flow, _) = layout([.table(table)])
        let frames = flow.pages.map { $0.filter { if case .frame = $0 { true } else { false } }.count }
        // Rows are 26 pt (two lines + padding): three fit on a 100 pt page.
        #expect(frames == [9, 9])
    }
}
