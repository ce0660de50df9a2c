import ConsentCore

/// The study's pages of a consent PDF, laid out once and continued with each participant's signature page.
///
/// Every copy of a study document has the same pages before its signature page: the title and the sections, or the
/// review document. Measuring them (pango's shaping and line breaking) was about 40 % of each render, for the same
/// result every time. So the first render of a document lays them out and keeps them here, keyed by what they are
/// made of, and every later one starts from that layout and places only its own signature page on new pages
/// (`FlowLayout(continuing:measurer:)` with a `PangoMeasurer(continuing:)`): the same placements, so the same PDF.
///
/// The key is the content, not the study version, so a study changed in memory (a test, a fuzzer, a coordinator's
/// preview) can never be drawn from another's layout. It holds pango layouts, so it lives beside the font map in
/// `FontLibrary`, is only used with its lock held, and is emptied before the map is released.
final class StudyLayoutCache {
    /// What the study's pages are made of: the document and title (in the study's language), the custom review
    /// document, the images it draws (read when the study loaded), and the page size.
    struct Key: Hashable {
        var document: ConsentDocument
        var title: String
        var reviewHTML: String?
        var assets: [String: StudyAsset]
        var language: String
        var paper: PDFOptions.Paper
        /// What the study's part is: its consent document, or the review pack's screens (`renderReviewScreens`),
        /// which must never be taken for each other's layout.
        var part = Part.consent

        enum Part: Hashable { case consent, reviewScreens }

        init(study: Study, paper: PDFOptions.Paper) {
            document = study.document
            title = study.title
            reviewHTML = study.reviewHTML
            assets = study.assets
            language = study.language
            self.paper = paper
        }
    }

    /// A laid-out study part: its measurer (which owns the layouts and images its pages draw), the layout after
    /// its last block, and the warnings composing it gave.
    final class Entry {
        let measurer: PangoMeasurer
        let flow: FlowLayout
        let composeWarnings: [String]

        init(measurer: PangoMeasurer, flow: FlowLayout, composeWarnings: [String]) {
            self.measurer = measurer
            self.flow = flow
            self.composeWarnings = composeWarnings
        }
    }

    /// Documents kept: a kiosk serves a few studies in a few languages, each ~1 MB of layouts at most.
    static let capacity = 8

    /// Most recently used last.
    private var entries: [(key: Key, entry: Entry)] = []

    /// The entry for `key`, made by `make` when there is none (dropping the least recently used beyond capacity).
    func entry(for key: Key, make: () throws -> Entry) rethrows -> Entry {
        if let index = entries.firstIndex(where: { $0.key == key }) {
            let found = entries.remove(at: index)
            entries.append(found)
            return found.entry
        }
        let made = try make()
        entries.append((key, made))
        if entries.count > Self.capacity { entries.removeFirst(entries.count - Self.capacity) }
        return made
    }

    var count: Int { entries.count }

    func contains(_ key: Key) -> Bool { entries.contains { $0.key == key } }

    func removeAll() { entries.removeAll() }
}
