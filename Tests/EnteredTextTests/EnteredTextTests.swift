import EnteredText
import Testing

/// The rule for typed text (Sources/EnteredText): real names of many scripts pass, control, bidi and invisible
/// formatting characters never do, and the bounds hold in characters and in bytes.
@Suite struct EnteredTextTests {
    /// Names as people write them: accents (composed and decomposed), apostrophes, hyphens, initials, particles,
    /// digits, and non-Latin scripts, with the joiners Persian and the Indic scripts spell with.
    static let realNames = [
        "Ada", "Lovelace", "O'Brien", "O’Connor", "Jean-Luc", "J. R. R.", "St. John", "de la Cruz", "Müller",
        "Mu\u{0308}ller", "Nguyễn", "Gal·la", "ジョン・スミス", "山田 太郎", "Łukasz", "Ørsted", "Þórunn", "Ngũgĩ",
        "Ιωάννης", "Иванов", "محمد", "نیک\u{200C}نام", "שרה", "देवनागरी", "ශ්\u{200D}රී", "Jennifer 8.", "ʻŌlelo",
        "Smith\u{2011}Jones", "Li\u{00A0}Na", "김민준", "ג׳ון", "בן־דוד", "Ter\u{055A}Petrosyan", "Ter\u{058A}Petrosyan",
        "\u{1828}\u{180B}\u{1821}", "葛\u{E0100}城",
    ]

    @Test(arguments: realNames) func aRealNamePasses(_ name: String) throws {
        try EnteredText.checkName(name)
        try EnteredText.checkVisible(name, maximumCharacters: 200)
    }

    /// NUL, the C0 and C1 controls, DEL, line breaks, tabs, every bidi mark, embedding, override and isolate, the
    /// byte-order mark, soft hyphen, word joiner, tag characters, the line and paragraph separators, private use;
    /// the Hangul fillers (letters that draw nothing), the combining grapheme joiner, Khmer's invisible vowels.
    static let controls: [UInt32] = [
        0x00, 0x01, 0x07, 0x08, 0x09, 0x0A, 0x0B, 0x0C, 0x0D, 0x1B, 0x1F, 0x7F, 0x80, 0x85, 0x9B, 0x9F,
        0x200E, 0x200F, 0x061C, 0x202A, 0x202B, 0x202C, 0x202D, 0x202E, 0x2066, 0x2067, 0x2068, 0x2069,
        0xFEFF, 0x00AD, 0x2060, 0x2061, 0x2064, 0x180E, 0xE0001, 0xE0041, 0x2028, 0x2029, 0xE000, 0xF8FF,
        0xFFFE, 0x10FFFF, 0xFFF9, 0x3164, 0xFFA0, 0x115F, 0x1160, 0x034F, 0x17B4, 0x17B5,
    ]

    @Test(arguments: controls) func aControlCharacterIsRefusedAnywhere(_ value: UInt32) throws {
        let scalar = try #require(Unicode.Scalar(value))
        for text in ["\(scalar)Ada", "Ada\(scalar)", "A\(scalar)da"] {
            #expect(throws: EnteredText.Refusal.controlCharacter(scalar: value)) { try EnteredText.checkName(text) }
            #expect(throws: EnteredText.Refusal.controlCharacter(scalar: value)) {
                try EnteredText.checkVisible(text, maximumCharacters: 200)
            }
            #expect(throws: EnteredText.Refusal.controlCharacter(scalar: value)) { try EnteredText.checkNoControls(text) }
        }
    }

    @Test func aNameHoldsNoOtherPunctuationOrSymbols() {
        for text in ["Ada, Lovelace", "Ada (Countess)", "\"Ada\"", "ada@example.org", "Ada <b>", "Ada;", "Ada_", "Ada/B",
            "Ada 😀", "Ada+1", "Ⅻ"]
        {
            #expect(throws: EnteredText.Refusal.self, "\(text)") { try EnteredText.checkName(text) }
        }
        for text in [".", "-", "' ", "\u{0301}", "\u{200D}"] {
            #expect(throws: EnteredText.Refusal.noLetter, "\(text.unicodeScalars.map(\.value))") {
                try EnteredText.checkName(text)
            }
        }
        // A note is any visible text.
        for text in ["Ada, Lovelace", "ID 4711 (passport), checked 😀", "Personalausweis – geprüft", "a\u{0301}"] {
            #expect(throws: Never.self) { try EnteredText.checkVisible(text, maximumCharacters: 200) }
        }
    }

    @Test func boundsAreCountedInCharactersAndInBytes() throws {
        try EnteredText.checkName(String(repeating: "a", count: 200))
        #expect(throws: EnteredText.Refusal.tooLong(maximumCharacters: 200)) {
            try EnteredText.checkName(String(repeating: "a", count: 201))
        }
        // 200 CJK characters are 600 bytes: within 200 characters' bytes.
        try EnteredText.checkName(String(repeating: "山", count: 200))
        // One character with 400 combining marks: one character long, 801 bytes.
        let piled = "a" + String(repeating: "\u{0301}", count: 400)
        #expect(piled.count == 1)
        #expect(throws: EnteredText.Refusal.tooManyBytes(maximumBytes: 120)) { try EnteredText.checkName(piled, maximumCharacters: 20) }
        // No length bound for a FHIR member only checked for controls.
        try EnteredText.checkNoControls(String(repeating: "x", count: 100_000))
    }

    @Test func theMessageNeverRepeatsTheText() {
        let refusals: [EnteredText.Refusal] = [
            .controlCharacter(scalar: 0x202E), .notInAName(scalar: 0x40), .noLetter, .tooLong(maximumCharacters: 5),
            .tooManyBytes(maximumBytes: 30),
        ]
        for refusal in refusals {
            #expect(!refusal.description.contains("202E") && !refusal.description.contains("@"))
        }
    }
}
