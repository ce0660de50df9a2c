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

    /// The buttons of `percents`, named in a language's words (a language file's `sizes`).
    static func sizes(_ names: [String]) -> [TextSize] {
        zip(percents, names).map { TextSize(percent: $0, name: $1) }
    }
}

extension UITexts {
    /// The display controls' words and the keyboard of this table's language.
    public var display: DisplayTexts { DisplayTexts(language: language) }
}
