import ConsentCore
import Testing

/// The display controls' words and the touch keyboard of each language: a UI renders them as they are, so the
/// sizes and the letters are the agent's promise (docs/UI-DEVELOPERS.md, "Text size, contrast and the keyboard").
@Suite struct DisplayTextsTests {
    @Test(arguments: ["en", "de", "fr", "es"])
    func atLeastThreeSizesUpTo200Percent(_ language: String) {
        let display = UITexts(language: language).display
        #expect(display.language == language)
        #expect(display.sizes.count >= 3)
        #expect(display.sizes.first?.percent == 100 && display.sizes.last?.percent == 200)
        #expect(display.sizes.map(\.percent) == display.sizes.map(\.percent).sorted())
        #expect(Set(display.sizes.map(\.name)).count == display.sizes.count, "every size has its own name")
        for text in [display.textSize, display.contrast] + display.sizes.map(\.name) {
            #expect(!text.trimmingCharacters(in: .whitespaces).isEmpty)
        }
    }

    @Test(arguments: ["de", "fr", "es"])
    func nothingIsLeftInEnglish(_ language: String) {
        let display = DisplayTexts(language: language)
        #expect(display.textSize != DisplayTexts.english.textSize)
        #expect(display.contrast != DisplayTexts.english.contrast)
        #expect(display.sizes.map(\.name) != DisplayTexts.english.sizes.map(\.name))
    }

    /// The first row names the layout: QWERTY in English, QWERTZ in German, AZERTY in French, Spanish QWERTY
    /// (ñ beside l) in Spanish.
    @Test(arguments: [("en", "qwerty"), ("de", "qwertz"), ("fr", "azerty"), ("es", "qwerty-es")])
    func theKeyboardIsTheLanguagesOwn(_ language: String, _ layout: String) {
        let display = DisplayTexts(language: language)
        #expect(display.keyboardLayout == layout)
        #expect(display.letters.first?.prefix(6).joined() == String(layout.prefix(6)))
    }

    @Test func theSpanishKeyboardHasÑBesideLAndTheOpeningMarks() {
        let rows = DisplayTexts(language: "es").letters
        #expect(rows[1].last == "ñ" && rows[1].dropLast().last == "l")
        let keys = rows.flatMap { $0 }
        for key in ["ñ", "á", "é", "í", "ó", "ú", "ü", "¿", "¡"] { #expect(keys.contains(key), "\(key)") }
    }

    /// Every letter of the alphabet once, each key one lowercase character, and the language's accented letters.
    @Test(arguments: [("en", "éñç"), ("de", "äöüß"), ("fr", "àâçéèêëîïôùûüœ"), ("es", "ñáéíóúü¿¡")])
    func everyLetterAndTheAccentedOnes(_ language: String, _ accented: String) {
        let keys = DisplayTexts(language: language).letters.flatMap { $0 }
        #expect(Set(keys).count == keys.count, "no key twice")
        for key in keys {
            #expect(key.unicodeScalars.count == 1, "\(key) is one character")
            #expect(key == key.lowercased())
        }
        for letter in "abcdefghijklmnopqrstuvwxyz" + accented + "-'" {
            #expect(keys.contains(String(letter)), "\(language) lacks \(letter)")
        }
    }

    @Test func aRegionGetsItsLanguageAndAnUnknownOneEnglish() {
        #expect(DisplayTexts(language: "de-AT") == .german)
        #expect(DisplayTexts(language: "it").keyboardLayout == "qwerty")
        #expect(UITexts.french.display == .french)
    }
}
