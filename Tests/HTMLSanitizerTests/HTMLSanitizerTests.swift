import ConsentCore
import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
import HTMLSanitizer
import SampleStudy
import Testing

/// The study HTML a UI gets runs nothing, loads nothing and is well-formed.
@Suite struct HTMLSanitizerTests {
    func clean(_ html: String, assets: Set<String> = []) -> String { HTMLSanitizer.sanitize(html, assets: assets) }
    /// Without the paragraphs libxml2 adds around text that stands directly in the page.
    func unwrapped(_ html: String) -> String {
        html.replacingOccurrences(of: "<p>", with: "").replacingOccurrences(of: "</p>", with: "")
    }

    @Test func scriptsAndTheirContentAreGone() {
        let out = clean(#"<p>Hi<script>alert("x")</script></p><SCRIPT src="https://evil.example/x.js"></SCRIPT><p>after</p>"#)
        #expect(out == "<p>Hi</p><p>after</p>", "\(out)")
        #expect(!clean("<scr<script>ipt>alert(1)</script>").lowercased().contains("<script"))
        #expect(unwrapped(clean("<svg><script>alert(1)</script></svg><math><mi>x</mi></math>ok")) == "ok")
    }

    @Test func eventAttributesAndStylesAreGone() {
        let out = clean(#"<p onclick="steal()" style="background:url(https://evil.example)" class="x" id="y">Text</p><img src=x onerror="alert(1)">"#)
        #expect(out == "<p>Text</p>")
        #expect(!clean(#"<b OnMouseOver='x()'>b</b>"#).lowercased().contains("onmouseover"))
        #expect(clean(#"<td colspan="2" rowspan="x" onfocus="y">c</td>"#).contains(#"colspan="2""#))
    }

    @Test func javascriptLinksBecomeTheirText() {
        #expect(clean(#"<p><a href="javascript:alert(1)">Click</a></p>"#) == "<p>Click</p>")
        #expect(clean(#"<a href=" JaVaScRiPt:alert(1)">x</a>"#) == "x")
        #expect(clean(##"<a href="#top">top</a>"##) == "top")
    }

    @Test func externalAndMailtoLinksAreMarkedAndCannotBeFollowed() {
        let out = clean(#"<p>See <a href="https://example.org/privacy" target="_blank">the notice</a> or write to <a href="mailto:study@example.org">study@example.org</a>.</p>"#)
        #expect(out == #"<p>See <span data-link="external">the notice</span> or write to <span data-link="email">study@example.org</span>.</p>"#)
        #expect(!out.contains("href"))
    }

    @Test func remoteImagesAreRemovedAndLocalOnesPointAtTheirAsset() {
        let out = clean(
            #"<img src="https://tracker.example/p.gif" alt="Tracker"><img src="data:image/png;base64,AAAA"><img src="images/band.png" alt="The band" width="900"><img src="missing.png" alt="Missing">"#,
            assets: ["images/band.png"])
        #expect(unwrapped(out) == #"Tracker<img data-asset="images/band.png" alt="The band"/>Missing"#, "\(out)")
        #expect(!out.contains("src="))
    }

    @Test func remoteLoadsOfAnyKindAreGone() {
        let keepsWhatFollows = [
            #"<link rel="stylesheet" href="https://x.example/a.css">"#, "<style>@import url(https://x.example)</style>",
            #"<iframe src="https://x.example"></iframe>"#, #"<meta http-equiv="refresh" content="0;url=https://x.example">"#,
        ]
        let others = [
            #"<object data="https://x.example/x.swf"></object>"#, #"<embed src="https://x.example/x">"#,
            #"<form action="https://x.example"><input name="q" value="https://x.example"></form>"#,
            #"<video src="https://x.example/v.mp4"></video>"#, #"<base href="https://x.example/">"#,
            #"<audio><source src="https://x.example/a.mp3"></audio>"#,
        ]
        for snippet in keepsWhatFollows + others {
            let out = clean(snippet + "<p>kept</p>")
            for forbidden in ["x.example", "src=", "href", "<iframe", "<style", "<link", "<object", "<embed", "<input", "<video", "<meta", "<base", "<audio"] {
                #expect(!out.contains(forbidden), "\(forbidden) in \(out)")
            }
            if keepsWhatFollows.contains(snippet) { #expect(unwrapped(out) == "kept", "\(out)") }
        }
    }

    @Test func theOutputIsWellFormed() throws {
        let out = clean("<p>one<p>two<ul><li>a<li>b</ul><br><hr>x &amp; y < z \"q\"<h4>head")
        #expect(out.hasPrefix("<p>one</p><p>two</p><ul><li>a</li><li>b</li></ul>"), "\(out)")
        #expect(out.contains("<br/>") && out.contains("<hr/>") && out.hasSuffix("<h4>head</h4>"))
        #expect(out.contains("x &amp; y &lt; z &quot;q&quot;"))
        #expect(XMLParser(data: Data("<root>\(out)</root>".utf8)).parse())
        // A paragraph holding a block (through a wrapper libxml2 does not know) is written as a div.
        #expect(clean("<p><section><h4>T</h4></section></p>") == "<div><h4>T</h4></div>")
        // Well-formed as XML too, so any parser reads it the same way.
        for page in try samplePages() {
            let safe = clean(page)
            let parser = XMLParser(data: Data("<root>\(safe)</root>".utf8))
            #expect(parser.parse(), "\(safe.prefix(200))")
        }
    }

    @Test func theSampleStudysHTMLKeepsItsTextAndLosesItsLinks() throws {
        let study = try Study.load(from: try #require(SampleStudy.folder))
        let review = clean(ReviewDocument.html(for: study))
        #expect(review.contains("<h4>Protecting Your Privacy</h4>"))
        #expect(review.contains(#"<span data-link="external">example.org/heartbeat-sleep/privacy</span>"#))
        #expect(review.contains(#"<span data-link="email">sleep-study@example.org</span>"#))
        #expect(!review.contains("href") && !review.contains("<p><p>") && !review.contains("<p><ul>"))
    }

    @Test func emptyAndTextOnlyInputs() {
        #expect(clean("") == "")
        #expect(unwrapped(clean("plain text")) == "plain text")
        #expect(unwrapped(clean("<!-- comment --><?php echo 1; ?>x")) == "x")
    }

    func samplePages() throws -> [String] {
        let study = try Study.load(from: try #require(SampleStudy.folder))
        return ([study] + study.translations).flatMap { language in
            language.document.sections.compactMap(\.htmlContent) + [language.sharingHTML ?? "", ReviewDocument.html(for: language)]
        }
    }
}
