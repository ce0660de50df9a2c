/// An instant's UTC calendar fields and their RFC 3339 text, computed with integer arithmetic: no formatter, no
/// calendar, no time zone database. The one home for writing an instant as text: the audit log stamps every
/// line with it, the agent every event, the records their FHIR instants, the PDFs their signing time (in the
/// kiosk's zone, `init(wallClockOf:in:)`). Its module also holds the calendar day (`CivilDate`) and the one
/// RFC 3339 reader (`RFC3339`).
///
/// Foundation's `ISO8601DateFormatter` builds an ICU calendar and date format for each instance; one per audit
/// line was a tenth of the agent's CPU time in a consent.
public struct UTCTime: Sendable, Hashable {
    /// Proleptic Gregorian; below 1 or above 9999 only for instants no clock gives.
    public let year: Int
    /// 1...12.
    public let month: Int
    /// 1...31.
    public let day: Int
    public let hour: Int
    public let minute: Int
    /// 0...59: the arithmetic knows no leap seconds, as POSIX time does not.
    public let second: Int
    /// 0...999.
    public let millisecond: Int

    /// The bound `init(secondsSince1970:)` clamps to, in milliseconds: about 31,700 years either side of 1970, far
    /// beyond any clock and far inside Int64.
    static let millisecondLimit: Int64 = 1_000_000_000_000_000

    /// The instant `milliseconds` after 1970-01-01T00:00:00Z (before it when negative).
    public init(millisecondsSince1970 milliseconds: Int64) {
        let clamped = min(max(milliseconds, -Self.millisecondLimit), Self.millisecondLimit)
        let (seconds, millis) = Self.floorDivision(clamped, 1000)
        let (days, secondOfDay) = Self.floorDivision(seconds, 86_400)
        (year, month, day) = Self.civil(daysSince1970: days)
        hour = Int(secondOfDay / 3600)
        minute = Int(secondOfDay % 3600 / 60)
        second = Int(secondOfDay % 60)
        millisecond = Int(millis)
    }

    /// The instant `seconds` after the epoch, its fraction truncated to milliseconds: rounding could turn 59.9996 s
    /// into a "60" second. NaN reads as the epoch and out-of-range values clamp, so no input traps.
    public init(secondsSince1970 seconds: Double) {
        let milliseconds = (seconds * 1000).rounded(.down)
        let limit = Double(Self.millisecondLimit)
        self.init(millisecondsSince1970: milliseconds.isNaN ? 0 : Int64(min(max(milliseconds, -limit), limit)))
    }

    /// `YYYY-MM-DDThh:mm:ss.sssZ`, e.g. `2026-09-14T10:15:30.123Z`.
    public var rfc3339Milliseconds: String {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(24)
        appendDateAndTime(to: &bytes)
        bytes.append(UInt8(ascii: "."))
        Self.append(millisecond, width: 3, to: &bytes)
        bytes.append(UInt8(ascii: "Z"))
        return String(decoding: bytes, as: UTF8.self)
    }

    /// `YYYY-MM-DDThh:mm:ssZ`, whole seconds, e.g. `2026-09-14T10:15:30Z`.
    public var rfc3339Seconds: String { dateAndTime + "Z" }

    /// `YYYY-MM-DDThh:mm:ss`, without fraction or zone, for renderings that add their own.
    public var dateAndTime: String {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(19)
        appendDateAndTime(to: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Writes `rfc3339Milliseconds` (24 bytes) at the start of `buffer` and returns 24, with no String made: every
    /// ink event carries one. Nil, with nothing written, for a year outside 0...9999 (its text is longer) or a
    /// buffer shorter than 24 bytes.
    public func writeRFC3339Milliseconds(into buffer: UnsafeMutableRawBufferPointer) -> Int? {
        guard (0...9999).contains(year), buffer.count >= 24 else { return nil }
        var at = 0
        func put(_ value: Int, width: Int, then separator: UInt8) {
            var divisor = 1
            for _ in 1..<width { divisor *= 10 }
            var rest = value
            while divisor > 0 {
                buffer[at] = UInt8(ascii: "0") + UInt8(rest / divisor)
                rest %= divisor
                divisor /= 10
                at += 1
            }
            buffer[at] = separator
            at += 1
        }
        put(year, width: 4, then: UInt8(ascii: "-"))
        put(month, width: 2, then: UInt8(ascii: "-"))
        put(day, width: 2, then: UInt8(ascii: "T"))
        put(hour, width: 2, then: UInt8(ascii: ":"))
        put(minute, width: 2, then: UInt8(ascii: ":"))
        put(second, width: 2, then: UInt8(ascii: "."))
        put(millisecond, width: 3, then: UInt8(ascii: "Z"))
        return at
    }

    private func appendDateAndTime(to bytes: inout [UInt8]) {
        if year < 0 { bytes.append(UInt8(ascii: "-")) }
        Self.append(abs(year), width: 4, to: &bytes)
        bytes.append(UInt8(ascii: "-"))
        Self.append(month, width: 2, to: &bytes)
        bytes.append(UInt8(ascii: "-"))
        Self.append(day, width: 2, to: &bytes)
        bytes.append(UInt8(ascii: "T"))
        Self.append(hour, width: 2, to: &bytes)
        bytes.append(UInt8(ascii: ":"))
        Self.append(minute, width: 2, to: &bytes)
        bytes.append(UInt8(ascii: ":"))
        Self.append(second, width: 2, to: &bytes)
    }

    /// A non-negative value in decimal, zero-padded to at least `width` digits.
    private static func append(_ value: Int, width: Int, to bytes: inout [UInt8]) {
        var divisor = 1, digits = 1
        while value / divisor >= 10 {
            divisor *= 10
            digits += 1
        }
        if digits < width { bytes.append(contentsOf: repeatElement(UInt8(ascii: "0"), count: width - digits)) }
        var rest = value
        while divisor > 0 {
            bytes.append(UInt8(ascii: "0") + UInt8(rest / divisor))
            rest %= divisor
            divisor /= 10
        }
    }

    /// Days since 1970-01-01 → proleptic Gregorian date (Howard Hinnant's `civil_from_days`).
    static func civil(daysSince1970 days: Int64) -> (year: Int, month: Int, day: Int) {
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
