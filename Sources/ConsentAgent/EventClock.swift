import AgentProtocol
import Foundation
import NIOCore
import UTCTime

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

    /// RFC 3339 UTC with milliseconds ("2026-05-04T09:12:03.114Z").
    public static func rfc3339(milliseconds: Int64) -> String {
        UTCTime(millisecondsSince1970: milliseconds).rfc3339Milliseconds
    }

    /// `rfc3339(milliseconds:)` as a JSON string, quotes included, written digit by digit into `buffer`: every ink
    /// line carries one, and the string version's allocations cost more than the rest of the line's head.
    /// Outside years 0...9999 it writes the string version.
    static func writeRFC3339String(milliseconds: Int64, to buffer: inout ByteBuffer) {
        let time = UTCTime(millisecondsSince1970: milliseconds)
        // "YYYY-MM-DDTHH:MM:SS.mmmZ" and its quotes.
        let written = buffer.writeWithUnsafeMutableBytes(minimumWritableBytes: 26) { bytes in
            guard let count = time.writeRFC3339Milliseconds(into: UnsafeMutableRawBufferPointer(rebasing: bytes[1...]))
            else { return 0 }
            bytes[0] = UInt8(ascii: "\"")
            bytes[count + 1] = UInt8(ascii: "\"")
            return count + 2
        }
        if written == 0 { RPCValue.string(time.rfc3339Milliseconds).write(to: &buffer) }
    }
}
