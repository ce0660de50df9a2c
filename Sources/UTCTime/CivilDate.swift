/// A day of the proleptic Gregorian calendar, the one home for "is this a real date" and "how many days apart":
/// study approvals' `approved`/`expires`, FHIR `date`s, today's date in a kiosk's zone.
///
/// Integer arithmetic only (Howard Hinnant's `days_from_civil`, the inverse of the one `UTCTime` uses), so a date
/// from a file is checked without a calendar object or a time zone database.
public struct CivilDate: Sendable, Hashable, Comparable {
    public let year: Int
    /// 1...12.
    public let month: Int
    /// 1...the month's length.
    public let day: Int

    /// Nil unless `month` is 1...12 and `day` is a day of that month in `year`.
    public init?(year: Int, month: Int, day: Int) {
        guard (1...12).contains(month), day >= 1, day <= Self.days(inMonth: month, of: year) else { return nil }
        self.year = year
        self.month = month
        self.day = day
    }

    /// Parses exactly `YYYY-MM-DD` (ASCII digits, a real day); nil for anything else, never a guess.
    public init?(_ text: String) {
        let bytes = Array(text.utf8)
        guard bytes.count == 10, bytes[4] == UInt8(ascii: "-"), bytes[7] == UInt8(ascii: "-") else { return nil }
        func number(_ range: Range<Int>) -> Int? {
            var n = 0
            for b in bytes[range] {
                guard (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(b) else { return nil }
                n = n * 10 + Int(b - UInt8(ascii: "0"))
            }
            return n
        }
        guard let y = number(0..<4), let m = number(5..<7), let d = number(8..<10) else { return nil }
        self.init(year: y, month: m, day: d)
    }

    /// The day `days` after 1970-01-01 (before it when negative).
    public init(daysSince1970 days: Int64) {
        self.init(fields: UTCTime.civil(daysSince1970: days))
    }

    /// Fields the arithmetic made, so already a real day.
    init(fields: (year: Int, month: Int, day: Int)) {
        (year, month, day) = fields
    }

    /// Days since 1970-01-01 (negative before it).
    public var daysSince1970: Int {
        let yy = month <= 2 ? year - 1 : year
        let era = (yy >= 0 ? yy : yy - 399) / 400
        let yoe = yy - era * 400
        let doy = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        return era * 146_097 + doe - 719_468
    }

    /// `YYYY-MM-DD`, the year zero-padded to four digits (what `init?(_:)` reads back).
    public var text: String {
        func two(_ n: Int) -> String { n < 10 ? "0\(n)" : "\(n)" }
        let digits = String(abs(year))
        let padded = String(repeating: "0", count: max(0, 4 - digits.count)) + digits
        return "\(year < 0 ? "-" : "")\(padded)-\(two(month))-\(two(day))"
    }

    public static func isLeap(_ year: Int) -> Bool { (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 }

    /// 28...31.
    public static func days(inMonth month: Int, of year: Int) -> Int {
        switch month {
        case 2: isLeap(year) ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }

    public static func < (lhs: CivilDate, rhs: CivilDate) -> Bool {
        (lhs.year, lhs.month, lhs.day) < (rhs.year, rhs.month, rhs.day)
    }
}
