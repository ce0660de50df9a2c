import Foundation
import Testing
import UTCTime

/// The one reader of RFC 3339 times: records' `signedAt`, offline sessions, audit lines and `--since`.
@Suite struct RFC3339Tests {
    @Test func readsWholeAndFractionalSecondsAtAnyOffset() {
        let leapNoon = 1_709_208_000.0  // 2024-02-29T12:00:00Z
        #expect(RFC3339.date(from: "2024-02-29T12:00:00Z")?.timeIntervalSince1970 == leapNoon)
        #expect(RFC3339.date(from: "2024-02-29T12:00:00.5Z")?.timeIntervalSince1970 == leapNoon + 0.5)
        #expect(RFC3339.date(from: "2024-02-29T12:00:00.123Z")?.timeIntervalSince1970 == leapNoon + 0.123)
        #expect(RFC3339.date(from: "2024-02-29T13:00:00+01:00")?.timeIntervalSince1970 == leapNoon)
        #expect(RFC3339.date(from: "2024-02-29T17:30:00+05:30")?.timeIntervalSince1970 == leapNoon)
        #expect(RFC3339.date(from: "2024-02-29T07:00:00-05:00")?.timeIntervalSince1970 == leapNoon)
        // An offset that moves the instant over a year boundary.
        #expect(RFC3339.date(from: "2027-01-01T00:30:00+01:00")?.timeIntervalSince1970 == 1_798_759_800)
        // What UTCTime writes reads back to the millisecond.
        let written = UTCTime(millisecondsSince1970: 1_789_380_930_123).rfc3339Milliseconds
        #expect(RFC3339.date(from: written).map { ($0.timeIntervalSince1970 * 1000).rounded() } == 1_789_380_930_123)
    }

    @Test(arguments: [
        "", "2024-02-29", "2024-02-29T12:00:00", "2024-02-29 12:00:00Z", "2024-02-29t12:00:00z", "2024-02-29T12:00:60Z",
        "2024-02-29T12:00:00,5Z", "2024-02-29T12:00:00.Z", "20240229T120000Z", "yesterday",
    ])
    func refusesWhatIsNotADateTime(_ text: String) {
        #expect(RFC3339.date(from: text) == nil)
    }

    @Test func aBareDayIsItsStartInUTCOnlyWhereADayIsAllowed() {
        // An audit line's `time` or a `--since`: a date-time first, else a day.
        #expect(RFC3339.dateOrDay(from: "2024-02-29")?.timeIntervalSince1970 == 1_709_164_800)
        #expect(RFC3339.dateOrDay(from: "2025-01-01")?.timeIntervalSince1970 == 1_735_689_600)
        #expect(RFC3339.dateOrDay(from: "2024-02-29T12:00:00.5Z")?.timeIntervalSince1970 == 1_709_208_000.5)
        #expect(RFC3339.dateOrDay(from: "2024-02-29T13:00:00+01:00")?.timeIntervalSince1970 == 1_709_208_000)
        for text in ["", "20240229", "yesterday", "29.02.2024"] {
            #expect(RFC3339.dateOrDay(from: text) == nil, "\(text)")
        }
    }
}
