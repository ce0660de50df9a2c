import Foundation
import Testing
import UTCTime

@Suite struct UTCTimeTests {
    @Test func knownInstants() {
        #expect(UTCTime(millisecondsSince1970: 0).rfc3339Milliseconds == "1970-01-01T00:00:00.000Z")
        #expect(UTCTime(millisecondsSince1970: 1_789_380_930_123).rfc3339Milliseconds == "2026-09-14T10:15:30.123Z")
        // A leap day, the last millisecond of a leap year, and 2000 (a leap year by the 400 rule).
        #expect(UTCTime(millisecondsSince1970: 1_709_208_000_000).rfc3339Milliseconds == "2024-02-29T12:00:00.000Z")
        #expect(UTCTime(millisecondsSince1970: 1_735_689_599_999).rfc3339Milliseconds == "2024-12-31T23:59:59.999Z")
        #expect(UTCTime(millisecondsSince1970: 951_782_400_000).rfc3339Milliseconds == "2000-02-29T00:00:00.000Z")
        #expect(UTCTime(millisecondsSince1970: 1_789_380_930_123).dateAndTime == "2026-09-14T10:15:30")
    }

    @Test func beforeTheEpochCountsBackwards() {
        // Floor division: one millisecond before the epoch is the last of 1969, not a negative field.
        let time = UTCTime(millisecondsSince1970: -1)
        #expect(time.rfc3339Milliseconds == "1969-12-31T23:59:59.999Z")
        #expect(time.millisecond == 999 && time.second == 59)
        #expect(UTCTime(millisecondsSince1970: -62_135_596_800_000).rfc3339Milliseconds == "0001-01-01T00:00:00.000Z")
    }

    @Test func fractionsAreTruncatedNotRounded() {
        // 59.9996 s must stay in second 59: rounding would print a "60".
        #expect(UTCTime(secondsSince1970: 59.9996).rfc3339Milliseconds == "1970-01-01T00:00:59.999Z")
        #expect(UTCTime(secondsSince1970: -0.0004).rfc3339Milliseconds == "1969-12-31T23:59:59.999Z")
    }

    @Test func absurdInputsNeitherTrapNorLeaveTheFieldRanges() {
        for seconds in [Double.nan, .infinity, -.infinity, 1e300, -1e300, Double.greatestFiniteMagnitude] {
            let time = UTCTime(secondsSince1970: seconds)
            #expect((1...12).contains(time.month) && (1...31).contains(time.day))
            #expect((0...23).contains(time.hour) && (0...59).contains(time.minute) && (0...59).contains(time.second))
        }
        #expect(UTCTime(secondsSince1970: .nan) == UTCTime(millisecondsSince1970: 0))
        for milliseconds in [Int64.max, Int64.min] {
            let time = UTCTime(millisecondsSince1970: milliseconds)
            #expect((1...12).contains(time.month) && (0...999).contains(time.millisecond))
        }
        // Years past 9999 and before year 0 keep every digit and their sign.
        #expect(UTCTime(millisecondsSince1970: 253_402_300_800_000).rfc3339Milliseconds == "10000-01-01T00:00:00.000Z")
        #expect(UTCTime(millisecondsSince1970: -62_198_755_200_000).rfc3339Milliseconds.hasPrefix("-0001-01-01T"))
    }

    @Test func theBytesWrittenAreTheString() {
        var buffer = [UInt8](repeating: 0, count: 30)
        for milliseconds: Int64 in [0, 1_789_380_930_123, 253_402_300_799_999, -1] {
            let time = UTCTime(millisecondsSince1970: milliseconds)
            let count = buffer.withUnsafeMutableBytes { time.writeRFC3339Milliseconds(into: $0) }
            #expect(count == 24)
            #expect(String(decoding: buffer.prefix(24), as: UTF8.self) == time.rfc3339Milliseconds)
        }
        // A five-digit year does not fit the fixed width, nor does a short buffer: nothing is written.
        var short = [UInt8](repeating: 0, count: 23)
        #expect(short.withUnsafeMutableBytes { UTCTime(millisecondsSince1970: 0).writeRFC3339Milliseconds(into: $0) } == nil)
        #expect(short.allSatisfy { $0 == 0 })
        #expect(buffer.withUnsafeMutableBytes {
            UTCTime(millisecondsSince1970: 253_402_300_800_000).writeRFC3339Milliseconds(into: $0)
        } == nil)
    }

    @Test func agreesWithFoundationsISO8601Formatter() {
        // What the audit log was stamped with before. Foundation rounds to the nearest millisecond where UTCTime
        // truncates, as the agent's events and the records' FHIR instants always have; 0.4 ms into each
        // millisecond the two agree, so the fields and digits are compared, not the rounding.
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        formatter.timeZone = TimeZone(identifier: "UTC")
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<2_000 {
            let milliseconds = Int64.random(in: 0...4_102_444_800_000, using: &generator)
            let date = Date(timeIntervalSince1970: (Double(milliseconds) + 0.4) / 1000)
            let time = UTCTime(secondsSince1970: date.timeIntervalSince1970)
            #expect(time == UTCTime(millisecondsSince1970: milliseconds))
            #expect(time.rfc3339Milliseconds == formatter.string(from: date))
        }
    }
}
