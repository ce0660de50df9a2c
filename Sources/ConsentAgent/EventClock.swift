import Foundation

/// The clocks events are stamped with, injectable so tests get fixed timestamps.
public struct EventClock: Sendable {
    public var wallMilliseconds: @Sendable () -> Int64
    public var monotonicMicroseconds: @Sendable () -> Int64

    public init(wallMilliseconds: @escaping @Sendable () -> Int64, monotonicMicroseconds: @escaping @Sendable () -> Int64) {
        self.wallMilliseconds = wallMilliseconds
        self.monotonicMicroseconds = monotonicMicroseconds
    }

    private static let start = ContinuousClock.now

    public static let system = EventClock(
        wallMilliseconds: { Int64((Date().timeIntervalSince1970 * 1000).rounded(.down)) },
        monotonicMicroseconds: {
            // Read `start` first: it is initialised lazily, and `now - start` would read `now` before it.
            let origin = start
            let elapsed = max(.zero, ContinuousClock.now - origin)
            return elapsed.components.seconds * 1_000_000 + elapsed.components.attoseconds / 1_000_000_000_000
        })

    /// RFC 3339 UTC with milliseconds ("2026-05-04T09:12:03.114Z"), computed without a formatter so it is cheap
    /// on the ink path and the same on every platform.
    public static func rfc3339(milliseconds: Int64) -> String {
        var seconds = time_t(milliseconds / 1000)
        let millis = Int(milliseconds % 1000)
        var parts = tm()
        gmtime_r(&seconds, &parts)
        func pad(_ v: Int32, _ width: Int) -> String {
            let s = String(v)
            return String(repeating: "0", count: max(0, width - s.count)) + s
        }
        let ms = String(millis)
        return "\(pad(parts.tm_year + 1900, 4))-\(pad(parts.tm_mon + 1, 2))-\(pad(parts.tm_mday, 2))T"
            + "\(pad(parts.tm_hour, 2)):\(pad(parts.tm_min, 2)):\(pad(parts.tm_sec, 2))."
            + String(repeating: "0", count: 3 - ms.count) + ms + "Z"
    }
}
