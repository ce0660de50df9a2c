import ConsentCore
import Foundation
import SampleStudy
import Testing

/// The screens an IRB reviews (`ReviewScreens`) and the digest that binds them (`ScreensDigest`): every reachable
/// screen of every language, the kiosk's own texts included, so a changed built-in text changes the digest.
@Suite struct ScreensDigestTests {
    static func sample() throws -> Study {
        guard let folder = SampleStudy.folder else { throw SampleMissing() }
        return try Study.load(from: folder)
    }

    struct SampleMissing: Error {}

    @Test func everyReachableScreenIsListedOnceInFlowOrder() throws {
        let study = try Self.sample()
        let screens = ReviewScreens.of(study)
        let ids = screens.map(\.id)
        #expect(Set(ids).count == ids.count, "ids name the pack's files: unique")
        #expect(ids.first == "start")
        for expected in [
            "eligibility", "eligibility-eligible", "eligibility-ineligible", "sharing", "review-document", "review-name",
            "review-signature", "end-done", "end-declined", "controls", "record", "resume", "withdrawal", "changes", "messages",
        ] {
            #expect(ids.contains(expected), "\(expected)")
        }
        #expect(ids.filter { $0.hasPrefix("scene-") }.count == study.document.visualSections.count)
        #expect(ids.filter { $0.hasPrefix("introduction-") }.count == study.introduction.pages.count)
        #expect(ids.filter { $0.hasPrefix("comprehension-") }.count == study.document.comprehension.count)
        #expect(ids.contains("key-information") == (study.document.keyInformation != nil))
        #expect(ids.contains("optional") == !study.document.optionalElements.isEmpty)
        // The words are the view models': the eligibility questions, the button the eligible message names.
        let eligibility = try #require(screens.first { $0.id == "eligibility" })
        for requirement in study.document.eligibility { #expect(eligibility.lines.contains(requirement.question)) }
        let eligible = try #require(screens.first { $0.id == "eligibility-eligible" })
        #expect(eligible.lines.contains(study.texts.startConsent))
        #expect(try #require(screens.first { $0.id == "controls" }).settings["voice"] == KioskLanguagePack.english.voice)
        // In German, the German kiosk texts.
        let german = ReviewScreens.of(try #require(study.inLanguage("de")))
        #expect(german.first { $0.id == "review-document" }?.title == BuiltInTexts.german.reviewTitle)
    }

    @Test func theDigestIsStableAndCoversTheLanguagesAsked() throws {
        let study = try Self.sample()
        let all = try #require(ScreensDigest.of(study))
        #expect(all.count == 64)
        #expect(ScreensDigest.of(try Self.sample()) == all, "the same study gives the same digest")
        let tags = study.languages.map(\.tag)
        #expect(ScreensDigest.of(study, languages: tags) == all)
        #expect(ScreensDigest.of(study, languages: ["en"]) != all)
        #expect(ScreensDigest.of(study, languages: ["it"]) == nil, "a language the study lacks")
        // The canonical form is what the digest hashes, and names each language's version and voice.
        let canonical = try #require(ScreensDigest.canonical(study))
        #expect(canonical["languages"]?["de"]?["version"]?.stringValue == study.inLanguage("de")?.version)
        #expect(canonical["languages"]?["de"]?["voice"]?.stringValue == KioskLanguagePack.german.voice)
    }

    /// The test hook a kiosk update stands in for: one built-in text, label or the voice changed.
    @Test func aChangedBuiltInTextLabelOrVoiceChangesTheDigest() throws {
        let study = try Self.sample()
        let digest = try #require(ScreensDigest.of(study))
        func changed(_ change: @escaping @Sendable (KioskLanguagePack) -> KioskLanguagePack) -> String? {
            ScreensDigest.of(study, packs: { tag in
                let pack = KioskLanguagePack.pack(for: tag)
                return tag == "de" ? change(pack) : pack
            })
        }
        var texts = BuiltInTexts.german
        texts.ineligibleMessage += " (neu)"
        let builtIn = texts
        #expect(changed { $0.replacing(builtIn: builtIn) } != digest)
        var screen = ScreenTexts(language: "de")
        screen.finish = "Fertig!"
        let screenTexts = screen
        #expect(changed { $0.replacing(screen: screenTexts) } != digest)
        var ui = UITexts(language: "de")
        ui.errors.tryAgain += "!"
        let uiTexts = ui
        #expect(changed { $0.replacing(ui: uiTexts) } != digest, "a text no screen lists is still covered (the whole table)")
        #expect(changed { $0.replacing(voice: "en-us") } != digest)
        #expect(changed { $0 } == digest)
        // Only the languages asked for: a German change leaves the English digest alone.
        #expect(
            ScreensDigest.of(study, languages: ["en"], packs: { tag in
                tag == "de" ? KioskLanguagePack.pack(for: tag).replacing(voice: "xx") : KioskLanguagePack.pack(for: tag)
            }) == ScreensDigest.of(study, languages: ["en"]))
    }

    @Test func spokenTextIsTheScreensWordsWithoutMarkup() {
        let screen = ReviewScreen(
            id: "scene-1", title: "Welcome", lines: ["Hello", ""], html: ["<p>One &amp; two</p><ul><li>three</li></ul>"])
        #expect(screen.lines == ["Hello"], "empty lines are dropped")
        #expect(ReviewScreens.spokenText(screen) == "Welcome\nHello\nOne & two\nthree")
    }
}

extension ScreensDigestTests {
    /// A study written for C3-PRO (its demo app's intro: trailing commas, a welcome item, HTML items): its welcome
    /// and pages are screens of the pack, and its digest is computed like any other's.
    @Test func aStudyWrittenForC3ProIsPacked() throws {
        let study = try TemporaryStudy(
            contract: ContractJSON.contract(terms: [ContractJSON.term("Overview")]),
            files: ["intro_about.html": "<p>About.</p>", "HTMLContent/intro_eligibility.html": "<p>Who.</p>"])
        try study.write(Study.introFileName, data: Data(C3ProJSONTests.demoStyleIntro.utf8))
        let loaded = try study.load()
        let screens = ReviewScreens.of(loaded)
        let start = try #require(screens.first)
        #expect(start.lines.contains("Welcome to the study") && start.lines.contains("A research study on sleep"))
        #expect(start.lines.contains("About this Study"))
        #expect(screens.filter { $0.id.hasPrefix("introduction-") }.map(\.html) == [["<p>About.</p>"], ["<p>Who.</p>"]])
        #expect(ScreensDigest.of(loaded)?.count == 64)
        #expect(ScreensDigest.of(try study.load()) == ScreensDigest.of(loaded))
    }
}
