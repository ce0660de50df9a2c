import Foundation
import UTCTime

/// Renders signing instants as FHIR `instant`/`dateTime` strings, always in UTC with `Z`.
///
/// Two renderings exist because the two modes promise different things: R4 output uses milliseconds when there
/// are any (what servers and validators expect), while the STU3 compatibility mode reproduces Swift-FHIR's
/// rendering byte for byte (Swift-FHIR prints seconds with `%g`, so up to 6 significant digits).
public enum FHIRTime {
    /// `YYYY-MM-DDThh:mm:ss[.sss]Z`, the fraction truncated to milliseconds and left out when zero.
    public static func instant(_ date: Date) -> String {
        // Integer milliseconds first (UTCTime truncates), so 59.9996 s never rounds up to a "60" second.
        let time = UTCTime(secondsSince1970: date.timeIntervalSince1970)
        guard time.millisecond != 0 else { return time.dateAndTime + "Z" }
        var text = time.rfc3339Milliseconds
        text.removeLast()  // the "Z", put back after the fraction's trailing zeros go
        while text.hasSuffix("0") { text.removeLast() }
        return text + "Z"
    }

    /// Swift-FHIR's STU3 rendering: whole seconds as `ss`, fractional ones with `%g` zero-padded to two integer
    /// digits (`05.5`, `40.1235`).
    public static func stu3(_ date: Date) -> String {
        let interval = date.timeIntervalSince1970
        let wholeSeconds = interval.rounded(.down)
        let fraction = interval - wholeSeconds
        let time = UTCTime(secondsSince1970: wholeSeconds)
        if fraction == 0 { return time.dateAndTime + "Z" }
        // The date and time up to the minute ("YYYY-MM-DDThh:mm:"), then Swift-FHIR's seconds.
        let prefix = time.dateAndTime.dropLast(2)
        let secondValue = Double(time.second) + fraction
        var rendered = String(format: "%g", secondValue)
        if secondValue < 10 { rendered = "0" + rendered }
        return prefix + rendered + "Z"
    }

    /// The UTC calendar year of an instant (the "current year" of the de-identification rule).
    public static func year(of date: Date) -> Int {
        UTCTime(secondsSince1970: date.timeIntervalSince1970).year
    }
}
