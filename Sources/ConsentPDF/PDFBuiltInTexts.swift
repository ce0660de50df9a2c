import ConsentCore

/// The texts the PDF adds to a study's own, in one language, with the order the signing date is written in.
///
/// Like ConsentCore's `BuiltInTexts`: one table per language (en, de, fr), every member spelled out, English for a
/// language without a table. English is `PDFTexts`, unchanged.
public struct PDFBuiltInTexts: Sendable, Hashable {
    /// How the date of signing is written; the time ("14:05", 24 h), zone and offset follow it in every language.
    public enum DateStyle: Sendable, Hashable {
        /// 2026-11-22 (ISO 8601: unambiguous for an audit, and what English records have always printed).
        case iso
        /// 22.11.2026
        case dayMonthYearDots
        /// 22/11/2026
        case dayMonthYearSlashes
    }

    public var language: String
    /// The signature captions and the signing role "Participant", from ConsentCore.
    public var core: BuiltInTexts
    public var participantMeaning: String
    public var witnessMeaning: String
    public var representativeMeaning: String
    /// A representative's block: "Relationship to the participant: Parent", "Signing on behalf of: <name>".
    public var relationshipCaption: String
    public var onBehalfOfCaption: String
    public var dateAndTimeCaption: String
    public var meaningLabel: String
    /// "Page {page} of {count}".
    public var pageFooterTemplate: String
    /// "Study version {version}".
    public var versionFooterTemplate: String
    public var subject: String
    public var unsignedSubject: String
    public var dateStyle: DateStyle

    public func pageFooter(page: Int, of count: Int) -> String {
        pageFooterTemplate.replacingOccurrences(of: "{page}", with: "\(page)")
            .replacingOccurrences(of: "{count}", with: "\(count)")
    }

    public func versionFooter(_ shortVersion: String) -> String {
        versionFooterTemplate.replacingOccurrences(of: "{version}", with: shortVersion)
    }
}

extension PDFBuiltInTexts: LanguageTable {
    public static let english = PDFBuiltInTexts(
        language: "en", core: .english, participantMeaning: PDFTexts.participantMeaning,
        witnessMeaning: PDFTexts.witnessMeaning, representativeMeaning: PDFTexts.representativeMeaning,
        relationshipCaption: PDFTexts.relationshipCaption, onBehalfOfCaption: PDFTexts.onBehalfOfCaption,
        dateAndTimeCaption: PDFTexts.dateAndTimeCaption, meaningLabel: PDFTexts.meaningLabel,
        pageFooterTemplate: "Page {page} of {count}",
        versionFooterTemplate: PDFTexts.versionFooter("{version}"), subject: PDFTexts.subject,
        unsignedSubject: PDFTexts.unsignedSubject(), dateStyle: .iso)

    public static let german = PDFBuiltInTexts(
        language: "de", core: .german,
        participantMeaning: "Mit der Unterschrift willigt die teilnehmende Person in die Teilnahme an dieser Forschungsstudie ein.",
        witnessMeaning:
            "Mit der Unterschrift bestätigt der Zeuge/die Zeugin, dass die teilnehmende Person diese Einwilligung in "
            + "seiner/ihrer Anwesenheit unterschrieben hat.",
        representativeMeaning:
            "Mit der Unterschrift willigt die gesetzliche Vertretung im Namen der teilnehmenden Person in die "
            + "Teilnahme an dieser Forschungsstudie ein.",
        relationshipCaption: "Beziehung zur teilnehmenden Person:", onBehalfOfCaption: "Unterschreibt im Namen von:",
        dateAndTimeCaption: "Datum und Uhrzeit", meaningLabel: "Bedeutung dieser Unterschrift:",
        pageFooterTemplate: "Seite {page} von {count}", versionFooterTemplate: "Studienversion {version}",
        subject: "Einwilligung in die Forschungsteilnahme",
        unsignedSubject: "Einwilligung in die Forschungsteilnahme (nicht unterschriebene Vorschau)",
        dateStyle: .dayMonthYearDots)

    public static let french = PDFBuiltInTexts(
        language: "fr", core: .french,
        participantMeaning: "Par sa signature, la personne participante consent à prendre part à cette étude de recherche.",
        witnessMeaning:
            "Par sa signature, le témoin atteste que la personne participante a signé ce consentement en sa présence.",
        representativeMeaning:
            "Par sa signature, le représentant légal consent, au nom de la personne participante, à sa participation "
            + "à cette étude de recherche.",
        relationshipCaption: "Lien avec le participant :", onBehalfOfCaption: "Signe au nom de :",
        dateAndTimeCaption: "Date et heure", meaningLabel: "Signification de cette signature :",
        pageFooterTemplate: "Page {page} sur {count}", versionFooterTemplate: "Version de l’étude {version}",
        subject: "Consentement à la recherche", unsignedSubject: "Consentement à la recherche (aperçu non signé)",
        dateStyle: .dayMonthYearSlashes)
}
