import Foundation

/// How a day is written in a sentence a participant reads: "27. November 2026", "27 novembre 2026",
/// "November 27, 2026".
///
/// Records keep their days machine-readable (`YYYY-MM-DD`, `withdrawal.signedOn`); the withdrawal and re-consent
/// texts and the withdrawal document's prose write the day as the sentence's language writes it, from ICU's locale
/// data (Foundation's long date style), so no language needs a month table of its own here. The day is the one of
/// the kiosk's time zone (the configuration's `timeZone`), the zone the PDF prints the signing time in: a consent
/// signed at 23:30 in New York was given that day, not on the next UTC one.
public struct ParticipantDateStyle: Sendable, Hashable {
    /// The zone whose calendar day is named.
    public var timeZone: TimeZone
    /// The kiosk's configured locale (`locale`: `en_GB`, `de-CH`). Its region picks among the conventions of its
    /// language ("27 November 2026" in `en_GB`) when it speaks the sentence's language; it never changes the
    /// language, which is the flow's.
    public var localeIdentifier: String?

    public init(timeZone: TimeZone = .current, localeIdentifier: String? = nil) {
        self.timeZone = timeZone
        self.localeIdentifier = localeIdentifier
    }

    /// `date` as a sentence in `language` (a language tag: `de`, `fr-CA`, `en`) writes it.
    public func text(_ date: Date, language: String) -> String {
        // Gregorian whatever the locale's default: the day must be the one the record's UTC instant and the PDF
        // name, and the kiosk's languages (BuiltInTexts) all write Gregorian dates.
        let style = Date.FormatStyle(
            date: .long, time: .omitted, locale: locale(for: language), calendar: Calendar(identifier: .gregorian),
            timeZone: timeZone)
        return date.formatted(style)
    }

    /// The locale of a sentence in `language`: the language tag itself, with the configured locale's region when
    /// that locale speaks the same language and the tag names no region of its own.
    func locale(for language: String) -> Locale {
        // An empty identifier would give ICU's root locale ("2026 M11 27"), which no participant writes.
        let tag = language.isEmpty ? BuiltInTexts.fallbackLanguage : language
        let wanted = Locale(identifier: tag)
        guard wanted.region == nil, let localeIdentifier else { return wanted }
        let configured = Locale(identifier: localeIdentifier)
        guard let code = wanted.language.languageCode, configured.language.languageCode == code,
            let region = configured.region
        else { return wanted }
        return Locale(identifier: "\(code.identifier)_\(region.identifier)")
    }
}
