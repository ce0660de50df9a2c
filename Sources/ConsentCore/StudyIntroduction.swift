import Foundation

/// The study's introduction, as C3-PRO's StudyIntroConfiguration (`intro.json`) gives it and the kiosk's start
/// screen shows it (docs/C3PRO.md, section 2a): the welcome item's title and subtitle, the logo, and the HTML items
/// as pages a participant may open before starting. Per language, from that language's `intro.json`.
public struct StudyIntroduction: Sendable, Hashable {
    /// One HTML item: a page the start screen offers by its title.
    public struct Page: Sendable, Hashable {
        /// The item's `filename` (the page's name without `.html`): stable across languages, so a UI or a test
        /// names a page the same in each.
        public var id: String
        public var title: String
        /// The page as written (the agent sanitises it before a UI gets it, as it does sections).
        public var htmlContent: String
        /// Where it was found, relative to the study folder.
        public var file: String
    }

    /// The welcome item's `title`, else the file's top-level `title`.
    public var title: String?
    /// The welcome item's `subtitle`.
    public var subtitle: String?
    /// The top-level `logo`: the name of an image of the study (`study.asset`), set only when the image loaded.
    public var logo: String?
    public var pages: [Page] = []

    public init(title: String? = nil, subtitle: String? = nil, logo: String? = nil, pages: [Page] = []) {
        self.title = title
        self.subtitle = subtitle
        self.logo = logo
        self.pages = pages
    }

    /// Whether the start screen has anything of it to show.
    public var isEmpty: Bool { title == nil && subtitle == nil && logo == nil && pages.isEmpty }
}

/// Reads a StudyIntroConfiguration's items into a `StudyIntroduction` (C3-PRO's rules, docs/C3PRO.md 2a).
enum StudyIntroductionReader {
    /// The introduction of one language's `intro.json` (already checked by `StudyIntroValidation`), reading its
    /// HTML pages through `reader` (so the version covers them), and what a coordinator should fix. The logo is
    /// only named here; `Study` keeps it once its image loaded.
    static func read(
        _ intro: JSONValue, introFile: String, reader: StudyFileReader
    ) throws -> (introduction: StudyIntroduction, logo: String?, diagnostics: [StudyDiagnostic]) {
        var introduction = StudyIntroduction()
        var diagnostics: [StudyDiagnostic] = []
        let items = intro["items"]?.arrayValue ?? []
        var ids: Set<String> = []
        for (index, item) in items.enumerated() {
            let location = "items[\(index)]"
            func text(_ key: String) -> String? {
                guard let value = item[key]?.stringValue?.trimmingCharacters(in: .whitespacesAndNewlines), !value.isEmpty
                else { return nil }
                return value
            }
            switch item["type"]?.stringValue {
            case "welcome":
                guard introduction.title == nil, introduction.subtitle == nil else {
                    diagnostics.append(
                        .warning(.introTextIgnored, file: introFile, location: location, "a second welcome item; only the first is shown"))
                    continue
                }
                introduction.title = text("title")
                introduction.subtitle = text("subtitle")
                if text("video") != nil {
                    diagnostics.append(
                        .warning(
                            .introTextIgnored, file: introFile, location: "\(location).video",
                            "the kiosk does not play the welcome item's video; its title and subtitle are shown"))
                }
            case "video":
                diagnostics.append(
                    .warning(.introTextIgnored, file: introFile, location: location, "the kiosk does not play video items; the item is left out"))
            default:
                // C3-PRO treats every other item as an HTML page.
                guard let name = text("filename") else {
                    diagnostics.append(
                        .error(.fileMissing, file: introFile, location: "\(location).filename", "an HTML item without a filename; the item is left out"))
                    continue
                }
                guard let title = text("title") else {
                    diagnostics.append(
                        .warning(
                            .introTextIgnored, file: introFile, location: "\(location).title",
                            "the page \"\(name)\" has no title to offer it by; the item is left out"))
                    continue
                }
                guard ids.insert(name).inserted else {
                    diagnostics.append(
                        .warning(.introTextIgnored, file: introFile, location: location, "the page \"\(name)\" is named twice; it is shown once"))
                    continue
                }
                guard let path = reader.htmlPath(named: name) else {
                    let prefix = reader.languageFolder.map { "\($0)/" } ?? ""
                    diagnostics.append(
                        .error(
                            .fileMissing, file: "\(prefix)\(name).html", location: "\(introFile) \(location).filename",
                            "the introduction page \"\(name).html\" was not found (in the study folder or HTMLContent/); the item is left out"))
                    continue
                }
                introduction.pages.append(.init(id: name, title: title, htmlContent: try reader.text(path), file: path))
            }
        }
        if introduction.title == nil, let title = intro["title"]?.stringValue?.trimmingCharacters(in: .whitespacesAndNewlines),
            !title.isEmpty
        {
            introduction.title = title
        }
        let logo = intro["logo"]?.stringValue.flatMap { StudyAssetLoader.isSafeName($0) ? $0 : nil }
        return (introduction, logo, diagnostics)
    }
}
