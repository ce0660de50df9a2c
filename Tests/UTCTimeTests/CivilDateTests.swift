import Foundation
import Testing
import UTCTime

/// The calendar day approvals (`approved`, `expires`, today in the kiosk's zone) and FHIR `date`s are checked by.
@Suite struct CivilDateTests {
    @Test func daysCountAcrossMonthsLeapYearsAndTheEpoch() throws {
        #expect(CivilDate("1970-01-01")?.daysSince1970 == 0)
        #expect(CivilDate("1969-12-31")?.daysSince1970 == -1)
        #expect(CivilDate("2000-03-01")?.daysSince1970 == 11_017)
        // A leap day is a day; 2100 is not a leap year (100 rule), 2000 is (400 rule), 2023 is not.
        let leapDay = try #require(CivilDate("2024-02-29"))
        #expect(try #require(CivilDate("2024-03-01")).daysSince1970 - leapDay.daysSince1970 == 1)
        #expect(try #require(CivilDate("2024-02-28")).daysSince1970 - leapDay.daysSince1970 == -1)
        #expect(CivilDate("2023-02-29") == nil)
        #expect(CivilDate("2100-02-29") == nil)
        #expect(CivilDate("2000-02-29") != nil)
        // A year boundary: 365 days in 2023, 366 in 2024.
        let days = { (text: String) in CivilDate(text)?.daysSince1970 ?? .min }
        #expect(days("2024-01-01") - days("2023-12-31") == 1)
        #expect(days("2025-01-01") - days("2024-01-01") == 366)
        #expect(days("2024-01-01") - days("2023-01-01") == 365)
    }

    @Test func everyDayOfFourCenturiesReadsBackAndAgreesWithTheInstantsArithmetic() {
        // 1900-01-01 ... 2299-12-31: the day numbers, their text and UTCTime's fields at midnight all agree.
        var previous: Int?
        for number in -25_567..<120_530 {
            let date = CivilDate(daysSince1970: Int64(number))
            #expect(date.daysSince1970 == number)
            #expect(CivilDate(date.text) == date)
            let midnight = UTCTime(millisecondsSince1970: Int64(number) * 86_400_000)
            #expect(midnight.date == date && midnight.rfc3339Milliseconds.hasPrefix(date.text + "T00:00:00"))
            if let previous { #expect(date > CivilDate(daysSince1970: Int64(previous))) }
            previous = number
            #expect(CivilDate(year: date.year, month: date.month, day: date.day) == date)
        }
    }

    @Test(arguments: [
        "2026-02-30", "2026-04-31", "2026-13-01", "2026-00-10", "2026-01-00", "2026-01-32", "2026-1-01", "2026-01-1",
        "26-01-01", "2026/01/01", "2026-01-01T00:00:00Z", " 2026-01-01", "2026-01-01 ", "2026-01-01\n", "+026-01-01",
        "2026-0a-01", "２０２６-01-01", "", "2026-01", "2026",
    ])
    func refusesAnythingButARealDay(_ text: String) {
        #expect(CivilDate(text) == nil)
    }

    @Test func monthLengthsAndFields() {
        #expect((1...12).map { CivilDate.days(inMonth: $0, of: 2023) } == [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31])
        #expect(CivilDate.days(inMonth: 2, of: 2024) == 29 && CivilDate.days(inMonth: 2, of: 1900) == 28)
        #expect(CivilDate(year: 2024, month: 2, day: 29)?.text == "2024-02-29")
        #expect(CivilDate(year: 2023, month: 2, day: 29) == nil && CivilDate(year: 2023, month: 0, day: 1) == nil)
        // Years below 1000 keep four digits, as `YYYY-MM-DD` wants; the text reads back.
        #expect(CivilDate(year: 987, month: 6, day: 5)?.text == "0987-06-05")
        #expect(CivilDate("0000-02-29")?.year == 0)
    }

    @Test func todayIsTheDayInTheZoneNotInUTC() throws {
        // 2026-12-31T23:30Z: already the new year in Berlin, still the old one in New York.
        let instant = Date(timeIntervalSince1970: 1_798_759_800)
        let berlin = try #require(TimeZone(identifier: "Europe/Berlin"))
        let newYork = try #require(TimeZone(identifier: "America/New_York"))
        let utc = try #require(TimeZone(identifier: "UTC"))
        #expect(CivilDate.today(instant, in: berlin).text == "2027-01-01")
        #expect(CivilDate.today(instant, in: utc).text == "2026-12-31")
        #expect(CivilDate.today(instant, in: newYork).text == "2026-12-31")
        // A leap day ends at different instants in different zones.
        let leapNight = Date(timeIntervalSince1970: 1_709_244_000)  // 2024-02-29T22:00:00Z
        #expect(CivilDate.today(leapNight, in: utc).text == "2024-02-29")
        #expect(CivilDate.today(leapNight, in: berlin).text == "2024-02-29")
        #expect(CivilDate.today(leapNight, in: try #require(TimeZone(identifier: "Asia/Tokyo"))).text == "2024-03-01")
    }
}
