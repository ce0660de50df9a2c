import ConsentCore
import Foundation
import Testing

@testable import ConsentPDF

/// A study's pages are laid out on its first render and kept (`StudyLayoutCache`): later copies lay out only their
/// signature page, give the same bytes a fresh layout gives, and never take another document's pages.
@Suite struct StudyLayoutCacheTests {
    static func render(_ study: Study, name: String) throws -> RenderedPDF {
        try ConsentPDFRenderer(options: Fixtures.options).render(
            study: study, signers: [.participant(printedName: name, strokes: Fixtures.strokes())],
            signedAt: Fixtures.signedAt)
    }

    /// Whether the font library holds the study's pages (asking does not lay them out).
    static func isLaidOut(_ study: Study) throws -> Bool {
        try FontLibrary.withFonts { _, cache in cache.contains(StudyLayoutCache.Key(study: study, paper: Fixtures.options.paper)) }
    }

    @Test func aCopyFromTheKeptPagesIsTheSameAsAFreshLayout() throws {
        let study = try Fixtures.study(sections: [
            (title: "Kept pages", html: "<p>\(String(repeating: "A paragraph long enough to wrap. ", count: 60))</p>"),
            (title: "Second", html: "<ul><li>one</li><li>two</li></ul><p>Last words.</p>"),
        ])
        _ = try Self.render(study, name: "First Participant")
        #expect(try Self.isLaidOut(study))
        let kept = try Self.render(study, name: "Zoë Müller-Østergaard")
        FontLibrary.release()  // empties the cache: the next render lays the study out afresh
        #expect(try !Self.isLaidOut(study))
        let fresh = try Self.render(study, name: "Zoë Müller-Østergaard")
        #expect(kept.data == fresh.data)
        #expect(kept.pageCount == fresh.pageCount)
        #expect(kept.warnings == fresh.warnings)
        let text = try Poppler.text(kept.data).normalizedPDFText
        #expect(text.contains("Zoë Müller-Østergaard"))
        #expect(!text.contains("First Participant"))
    }

    @Test func aStudyChangedInMemoryGetsItsOwnPages() throws {
        let study = try Fixtures.study(sections: [(title: "Original title", html: "<p>Original text.</p>")])
        _ = try Self.render(study, name: "Ann Example")
        var changed = study
        changed.document.sections[0].title = "Changed title"
        changed.document.sections[0].htmlContent = "<p>Changed text.</p>"
        #expect(changed.version == study.version)
        #expect(try !Self.isLaidOut(changed))
        let text = try Poppler.text(try Self.render(changed, name: "Ann Example").data).normalizedPDFText
        #expect(text.contains("Changed title") && text.contains("Changed text."))
        #expect(!text.contains("Original"))
        // Its own entry, not the original's: the key tells them apart. (Whether both entries are still held is not
        // asked: the library is shared by every test of the process, and others render, evict and release meanwhile.)
        #expect(
            StudyLayoutCache.Key(study: changed, paper: Fixtures.options.paper)
                != StudyLayoutCache.Key(study: study, paper: Fixtures.options.paper))
    }

    @Test func warningsOfTheStudysPagesComeWithEveryCopy() throws {
        let study = try Fixtures.study(sections: [(title: "Remote", html: "<p>Before</p><img src=\"https://example.org/x.png\" alt=\"x\">")])
        let first = try Self.render(study, name: "Ann Example")
        let second = try Self.render(study, name: "Ben Example")
        #expect(!first.warnings.isEmpty)
        #expect(second.warnings == first.warnings)
    }

    @Test func atMostCapacityDocumentsAreKeptTheLeastRecentlyUsedGoingFirst() throws {
        let cache = StudyLayoutCache()
        let base = try Fixtures.study(sections: [(title: "T", html: "<p>x</p>")])
        let keys = (0...StudyLayoutCache.capacity).map { index in
            var study = base
            study.document.sections[0].title = "Title \(index)"
            return StudyLayoutCache.Key(study: study, paper: .a4)
        }
        try FontLibrary.withFontMap { fontMap in
            let canvas = try PDFCanvas(width: 595, height: 842)
            func make() -> StudyLayoutCache.Entry {
                let measurer = PangoMeasurer(cairo: canvas.context, fontMap: fontMap)
                let flow = FlowLayout(geometry: PageGeometry(width: 595, height: 842), measurer: measurer)
                return StudyLayoutCache.Entry(measurer: measurer, flow: flow, composeWarnings: [])
            }
            for key in keys.dropLast() { _ = cache.entry(for: key, make: make) }
            #expect(cache.count == StudyLayoutCache.capacity)
            _ = cache.entry(for: keys[0], make: make)  // now the most recently used
            _ = cache.entry(for: keys.last!, make: make)
            #expect(cache.count == StudyLayoutCache.capacity)
            #expect(cache.contains(keys[0]))
            #expect(!cache.contains(keys[1]))
            cache.removeAll()  // its layouts are freed with the lock held
            #expect(cache.count == 0)
        }
    }
}
