import Foundation
import Testing

@testable import ConsentPDF

@Suite struct PDFOptionsTests {
    @Test(arguments: [
        ("en_US", PDFOptions.Paper.letter), ("en-CA", .letter), ("es_MX.UTF-8", .letter), ("fil_PH", .letter),
        ("en_GB", .a4), ("de-CH", .a4), ("fr_CA@euro", .letter), ("en", .a4), ("", .a4), ("C", .a4),
        ("zh_Hans_CN", .a4),
    ])
    func defaultPaperFollowsTheRegion(locale: String, paper: PDFOptions.Paper) {
        #expect(PDFOptions.defaultPaper(forLocale: locale) == paper)
        #expect(PDFOptions(localeIdentifier: locale).paper == paper)
    }

    @Test func anExplicitPaperWins() {
        #expect(PDFOptions(paper: .a4, localeIdentifier: "en_US").paper == .a4)
    }
}

@Suite struct SigningTimeTests {
    @Test(arguments: [
        ("Europe/Berlin", "2026-11-22 14:05 CET (UTC+01:00)"),
        ("America/New_York", "2026-11-22 08:05 EST (UTC-05:00)"),
        ("Asia/Kolkata", "2026-11-22 18:35 IST (UTC+05:30)"),
        ("UTC", "2026-11-22 13:05 GMT (UTC+00:00)"),  // Foundation names UTC "GMT"
    ])
    func showsZoneAbbreviationAndOffset(zone: String, expected: String) throws {
        let timeZone = try #require(TimeZone(identifier: zone))
        #expect(SigningTime.format(Fixtures.signedAt, in: timeZone) == expected)
    }

    @Test func summerTimeUsesTheDaylightAbbreviation() throws {
        let july = Date(timeIntervalSince1970: 1_784_628_000)  // 2026-07-21 10:00 UTC
        #expect(SigningTime.format(july, in: try #require(TimeZone(identifier: "Europe/Berlin"))) == "2026-07-21 12:00 CEST (UTC+02:00)")
    }

    @Test func aFixedOffsetZoneShowsTheOffsetOnly() throws {
        let zone = try #require(TimeZone(secondsFromGMT: -3 * 3600 - 1800))
        #expect(SigningTime.format(Fixtures.signedAt, in: zone) == "2026-11-22 09:35 (UTC-03:30)")
    }
}
