/// Text a person typed at the kiosk or for it: a signer's name, a staff note, a withdrawal reason, a staff
/// member's display name, a client's name. The one rule for what such text may hold, and its bounds.
///
/// Every such text goes into a record (the FHIR resources, the PDF) or a log, where a control character does harm:
/// a NUL cuts a C string short, a line break forges a log line, a bidi override (U+202E) shows `Ada evoL` as
/// `Ada Love` on paper while the record holds the other. So two rules:
///
/// - **Visible text** (notes, reasons, display names): no control characters at all. Refused: every `Cc` (C0, DEL,
///   C1: tabs and line breaks too, since each of these texts is one line), every `Cf` format character (the bidi
///   marks, embeddings, overrides and isolates U+200E/F, U+202A–E, U+2066–9, U+061C, the byte-order mark, the soft
///   hyphen, word joiners, tag characters) except the zero-width non-joiner and joiner (U+200C, U+200D), which
///   Persian and Indic spelling need; the line and paragraph separators (U+2028, U+2029); private-use and
///   unassigned code points (a font draws nothing for them, so what is printed is not what is kept).
/// - **A name** is visible text made only of letters (any script), combining marks, decimal digits (a few people's
///   legal names hold one, and refusing a real name is worse than keeping a digit), spaces, apostrophes (`'`, `’`),
///   hyphens (`-`, U+2010, U+2011), periods (initials, `St.`) and the middle dots of Catalan and Japanese (`·`,
///   `・`), with the joiners above, and at least one letter or digit. Nothing else: no commas, brackets, quotes, `@`
///   or symbols.
///
/// Lengths are bounded twice: in characters (what a person sees: grapheme clusters) and in UTF-8 bytes, so that one
/// character carrying hundreds of combining marks does not pass as short.
public enum EnteredText {
    /// Why a text was refused; the message names the rule, never the text.
    public enum Refusal: Error, Sendable, Hashable, CustomStringConvertible {
        /// A character of the refused kinds above (`scalar` is its code point, for tests and logs; never shown).
        case controlCharacter(scalar: UInt32)
        /// A visible character a name does not hold.
        case notInAName(scalar: UInt32)
        /// A name of punctuation, marks and spaces only.
        case noLetter
        case tooLong(maximumCharacters: Int)
        case tooManyBytes(maximumBytes: Int)

        public var description: String {
            switch self {
            case .controlCharacter:
                "holds a control or invisible formatting character (a line break, NUL, a bidi override); type it again"
            case .notInAName:
                "may hold only letters, marks, digits, spaces, apostrophes, hyphens and periods"
            case .noLetter:
                "must hold at least one letter"
            case .tooLong(let maximum):
                "may have at most \(maximum) characters"
            case .tooManyBytes(let maximum):
                "may have at most \(maximum) bytes (UTF-8)"
            }
        }
    }

    /// UTF-8 bytes allowed per character of a length limit: a letter with two accents written decomposed, or an
    /// Indic syllable of a consonant cluster and its vowel sign, takes five or six.
    public static let bytesPerCharacter = 6

    /// Checks a name (or one part of it: a given or a family name).
    public static func checkName(_ text: String, maximumCharacters: Int = 200) throws(Refusal) {
        try checkBounds(text, maximumCharacters: maximumCharacters)
        for scalar in text.unicodeScalars {
            if isControl(scalar) { throw .controlCharacter(scalar: scalar.value) }
            guard isNameScalar(scalar) else { throw .notInAName(scalar: scalar.value) }
        }
        guard text.unicodeScalars.contains(where: isLetterOrDigit) else { throw .noLetter }
    }

    /// Checks visible text on one line (a note, a reason, a display name).
    public static func checkVisible(_ text: String, maximumCharacters: Int) throws(Refusal) {
        try checkBounds(text, maximumCharacters: maximumCharacters)
        try checkNoControls(text)
    }

    /// Checks only that `text` holds no control character, whatever its length (a FHIR member of a patient's
    /// resource that the kiosk keeps as given: an identifier, an address line).
    public static func checkNoControls(_ text: String) throws(Refusal) {
        for scalar in text.unicodeScalars where isControl(scalar) {
            throw .controlCharacter(scalar: scalar.value)
        }
    }

    private static func checkBounds(_ text: String, maximumCharacters: Int) throws(Refusal) {
        // Bytes first: counting characters walks grapheme breaks, which costs more on a long text.
        let maximumBytes = maximumCharacters * bytesPerCharacter
        guard text.utf8.count <= maximumBytes else { throw .tooManyBytes(maximumBytes: maximumBytes) }
        guard text.count <= maximumCharacters else { throw .tooLong(maximumCharacters: maximumCharacters) }
    }

    /// The zero-width non-joiner and joiner: format characters that Persian, the Indic scripts and Sinhala spell with.
    static func isJoiner(_ scalar: Unicode.Scalar) -> Bool { scalar.value == 0x200C || scalar.value == 0x200D }

    /// A character of the refused kinds of visible text.
    ///
    /// Besides the categories, the default-ignorable characters that are no format character: the Hangul fillers
    /// (letters that draw nothing, so a name of them alone would print blank), the combining grapheme joiner and
    /// Khmer's two invisible vowels. Variation selectors stay (Mongolian's and the ideographic ones pick a glyph
    /// of the letter before them: names are written with them).
    public static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.properties.generalCategory {
        case .control, .lineSeparator, .paragraphSeparator, .privateUse, .unassigned, .surrogate: true
        case .format: !isJoiner(scalar)
        default: scalar.properties.isDefaultIgnorableCodePoint && !scalar.properties.isVariationSelector
        }
    }

    /// The punctuation a name may hold besides letters, marks, digits and spaces.
    static let namePunctuation: Set<UInt32> = [
        0x27, 0x2019,  // apostrophes: O'Brien, O’Brien (U+02BC and U+02BB are letters already)
        0x2D, 0x2010, 0x2011,  // hyphens: Jean-Luc
        0x2E,  // periods: J. R. R., St. John
        0xB7, 0x30FB,  // middle dots: Gal·la, ジョン・スミス
        0x05F3, 0x05F4, 0x05BE,  // Hebrew geresh, gershayim and maqaf: ג׳ון, Ben־David
        0x055A, 0x058A,  // Armenian apostrophe and hyphen
    ]

    static func isLetterOrDigit(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.properties.generalCategory {
        case .uppercaseLetter, .lowercaseLetter, .titlecaseLetter, .modifierLetter, .otherLetter, .decimalNumber: true
        default: false
        }
    }

    static func isNameScalar(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.properties.generalCategory {
        case .uppercaseLetter, .lowercaseLetter, .titlecaseLetter, .modifierLetter, .otherLetter,
            .nonspacingMark, .spacingMark, .enclosingMark, .decimalNumber, .spaceSeparator:
            true
        default:
            isJoiner(scalar) || namePunctuation.contains(scalar.value)
        }
    }
}
