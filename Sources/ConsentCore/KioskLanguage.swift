/// A language the kiosk has its own texts in, and the one rule that maps a language tag onto it: the tag's primary
/// subtag (`de-CH` → `de`, `fr_CA` → `fr`), English when the kiosk has no table for it.
public enum KioskLanguage: String, CaseIterable, Sendable {
    // English first: the fallback, and the order `BuiltInTexts.supportedLanguages` lists.
    case english = "en"
    case german = "de"
    case french = "fr"

    /// The language of a tag, or nil when the kiosk has no table for its primary subtag.
    public init?(exactly tag: String) {
        self.init(rawValue: Self.primarySubtag(of: tag))
    }

    /// The language of a tag; English when the kiosk has no table for it.
    public init(tag: String) {
        self = Self(exactly: tag) ?? .english
    }

    static func primarySubtag(of tag: String) -> String {
        String(tag.prefix { $0 != "-" && $0 != "_" }).lowercased()
    }
}

/// A table of texts with one value per `KioskLanguage`.
///
/// Every table type (`BuiltInTexts`, `ScreenTexts`, `UITexts`, `DisplayTexts`, `StaffTexts`, `ComprehensionTexts`,
/// ConsentPDF's `PDFBuiltInTexts`) conforms by spelling out one static value per language, so a language added to
/// `KioskLanguage` is a compile error until every table has it; which table a tag gets is decided here alone.
public protocol LanguageTable: Sendable {
    static var english: Self { get }
    static var german: Self { get }
    static var french: Self { get }
}

extension LanguageTable {
    /// The table of a language.
    public static func table(for language: KioskLanguage) -> Self {
        switch language {
        case .english: english
        case .german: german
        case .french: french
        }
    }

    /// The table of a language tag: by its primary subtag, English when there is none.
    public init(language tag: String) {
        self = Self.table(for: KioskLanguage(tag: tag))
    }
}
