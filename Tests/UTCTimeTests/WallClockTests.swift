import Foundation
import Testing
import UTCTime

/// The fields a kiosk's clock shows (the PDFs' signing time, today's date for approvals), and the whole-second
/// UTC text staff files and lock-outs print.
@Suite struct WallClockTests {
    static let berlin = TimeZone(identifier: "Europe/Berlin") ?? .gmt

    @Test func zonesMoveTheFieldsByTheirOffsetAtThatInstant() throws {
        // 2026-11-22T13:05:30Z: winter in Berlin (+01:00), India (+05:30), New York (-05:00).
        let instant = Date(timeIntervalSince1970: 1_795_352_730)
        #expect(UTCTime(wallClockOf: instant, in: Self.berlin).dateAndTime == "2026-11-22T14:05:30")
        #expect(UTCTime(wallClockOf: instant, in: try #require(TimeZone(identifier: "Asia/Kolkata"))).dateAndTime == "2026-11-22T18:35:30")
        #expect(UTCTime(wallClockOf: instant, in: try #require(TimeZone(identifier: "America/New_York"))).dateAndTime == "2026-11-22T08:05:30")
        #expect(UTCTime(wallClockOf: instant, utcOffset: 14 * 3600).dateAndTime == "2026-11-23T03:05:30")
        // Summer time: 2026-07-01T12:00:00Z is 14:00 in Berlin; the night the clocks go back, 00:59:59Z and
        // 01:00:00Z are 02:59:59 CEST and 02:00:00 CET.
        #expect(UTCTime(wallClockOf: Date(timeIntervalSince1970: 1_782_907_200), in: Self.berlin).dateAndTime == "2026-07-01T14:00:00")
        #expect(UTCTime(wallClockOf: Date(timeIntervalSince1970: 1_792_889_999), in: Self.berlin).dateAndTime == "2026-10-25T02:59:59")
        #expect(UTCTime(wallClockOf: Date(timeIntervalSince1970: 1_792_890_000), in: Self.berlin).dateAndTime == "2026-10-25T02:00:00")
        // A year boundary crossed by the offset alone.
        #expect(UTCTime(wallClockOf: Date(timeIntervalSince1970: 1_798_759_800), in: Self.berlin).dateAndTime == "2027-01-01T00:30:00")
    }

    @Test func agreesWithFoundationsCalendarInEveryZoneAKioskIsLikelyIn() throws {
        // What the PDFs' times and the approvals' today were computed with before: a Gregorian Calendar per zone.
        var generator = SystemRandomNumberGenerator()
        for identifier in ["Europe/Berlin", "Europe/Paris", "America/New_York", "Asia/Kolkata", "Australia/Adelaide", "UTC", "Pacific/Kiritimati"] {
            let zone = try #require(TimeZone(identifier: identifier))
            var calendar = Calendar(identifier: .gregorian)
            calendar.timeZone = zone
            for _ in 0..<500 {
                let date = Date(timeIntervalSince1970: Double.random(in: 0...4_102_444_800, using: &generator))
                let c = calendar.dateComponents([.year, .month, .day, .hour, .minute, .second], from: date)
                let time = UTCTime(wallClockOf: date, in: zone)
                #expect([time.year, time.month, time.day, time.hour, time.minute, time.second]
                    == [c.year, c.month, c.day, c.hour, c.minute, c.second].map { $0 ?? -1 }, "\(identifier) \(date)")
            }
        }
    }

    @Test func wholeSecondsAreWhatFoundationsFormatterPrinted() {
        // Staff files' `added` and a lock-out's `until` were printed by a default ISO8601DateFormatter, which takes
        // the instant to the nearest millisecond first: 59.9996 s is the next minute there, and still is.
        let formatter = ISO8601DateFormatter()
        for seconds in [0, 59.9994, 59.9996, 59.99951, 1_789_380_930.9999, 1_709_251_199.9996, 1_735_689_599.9995, 1_735_689_599.9994] {
            let date = Date(timeIntervalSince1970: seconds)
            #expect(UTCTime(nearestMillisecondTo: date).rfc3339Seconds == formatter.string(from: date), "\(seconds)")
        }
        #expect(UTCTime(nearestMillisecondTo: Date(timeIntervalSince1970: 1_735_689_599.9996)).rfc3339Seconds == "2025-01-01T00:00:00Z")
        #expect(UTCTime(millisecondsSince1970: 1_709_208_000_000).rfc3339Seconds == "2024-02-29T12:00:00Z")
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<2_000 {
            let date = Date(timeIntervalSince1970: Double.random(in: 0...4_102_444_800, using: &generator))
            #expect(UTCTime(nearestMillisecondTo: date).rfc3339Seconds == formatter.string(from: date), "\(date.timeIntervalSince1970)")
        }
        // Not a number and out of range neither trap nor leave the field ranges.
        for seconds in [Double.nan, .infinity, -.infinity] {
            let time = UTCTime(nearestMillisecondTo: Date(timeIntervalSince1970: seconds))
            #expect((1...12).contains(time.month) && (0...59).contains(time.second))
        }
    }
}
