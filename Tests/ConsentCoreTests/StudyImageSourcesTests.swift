@testable import ConsentCore
import Foundation
import SampleStudy
import Testing

/// `StudyImageCheck.sources(in:)` finds `<img src>` by hand, without ICU's regular expressions (whose one-time
/// set-up was a tenth of the agent's start-up): it must find what the regular expression it replaced finds.
@Suite struct StudyImageSourcesTests {
    /// The expression `sources(in:)` replaced, as the oracle.
    static let expression = try? NSRegularExpression(
        pattern: #"<img\b[^>]*?\bsrc\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s>"']+))"#, options: [.caseInsensitive])

    static func byExpression(_ html: String) -> [String] {
        guard let expression else { return [] }
        return expression.matches(in: html, range: NSRange(html.startIndex..., in: html)).compactMap { match in
            for group in 1...3 {
                if let range = Range(match.range(at: group), in: html) { return String(html[range]) }
            }
            return nil
        }
    }

    static let pages = [
        #"<p><img alt="x" src="img/a.png"> <IMG SRC='b.png'> <img src=c.png> <img src="https://x/y.png">"#,
        #"<img src="data:image/png;base64,AAAA"> <img src="../outside.png"></p>"#,
        #"<imgx src="no.png"><img-src="no2.png"> <img data-src="lazy.png" src="real.png">"#,
        #"<img srcset="a.png 2x" src = "spaced.png"><img alt='>' src="after-gt.png"><img src="unclosed>"#,
        "<img\nsrc=\n'newline.png'\n><img src=\"a>b.png\"><img src=>x<img src=' '>",
        #"<img alt=src src="two.png"><img src="é/ünï.png"><IMG\tSrC=TAB.PNG/>"#,
        #"<img src"#, #"<img"#, #"<img src="#, #"<img src=""><img src=''><img src="#, "",
        #"<img alt="a"<img src="inner.png">"#, #"<imgsrc="x.png"><img/src="slash.png">"#,
    ]

    @Test func findsWhatTheRegularExpressionFinds() throws {
        #expect(Self.expression != nil)
        for page in Self.pages {
            #expect(StudyImageCheck.sources(in: page) == Self.byExpression(page), "\(page)")
        }
        // Every page of the sample study, in every language.
        let folder = try #require(SampleStudy.folder)
        let files = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: nil)?
            .compactMap { $0 as? URL }.filter { $0.pathExtension == "html" } ?? []
        #expect(!files.isEmpty)
        for file in files {
            let html = try String(contentsOf: file, encoding: .utf8)
            #expect(StudyImageCheck.sources(in: html) == Self.byExpression(html), "\(file.path)")
        }
    }

    @Test func findsTheSourcesInOrder() {
        #expect(StudyImageCheck.sources(in: Self.pages[0]) == ["img/a.png", "b.png", "c.png", "https://x/y.png"])
        // `<img-src=…>` is an img tag (a hyphen ends its name) and `data-src` a src (a hyphen starts a word).
        #expect(StudyImageCheck.sources(in: Self.pages[2]) == ["no2.png", "lazy.png"])
    }
}
