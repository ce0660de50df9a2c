/// Everything the kiosk says in one language: the consent's built-in texts, the controls and closing screens, the
/// UI's words, the display controls and the touch keyboard (its layout's name and letters), the staff step, the
/// comprehension check, the PDF's and the record's texts, and the eSpeak NG voice that reads them aloud.
///
/// Each language is one file beside this one (`English.swift`, `German.swift`, …) that builds one pack with every
/// member spelled out: the memberwise initialiser has no defaults, so a language without a table does not compile,
/// and `LanguagePackTests` refuses one whose tables lack an entry English has or use a placeholder English does not.
/// Adding a language is copying one of those files and adding its line to `all` (docs/UI-DEVELOPERS.md, "Texts").
public struct KioskLanguagePack: Sendable {
    /// The primary language subtag the pack speaks (`de`): a flow in `de-CH` gets it.
    public let tag: String
    /// The eSpeak NG voice that reads this language aloud (a voice file's name in espeak-ng-data, which
    /// `espeak_SetVoiceByName` matches: `en-us` is `gmw/en-US`).
    public let voice: String
    public let builtIn: BuiltInTexts
    public let screen: ScreenTexts
    public let ui: UITexts
    /// The display controls' words and the touch keyboard (`keyboardLayout`, `letters`).
    public let display: DisplayTexts
    public let staff: StaffTexts
    public let comprehension: ComprehensionTexts
    public let pdf: PDFBuiltInTexts

    init(
        tag: String, voice: String, builtIn: BuiltInTexts, screen: ScreenTexts, ui: UITexts, display: DisplayTexts,
        staff: StaffTexts, comprehension: ComprehensionTexts, pdf: PDFBuiltInTexts
    ) {
        self.tag = tag
        self.voice = voice
        self.builtIn = builtIn
        self.screen = screen
        self.ui = ui
        self.display = display
        self.staff = staff
        self.comprehension = comprehension
        self.pdf = pdf
    }

    /// This pack with some of its tables replaced: how a test shows what a changed built-in text does (a sealed
    /// study's `ScreensDigest` no longer matching). The kiosk itself only speaks the packs of `all`.
    public func replacing(builtIn: BuiltInTexts? = nil, screen: ScreenTexts? = nil, ui: UITexts? = nil, voice: String? = nil)
        -> KioskLanguagePack
    {
        KioskLanguagePack(
            tag: tag, voice: voice ?? self.voice, builtIn: builtIn ?? self.builtIn, screen: screen ?? self.screen,
            ui: ui ?? self.ui, display: display, staff: staff, comprehension: comprehension, pdf: pdf)
    }
}

extension KioskLanguagePack {
    /// The languages the kiosk speaks, English first: the fallback, and the order `study.get` and
    /// `BuiltInTexts.supportedLanguages` list them in. One line per language, its file beside this one.
    public static let all: [KioskLanguagePack] = [
        .english,
        .german,
        .french,
        .spanish,
    ]

    /// The pack of each primary subtag, built once on first use.
    private static let byTag: [String: KioskLanguagePack] = Dictionary(
        all.map { ($0.tag, $0) }, uniquingKeysWith: { first, _ in first })

    /// The pack of a language tag by its primary subtag (`de-CH` → `de`, `fr_CA` → `fr`), or nil when the kiosk
    /// has no texts in that language.
    public static func exactly(_ tag: String) -> KioskLanguagePack? {
        byTag[primarySubtag(of: tag)]
    }

    /// The pack of a language tag; English when the kiosk has no texts in it.
    public static func pack(for tag: String) -> KioskLanguagePack {
        exactly(tag) ?? .english
    }

    static func primarySubtag(of tag: String) -> String {
        String(tag.prefix { $0 != "-" && $0 != "_" }).lowercased()
    }
}

/// One of the tables a `KioskLanguagePack` holds (`BuiltInTexts`, `ScreenTexts`, `UITexts`, `DisplayTexts`,
/// `StaffTexts`, `ComprehensionTexts`, `PDFBuiltInTexts`): a table is found through its language's pack, so which
/// table a tag gets is decided in `KioskLanguagePack.pack(for:)` alone.
public protocol LanguageTable: Sendable {
    /// Where the table sits in a pack.
    static var inPack: KeyPath<KioskLanguagePack, Self> { get }
}

extension LanguageTable {
    /// The table of a language tag: by its primary subtag, English when the kiosk has none.
    public init(language tag: String) {
        self = KioskLanguagePack.pack(for: tag)[keyPath: Self.inPack]
    }

    /// The English table: the fallback, and the words ResearchKit and C3-PRO ship (tests pin them).
    public static var english: Self { KioskLanguagePack.english[keyPath: inPack] }
    public static var german: Self { KioskLanguagePack.german[keyPath: inPack] }
    public static var french: Self { KioskLanguagePack.french[keyPath: inPack] }
}

extension BuiltInTexts: LanguageTable { public static var inPack: KeyPath<KioskLanguagePack, Self> { \.builtIn } }
extension ScreenTexts: LanguageTable { public static var inPack: KeyPath<KioskLanguagePack, Self> { \.screen } }
extension UITexts: LanguageTable { public static var inPack: KeyPath<KioskLanguagePack, Self> { \.ui } }
extension DisplayTexts: LanguageTable { public static var inPack: KeyPath<KioskLanguagePack, Self> { \.display } }
extension StaffTexts: LanguageTable { public static var inPack: KeyPath<KioskLanguagePack, Self> { \.staff } }
extension ComprehensionTexts: LanguageTable {
    public static var inPack: KeyPath<KioskLanguagePack, Self> { \.comprehension }
}
extension PDFBuiltInTexts: LanguageTable { public static var inPack: KeyPath<KioskLanguagePack, Self> { \.pdf } }
