import Foundation

/// Renders signing instants as FHIR `instant`/`dateTime` strings, always in UTC with `Z`.
///
/// Two renderings exist because the two modes promise different things: R4 output uses milliseconds when there
/// are any (what servers and validators expect), while the STU3 compatibility mode reproduces Swift-FHIR's
/// rendering byte for byte (Swift-FHIR prints seconds with `%g`, so up to 6 significant digits).
public enum FHIRTime {
    /// `YYYY-MM-DDThh:mm:ss[.sss]Z`, the fraction truncated to milliseconds and left out when zero.
    public static func instant(_ date: Date) -> String {
        // Integer milliseconds first, so 59.9996 s never rounds up to a "60" second.
        let totalMilliseconds = Int64((date.timeIntervalSince1970 * 1000).rounded(.down))
        let (seconds, milliseconds) = floorDivision(totalMilliseconds, 1000)
        let base = dateAndTime(secondsSince1970: seconds)
        guard milliseconds != 0 else { return base.prefix + String(format: "%02d", base.second) + "Z" }
        var fraction = String(format: "%03d", milliseconds)
        while fraction.hasSuffix("0") { fraction.removeLast() }
        return base.prefix + String(format: "%02d", base.second) + "." + fraction + "Z"
    }

    /// Swift-FHIR's STU3 rendering: whole seconds as `ss`, fractional ones with `%g` zero-padded to two integer
    /// digits (`05.5`, `40.1235`).
    public static func stu3(_ date: Date) -> String {
        let interval = date.timeIntervalSince1970
        let wholeSeconds = Int64(interval.rounded(.down))
        let fraction = interval - Double(wholeSeconds)
        let base = dateAndTime(secondsSince1970: wholeSeconds)
        let secondValue = Double(base.second) + fraction
        if fraction == 0 {
            return base.prefix + String(format: "%02d", base.second) + "Z"
        }
        var rendered = String(format: "%g", secondValue)
        if secondValue < 10 { rendered = "0" + rendered }
        return base.prefix + rendered + "Z"
    }

    /// The UTC calendar year of an instant (the "current year" of the de-identification rule).
    public static func year(of date: Date) -> Int {
        let seconds = Int64((date.timeIntervalSince1970).rounded(.down))
        return civil(daysSince1970: floorDivision(seconds, 86_400).quotient).year
    }

    private static func dateAndTime(secondsSince1970 seconds: Int64) -> (prefix: String, second: Int) {
        let (days, secondOfDay) = floorDivision(seconds, 86_400)
        let (y, m, d) = civil(daysSince1970: days)
        let hour = Int(secondOfDay / 3600), minute = Int(secondOfDay % 3600 / 60), second = Int(secondOfDay % 60)
        let prefix = String(format: "%04d-%02d-%02dT%02d:%02d:", y, m, d, hour, minute)
        return (prefix, second)
    }

    /// Days since 1970-01-01 → proleptic Gregorian date (Howard Hinnant's `civil_from_days`), so rendering
    /// needs no Calendar, locale or time zone database.
    private static func civil(daysSince1970 days: Int64) -> (year: Int, month: Int, day: Int) {
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let doe = z - era * 146_097
        let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        let d = doy - (153 * mp + 2) / 5 + 1
        let m = mp < 10 ? mp + 3 : mp - 9
        let y = yoe + era * 400 + (m <= 2 ? 1 : 0)
        return (Int(y), Int(m), Int(d))
    }

    private static func floorDivision(_ a: Int64, _ b: Int64) -> (quotient: Int64, remainder: Int64) {
        var q = a / b, r = a % b
        if r < 0 {
            q -= 1
            r += b
        }
        return (q, r)
    }
}
