import AgentProtocol
import Foundation
import NIOCore

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

    /// `rfc3339(milliseconds:)` as a JSON string, quotes included, written digit by digit into `buffer`: every ink
    /// line carries one, and the string version's interpolations cost more than the rest of the line's head.
    /// Outside years 0...9999 (and before 1970) it writes the string version.
    static func writeRFC3339String(milliseconds: Int64, to buffer: inout ByteBuffer) {
        var seconds = time_t(milliseconds / 1000)
        let millis = Int(milliseconds % 1000)
        var parts = tm()
        gmtime_r(&seconds, &parts)
        let year = Int(parts.tm_year) + 1900
        guard (0...9999).contains(year), millis >= 0 else {
            RPCValue.string(rfc3339(milliseconds: milliseconds)).write(to: &buffer)
            return
        }
        let fields: [(value: Int, width: Int, separator: UInt8)] = [
            (year, 4, UInt8(ascii: "-")), (Int(parts.tm_mon) + 1, 2, UInt8(ascii: "-")),
            (Int(parts.tm_mday), 2, UInt8(ascii: "T")), (Int(parts.tm_hour), 2, UInt8(ascii: ":")),
            (Int(parts.tm_min), 2, UInt8(ascii: ":")), (Int(parts.tm_sec), 2, UInt8(ascii: ".")),
            (millis, 3, UInt8(ascii: "Z")),
        ]
        // "YYYY-MM-DDTHH:MM:SS.mmmZ" and its quotes.
        buffer.writeWithUnsafeMutableBytes(minimumWritableBytes: 26) { bytes in
            var at = 0
            func put(_ byte: UInt8) {
                bytes[at] = byte
                at += 1
            }
            put(UInt8(ascii: "\""))
            for field in fields {
                var divisor = 1
                for _ in 1..<field.width { divisor *= 10 }
                var rest = field.value
                while divisor > 0 {
                    put(UInt8(ascii: "0") + UInt8(rest / divisor))
                    rest %= divisor
                    divisor /= 10
                }
                put(field.separator)
            }
            put(UInt8(ascii: "\""))
            return at
        }
    }
}
