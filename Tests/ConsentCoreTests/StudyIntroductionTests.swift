import ConsentCore
import Foundation
import SampleStudy
import Testing

/// The study introduction (intro.json's items) as the start screen shows it.
@Suite struct StudyIntroductionTests {
    typealias C = ContractJSON

    @Test func theSampleStudyIntroducesItselfInEveryLanguage() throws {
        let study = try Study.load(from: try #require(SampleStudy.folder))
        let subtitles = [
            "en": "A study of the resting heart", "de": "Eine Studie über das Herz in Ruhe",
            "fr": "Une étude sur le cœur au repos", "es": "Un estudio sobre el corazón en reposo",
        ]
        for language in ["en", "de", "fr", "es"] {
            let introduction = try #require(study.inLanguage(language)?.introduction)
            #expect(introduction.title == "Heartbeat & Sleep")
            #expect(introduction.subtitle == subtitles[language])
            #expect(introduction.logo == "logo_disease")
            #expect(introduction.pages.map(\.id) == ["intro_about", "intro_visits"])
            #expect(introduction.pages.allSatisfy { !$0.title.isEmpty && $0.htmlContent.contains("<p>") })
            let prefix = language == "en" ? "" : "\(language)/"
            #expect(introduction.pages.map(\.file) == ["\(prefix)HTMLContent/intro_about.html", "\(prefix)HTMLContent/intro_visits.html"])
            // Each page and the logo are part of that language's version, and the logo is an asset a UI may get.
            let translated = try #require(study.inLanguage(language))
            #expect(introduction.pages.allSatisfy { translated.files.contains($0.file) })
            #expect(translated.asset(named: "logo_disease")?.mediaType == "image/png")
            #expect(translated.diagnostics.isEmpty, "\(translated.diagnostics)")
        }
        #expect(study.inLanguage("fr")?.introduction.pages.first?.title == "À propos de cette étude")
    }

    /// C3-PRO's demo app ships its intro like this: a welcome item with a video, a video item, HTML items closed
    /// after a comma, and a logo that is only `<name>@2x.png` in the bundle.
    @Test func aStudyWrittenForC3ProIsIntroducedAsC3ProWould() throws {
        let study = try TemporaryStudy(
            contract: C.contract(terms: [C.term("Overview")]),
            files: ["intro_about.html": "<p>About.</p>", "HTMLContent/intro_eligibility.html": "<p>Who.</p>"])
        try study.write(Study.introFileName, data: Data(C3ProJSONTests.demoStyleIntro.utf8))
        try study.write("logo_study@2x.png", data: Self.onePixelPNG)
        let loaded = try study.load()
        let introduction = loaded.introduction
        #expect(introduction.title == "Welcome to the study")
        #expect(introduction.subtitle == "A research study on sleep")
        #expect(introduction.logo == "logo_study")
        #expect(introduction.pages.map(\.title) == ["About this Study", "Who is Eligible to Participate"])
        #expect(introduction.pages.map(\.htmlContent) == ["<p>About.</p>", "<p>Who.</p>"])
        #expect(loaded.files.contains("logo_study@2x.png"))
        let ignored = loaded.diagnostics.filter { $0.code == .introTextIgnored }
        #expect(ignored.map(\.location) == ["items[0].video", "items[1]"])
        #expect(loaded.diagnostics.filter { $0.code == .lenientJSON }.count == 2)
        #expect(!loaded.diagnostics.hasErrors)
    }

    @Test func aMissingPageIsAnErrorAndTheItemIsLeftOut() throws {
        let study = try TemporaryStudy(contract: C.contract(terms: [C.term("Overview")]), files: ["here.html": "<p>Here.</p>"])
        try study.write(Study.introFileName, data: Data(#"""
            {"items": [{"title": "Gone", "filename": "gone"}, {"title": "Here", "filename": "here"},
                       {"title": "Again", "filename": "here"}, {"filename": "here"}]}
            """#.utf8))
        let loaded = try study.load()
        #expect(loaded.introduction.pages.map(\.id) == ["here"])
        #expect(loaded.introduction.title == nil)
        let missing = loaded.diagnostics.filter { $0.code == .fileMissing }
        #expect(missing.map(\.file) == ["gone.html"])
        #expect(missing.first?.severity == .error)
        #expect(loaded.diagnostics.filter { $0.code == .introTextIgnored }.map(\.location) == ["items[2]", "items[3].title"])
        // A logo named but absent: a warning, and none is shown.
        try study.write(Study.introFileName, data: Data(#"{"logo": "nowhere", "items": []}"#.utf8))
        let withoutLogo = try study.load()
        #expect(withoutLogo.introduction.logo == nil)
        #expect(withoutLogo.introduction.isEmpty)
        #expect(withoutLogo.diagnostics.contains { $0.code == .assetUnavailable && $0.location == "intro.json logo" })
    }

    @Test func aTranslationWithoutAnIntroductionSaysSo() throws {
        let study = try TemporaryStudy(contract: C.contract(terms: [C.term("Overview")]), files: ["about.html": "<p>About.</p>"])
        try study.write(Study.introFileName, data: Data(#"{"items": [{"title": "About", "filename": "about"}]}"#.utf8))
        try study.write("de/\(Study.contractFileName)", data: C.contract(terms: [C.term("Overview")]).serialized())
        let german = try #require(try study.load().inLanguage("de"))
        #expect(german.introduction.isEmpty)
        #expect(german.diagnostics.contains { $0.code == .untranslated && $0.file == "de/intro.json" })
    }

    /// A 1×1 PNG.
    static let onePixelPNG = Data(
        base64Encoded: "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==")!
}
