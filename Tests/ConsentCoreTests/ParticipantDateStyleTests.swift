import ConsentCore
import Foundation
import SampleStudy
import Testing

/// The days a participant reads: written as their language writes a day in a sentence, from the locale data of
/// Foundation (ICU), in the kiosk's time zone; records keep `YYYY-MM-DD`.
@Suite struct ParticipantDateStyleTests {
    /// 2026-11-27T12:00:00Z.
    static let noon = Date(timeIntervalSince1970: 1_795_780_800)
    static let utc = TimeZone(identifier: "UTC") ?? .current

    @Test(arguments: [
        ("de", "27. November 2026"), ("fr", "27 novembre 2026"), ("en", "November 27, 2026"),
        ("de-CH", "27. November 2026"), ("fr-CA", "27 novembre 2026"),
    ])
    func aDayIsWrittenAsTheLanguageWritesIt(_ language: String, _ expected: String) {
        #expect(ParticipantDateStyle(timeZone: Self.utc).text(Self.noon, language: language) == expected)
    }

    @Test func theConfiguredLocalePicksTheRegionsConventionsOfItsOwnLanguageOnly() {
        let british = ParticipantDateStyle(timeZone: Self.utc, localeIdentifier: "en_GB")
        #expect(british.text(Self.noon, language: "en") == "27 November 2026")
        // A German sentence stays German whatever the kiosk's locale.
        #expect(british.text(Self.noon, language: "de") == "27. November 2026")
        #expect(ParticipantDateStyle(timeZone: Self.utc, localeIdentifier: "fr_CA.UTF-8").text(Self.noon, language: "en")
            == "November 27, 2026")
        // No language at all is English, never ICU's root locale ("2026 M11 27").
        #expect(ParticipantDateStyle(timeZone: Self.utc).text(Self.noon, language: "") == "November 27, 2026")
    }

    @Test func theDayIsTheKiosksNotUTCs() throws {
        // 23:30 UTC is already the next day in Berlin, and still the same day in New York.
        let late = Self.noon.addingTimeInterval(11.5 * 3600)
        let berlin = ParticipantDateStyle(timeZone: try #require(TimeZone(identifier: "Europe/Berlin")))
        #expect(berlin.text(late, language: "de") == "28. November 2026")
        let newYork = ParticipantDateStyle(timeZone: try #require(TimeZone(identifier: "America/New_York")))
        #expect(newYork.text(late, language: "en") == "November 27, 2026")
    }

    static func study(_ language: String) throws -> Study {
        let study = try Study.load(from: try #require(SampleStudy.folder))
        return try #require(study.inLanguage(language))
    }

    @Test func theGermanWithdrawalTextNamesTheDayInWordsAndQuotesTheStudy() throws {
        let target = WithdrawalTarget(
            recordID: "r-1", studyTitle: "Studie Heartbeat & Sleep", signedOn: "2026-11-27",
            signedOnText: "27. November 2026")
        var session = ConsentSession(id: "f", study: try Self.study("de"), now: .zero, purpose: .withdrawal(target))
        let view = try #require(session.viewModel.withdrawal)
        #expect(view.text.contains("am 27. November 2026 für „Studie Heartbeat & Sleep“ gegeben"), "\(view.text)")
        #expect(!view.text.contains("2026-11-27"))
        // The machine-readable day stays as it was.
        #expect(view.signedOn == "2026-11-27")
        // The withdrawal document (its PDF) says the same day in words.
        try session.apply(.confirmWithdrawal(reason: nil), now: .zero)
        try session.apply(.setName(given: "Ada", family: "Lovelace"), now: .zero)
        try session.apply(
            .submitSignature(SignatureStrokes(strokes: [[StrokePoint(x: 0.1, y: 0.2, t: 0, p: 0.5), StrokePoint(x: 0.3, y: 0.4, t: 16, p: nil)]])),
            now: .zero)
        let link = try #require(try session.outcome().link)
        #expect(link.signedOn == "27. November 2026")
        let document = BuiltInTexts.german.withdrawalDocumentText(
            studyTitle: "Studie Heartbeat & Sleep", signedOn: link.signedOn ?? "", record: "r-1")
        #expect(document.contains("am 27. November 2026 für „Studie Heartbeat & Sleep“"), "\(document)")
    }

    @Test func theFrenchWithdrawalTextNamesTheDayInWords() throws {
        let target = WithdrawalTarget(
            recordID: "r-1", studyTitle: "Étude Heartbeat & Sleep", signedOn: "2026-11-27", signedOnText: "27 novembre 2026")
        let session = ConsentSession(id: "f", study: try Self.study("fr"), now: .zero, purpose: .withdrawal(target))
        let text = try #require(session.viewModel.withdrawal?.text)
        #expect(text.contains("le 27 novembre 2026 pour « Étude Heartbeat & Sleep »"), "\(text)")
    }

    @Test(arguments: [("de", "am 27. November 2026 unterschrieben"), ("fr", "signé le 27 novembre 2026"), ("en", "on November 27, 2026")])
    func theReconsentTextNamesTheDayOfThePreviousSignature(_ language: String, _ expected: String) throws {
        for changes in [ConsentDocumentDiff(), nil] {
            let basis = ReconsentBasis(
                previousRecordID: "r-1", changes: changes,
                previousSignedOnText: ParticipantDateStyle(timeZone: Self.utc).text(Self.noon, language: language))
            let session = ConsentSession(id: "f", study: try Self.study(language), now: .zero, purpose: .reconsent(basis))
            let text = try #require(session.viewModel.changes?.text)
            #expect(text.contains(expected), "\(text)")
            #expect(!text.contains("{date}"))
        }
        // A previous record whose day is unknown keeps the text without a day.
        let unknown = ConsentSession(
            id: "f", study: try Self.study(language), now: .zero,
            purpose: .reconsent(ReconsentBasis(previousRecordID: "r-1", changes: nil)))
        #expect(unknown.viewModel.changes?.text == BuiltInTexts(language: language).changesUnknownText)
    }
}
