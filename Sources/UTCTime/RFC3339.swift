import Foundation

/// The one reader of RFC 3339 date-times: a record's `signedAt`, an offline session's times, an audit line's
/// `time` and a user's `--since`.
///
/// Reading goes through Foundation's `ISO8601DateFormatter`, as it always has, so what is accepted stays exactly
/// what was (writing never does: `UTCTime` writes). Formatters are not Sendable; one per call keeps this free of
/// shared mutable state, and nothing reads times on a hot path.
public enum RFC3339 {
    /// A date-time with or without fractional seconds, at any offset.
    public static func date(from text: String) -> Date? {
        let plain = ISO8601DateFormatter()
        plain.formatOptions = [.withInternetDateTime]
        if let date = plain.date(from: text) { return date }
        let fractional = ISO8601DateFormatter()
        fractional.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return fractional.date(from: text)
    }

    /// `date(from:)`, or else a bare `YYYY-MM-DD` read as that day's start in UTC.
    public static func dateOrDay(from text: String) -> Date? {
        if let date = date(from: text) { return date }
        let day = ISO8601DateFormatter()
        day.formatOptions = [.withFullDate]
        day.timeZone = TimeZone(identifier: "UTC")
        return day.date(from: text)
    }
}
