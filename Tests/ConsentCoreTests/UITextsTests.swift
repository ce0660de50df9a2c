import ConsentCore
import Testing

/// The words a UI shows around the flows (start screen, keyboard, notices, error sentences) are the
/// agent's, in every language it has a table for, and no member is left in English in another language.
@Suite struct UITextsTests {
    /// Every text of a table, by member name (the error sentences as `errors.<name>`).
    static func members(_ texts: UITexts) -> [String: String] {
        var all: [String: String] = [:]
        for child in Mirror(reflecting: texts).children {
            guard let name = child.label else { continue }
            if let text = child.value as? String, name != "language" { all[name] = text }
        }
        for child in Mirror(reflecting: texts.errors).children {
            if let name = child.label, let text = child.value as? String { all["errors.\(name)"] = text }
        }
        return all
    }

    @Test(arguments: ["en", "de", "fr", "es"])
    func everyTextIsWrittenOut(_ language: String) {
        let texts = UITexts(language: language)
        #expect(texts.language == language)
        let all = Self.members(texts)
        #expect(all.count >= 40, "the mirror sees every member")
        for (name, text) in all {
            #expect(!text.trimmingCharacters(in: .whitespaces).isEmpty, "\(language) \(name)")
        }
    }

    @Test(arguments: ["de", "fr", "es"])
    func nothingIsLeftInEnglish(_ language: String) {
        let english = Self.members(.english)
        for (name, text) in Self.members(UITexts(language: language)) {
            #expect(text != english[name], "\(language) \(name) is the English text")
        }
    }

    @Test func aLanguageWithoutATableGetsEnglishAndRegionsTheirLanguage() {
        #expect(UITexts(language: "it").language == "en")
        #expect(UITexts(language: "de-CH") == .german)
        #expect(UITexts(language: "fr-CA").start == "Commencer")
    }

    /// The words shared with the view model are the same words, so a button reads alike on every screen.
    @Test(arguments: ["en", "de", "fr", "es"])
    func sharedWordsMatchTheViewModels(_ language: String) {
        let texts = UITexts(language: language)
        #expect(texts.back == ScreenTexts(language: language).back)
        #expect(texts.withdraw == ScreenTexts(language: language).confirmWithdrawal)
        #expect(texts.learnMore == BuiltInTexts(language: language).learnMore)
    }
}
