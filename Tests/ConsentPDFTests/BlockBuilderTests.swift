import Testing

@testable import ConsentPDF

@Suite struct BlockBuilderTests {
    func blocks(_ html: String) -> [Block.Content] {
        BlockBuilder.blocks(fromHTML: html, origin: "t") { _ in .failure(.init(reason: "not here")) }.blocks.map(\.content)
    }

    func texts(_ html: String) -> [TextBlock] {
        blocks(html).compactMap { if case .text(let t) = $0 { t } else { nil } }
    }

    @Test func headingsParagraphsAndInlineMarkup() {
        let result = texts("<h1>Title</h1><h3>Sub</h3><p>A <b>bold</b>, <i>italic</i> and <u>under</u>lined <em>x</em><strong>y</strong></p>")
        #expect(result.map(\.role) == [.heading(1), .heading(3), .body])
        #expect(result[2].text.markup == "A <b>bold</b>, <i>italic</i> and <u>under</u>lined <i>x</i><b>y</b>")
        #expect(result[2].text.plain == "A bold, italic and underlined xy")
    }

    @Test func whitespaceCollapsesAndBrBreaksLines() {
        let result = texts("<p>\n  one   two\n<br>three<br></p><p><br>four</p>")
        #expect(result.map(\.text.plain) == ["one two\nthree", "four"])
    }

    @Test func nestedListsFlattenWithMarkersAndIndents() {
        let result = texts("<ul><li>a<ol><li>one</li><li>two<ul><li>deep</li></ul></li></ol>after</li><li>b</li></ul><p>p</p>")
        #expect(result.map(\.text.plain) == ["a", "one", "two", "deep", "after", "b", "p"])
        #expect(result.map(\.indent) == [1, 2, 2, 3, 1, 1, 0])
        #expect(result.map(\.marker) == ["•", "1.", "2.", "·", nil, "•", nil])
    }

    @Test func orderedListStylesAndStart() {
        let result = texts(#"<ol type="a" start="3"><li>c</li><li>d</li></ol><ol type="I"><li>i</li><li>ii</li></ol>"#)
        #expect(result.map(\.marker) == ["c.", "d.", "I.", "II."])
    }

    @Test func linksKeepTheirTextAndRange() throws {
        let result = texts(##"<p>Write to <a href="mailto:x@example.org">x@example.org</a> or <a href="#top">top</a>.</p>"##)
        let text = try #require(result.first?.text)
        #expect(text.plain == "Write to x@example.org or top.")
        #expect(text.links.count == 1)
        let link = try #require(text.links.first)
        #expect(link.uri == "mailto:x@example.org")
        let bytes = Array(text.plain.utf8)
        #expect(String(decoding: bytes[link.range], as: UTF8.self) == "x@example.org")
    }

    @Test func tablesBecomeRowsOfCells() throws {
        let content = blocks("<table><tr><th>Visit</th><th>When</th></tr><tr><td>1</td><td><b>Today</b><br>now</td></tr></table>")
        guard case .table(let table) = try #require(content.first) else {
            Issue.record("expected a table, got \(content)")
            return
        }
        #expect(table.rows.count == 2)
        #expect(table.rows[0].map(\.isHeader) == [true, true])
        #expect(table.rows[1][1].text.markup == "<b>Today</b>\nnow")
    }

    @Test func scriptsStylesAndCommentsAreDroppedUnknownTagsKeepTheirText() {
        let result = texts("<script>x()</script><style>p{}</style><!-- note --><p>Keep <blink>this</blink> <section>and this</section></p>")
        #expect(result.map(\.text.plain) == ["Keep this", "and this"])
    }

    @Test func textIsEscapedForPango() {
        let result = texts("<p>&lt;b&gt; &amp; \"q\" 'a'</p>")
        #expect(result.first?.text.markup == "&lt;b&gt; &amp; &quot;q&quot; &#39;a&#39;")
    }

    @Test func moderateNestingIsWalkedWithoutRecursion() {
        let depth = 120
        let html = String(repeating: "<div><span>", count: depth) + "deep" + String(repeating: "</span></div>", count: depth)
        #expect(texts(html).map(\.text.plain) == ["deep"])
    }

    @Test func excessiveNestingIsCutWithAWarning() {
        // libxml2 stops at 256 levels (its defence against quadratic parsing); what came before is kept.
        let html = "<p>before</p>" + String(repeating: "<div>", count: 2000) + "deep"
        let result = BlockBuilder.blocks(fromHTML: html, origin: "section 1") { _ in .failure(.init(reason: "")) }
        let plain = result.blocks.compactMap { if case .text(let t) = $0.content { t.text.plain } else { nil } }
        #expect(plain.first == "before")
        #expect(result.warnings.count == 1)
    }

    @Test func malformedHTMLIsReportedOnce() {
        let result = BlockBuilder.blocks(fromHTML: "<p>a <b>b</i></p></div>", origin: "section 2 (“X”)") { _ in
            .failure(.init(reason: ""))
        }
        #expect(result.warnings.count == 1)
        #expect(result.warnings.first?.hasPrefix("section 2 (“X”): the HTML is malformed") == true)
        #expect(result.blocks.count == 1)
    }
}
