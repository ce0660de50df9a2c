import Foundation
import UTCTime

/// Where the log's two times come from; tests inject fixed ones.
///
/// Both are kept because each answers a different question: UTC wall time says when (for people and for the
/// records' `signedAt`), the monotonic time says in which order and how long apart, even when NTP steps the
/// wall clock during a flow.
public struct AuditClock: Sendable {
    public var now: @Sendable () -> Date
    public var monotonicNanoseconds: @Sendable () -> UInt64

    public init(now: @escaping @Sendable () -> Date, monotonicNanoseconds: @escaping @Sendable () -> UInt64) {
        self.now = now
        self.monotonicNanoseconds = monotonicNanoseconds
    }

    /// The system clocks: `Date()` and CLOCK_MONOTONIC.
    public static let system = AuditClock(
        now: { Date() },
        monotonicNanoseconds: {
            var spec = timespec()
            _ = clock_gettime(CLOCK_MONOTONIC, &spec)
            return UInt64(spec.tv_sec) * 1_000_000_000 + UInt64(spec.tv_nsec)
        })

    /// UTC with milliseconds: `2026-09-14T10:15:30.123Z`.
    static func format(_ date: Date) -> String {
        UTCTime(secondsSince1970: date.timeIntervalSince1970).rfc3339Milliseconds
    }

    /// Parses a line's `time` (or a user's `--since`): RFC 3339 with or without fractions, or a bare date (UTC).
    public static func parse(_ text: String) -> Date? { RFC3339.dateOrDay(from: text) }

    /// The kernel's boot id (Linux), so `mono_ns` values are known to belong to one boot; nil elsewhere.
    public static func bootID() -> AuditIdentifier? {
        guard let text = try? String(contentsOfFile: "/proc/sys/kernel/random/boot_id", encoding: .utf8) else {
            return nil
        }
        return try? AuditIdentifier(text.trimmingCharacters(in: .whitespacesAndNewlines))
    }
}
