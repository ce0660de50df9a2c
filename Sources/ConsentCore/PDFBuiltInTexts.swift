/// The texts the PDF adds to a study's own, in one language, with the order the signing date is written in.
///
/// Like `BuiltInTexts`: one table per language, in its file under `Languages/`, every member spelled out, English
/// for a language without a table. Here rather than in ConsentPDF so a language's one file can hold it.
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
    /// The reading copy (`copy.printBlank`): the mark at the head of every page, "NOT SIGNED: FOR READING ONLY".
    public var readingOnlyMark: String
    /// Its PDF subject.
    public var readingCopySubject: String
    /// "IRB approval {reference}", beside the study version under that mark.
    public var approvalTemplate: String
    public var dateStyle: DateStyle

    /// The signature captions and the signing role "Participant", of the same language.
    public var core: BuiltInTexts { BuiltInTexts(language: language) }

    public func pageFooter(page: Int, of count: Int) -> String {
        Placeholder.fill(pageFooterTemplate, [.page: "\(page)", .count: "\(count)"])
    }

    public func versionFooter(_ shortVersion: String) -> String {
        Placeholder.fill(versionFooterTemplate, [.version: shortVersion])
    }

    /// The line under a reading copy's mark: the study version and, when the kiosk checked one, the approval the
    /// version runs under ("Study version 3f2a9c1b · IRB approval IRB #2026-0042").
    public func readingCopyDetail(shortVersion: String, approvalReference: String?) -> String {
        let version = versionFooter(shortVersion)
        guard let approvalReference else { return version }
        return version + " \u{00B7} " + Placeholder.fill(approvalTemplate, [.reference: approvalReference])
    }
}
