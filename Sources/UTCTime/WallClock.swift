import Foundation

extension UTCTime {
    /// The fields a clock set to `zone` shows at `date`: the UTC fields of the instant moved by the zone's offset
    /// at that instant. Only the offset comes from the zone (its tzdata); the calendar is this module's arithmetic,
    /// so no `Calendar` is made per render.
    public init(wallClockOf date: Date, in zone: TimeZone) {
        self.init(wallClockOf: date, utcOffset: zone.secondsFromGMT(for: date))
    }

    /// The fields at a fixed offset east of UTC, in seconds.
    public init(wallClockOf date: Date, utcOffset seconds: Int) {
        self.init(secondsSince1970: date.timeIntervalSince1970 + Double(seconds))
    }

    /// The instant to the nearest millisecond, as Foundation's `ISO8601DateFormatter` took it: for the texts that
    /// printed whole seconds with it, so 59.9996 s still prints as the next second. (Every other rendering here
    /// truncates.)
    public init(nearestMillisecondTo date: Date) {
        let milliseconds = (date.timeIntervalSince1970 * 1000).rounded()
        let limit = Double(Self.millisecondLimit)
        self.init(millisecondsSince1970: milliseconds.isNaN ? 0 : Int64(min(max(milliseconds, -limit), limit)))
    }

    /// The calendar day of these fields.
    public var date: CivilDate { CivilDate(fields: (year, month, day)) }
}

extension CivilDate {
    /// Today's date in `zone` at `now`.
    public static func today(_ now: Date = Date(), in zone: TimeZone) -> CivilDate {
        UTCTime(wallClockOf: now, in: zone).date
    }
}
