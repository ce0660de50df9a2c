/// What a kiosk UI needs to let a participant see and type in their language: the words of the display controls it
/// adds to every screen (text size, high contrast) and the letters of its touch keyboard. `study.get` delivers them
/// with the `UITexts` of the language (`texts.display`, `texts.keys`), so the UI holds neither a string table nor a
/// keyboard table per language (docs/UI-DEVELOPERS.md, "Text size, contrast and the keyboard").
///
/// A table of its own beside `UITexts` (reached through `UITexts.display`) because it is not only words: the sizes
/// a UI offers and the keyboard's rows are the same kind of per-language fact, and a UI renders whatever is here.
public struct DisplayTexts: Sendable, Hashable {
    /// The language of the table (a tag of `BuiltInTexts.supportedLanguages`).
    public var language: String
    /// The accessible name of the group of text-size buttons.
    public var textSize: String
    /// One button each, smallest first: 100 % is the UI's own size, the largest 200 % (WCAG 1.4.4, "Resize Text").
    public var sizes: [TextSize]
    /// The high-contrast theme's toggle.
    public var contrast: String
    /// The touch keyboard's layout by name (`qwerty`, `qwertz`, `azerty`), as a UI or a test can tell it.
    public var keyboardLayout: String
    /// The touch keyboard's letter rows for names, top row first: the language's own layout, then the accented
    /// letters its names are written with. One `String` a key (each a single Unicode scalar, lowercase).
    public var letters: [[String]]

    public struct TextSize: Sendable, Hashable {
        /// The text's size relative to the UI's own, in percent.
        public var percent: Int
        /// The button's accessible name.
        public var name: String
    }

    /// The sizes every language offers: at least three, up to 200 %.
    public static let percents = [100, 150, 200]
}

extension UITexts {
    /// The display controls' words and the keyboard of this table's language.
    public var display: DisplayTexts { DisplayTexts(language: language) }
}

extension DisplayTexts: LanguageTable {
    private static func sizes(_ names: [String]) -> [TextSize] {
        zip(percents, names).map { TextSize(percent: $0, name: $1) }
    }

    /// QWERTY. English has no accented letters of its own, but names in English-speaking clinics often carry
    /// some (Zoë, Chloé, Núñez, François): the fourth row.
    public static let english = DisplayTexts(
        language: "en",
        textSize: "Text size",
        sizes: sizes(["Normal text", "Large text", "Largest text"]),
        contrast: "High contrast",
        keyboardLayout: "qwerty",
        letters: [
            ["q", "w", "e", "r", "t", "y", "u", "i", "o", "p"],
            ["a", "s", "d", "f", "g", "h", "j", "k", "l", "'"],
            ["z", "x", "c", "v", "b", "n", "m", "-"],
            ["á", "é", "è", "ë", "ï", "ó", "ñ", "ç"],
        ])

    /// QWERTZ, with ä, ö, ü and ß where a German keyboard has them.
    public static let german = DisplayTexts(
        language: "de",
        textSize: "Schriftgröße",
        sizes: sizes(["Normale Schrift", "Große Schrift", "Sehr große Schrift"]),
        contrast: "Hoher Kontrast",
        keyboardLayout: "qwertz",
        letters: [
            ["q", "w", "e", "r", "t", "z", "u", "i", "o", "p", "ü"],
            ["a", "s", "d", "f", "g", "h", "j", "k", "l", "ö", "ä"],
            ["y", "x", "c", "v", "b", "n", "m", "ß", "-", "'"],
        ])

    /// AZERTY, then the accented letters of French (é and è where they fit, the others in a row of their own).
    public static let french = DisplayTexts(
        language: "fr",
        textSize: "Taille du texte",
        sizes: sizes(["Texte normal", "Grand texte", "Très grand texte"]),
        contrast: "Contraste élevé",
        keyboardLayout: "azerty",
        letters: [
            ["a", "z", "e", "r", "t", "y", "u", "i", "o", "p"],
            ["q", "s", "d", "f", "g", "h", "j", "k", "l", "m"],
            ["w", "x", "c", "v", "b", "n", "'", "-", "é", "è"],
            ["à", "â", "ç", "ê", "ë", "î", "ï", "ô", "ù", "û", "ü", "œ"],
        ])
}
