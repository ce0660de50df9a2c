import NIOCore

/// How refused WebSocket upgrades and connections over the limit reach the log: the first one of a quiet spell at once, then at most one summary
/// line per `interval` with how many were refused and why. A refusal needs no token, so a line per refusal let any
/// local process fill the journal (500 lines in 0.6 s).
///
/// A value that returns what to log; `BridgeServer` keeps it behind a lock and writes the lines.
struct RefusalLog: Sendable {
    let interval: TimeAmount
    private var windowStart: NIODeadline?
    private var suppressed: [String: Int] = [:]

    init(interval: TimeAmount) { self.interval = interval }

    enum Line: Equatable {
        /// One refusal, the first after a quiet spell.
        case refused(String)
        /// Refusals not logged one by one since the last line, by reason.
        case summary(counts: [String: Int], seconds: Int64)
    }

    /// Counts a refusal at `now`; returns the lines to log now (none while a window is open).
    mutating func record(_ refusal: String, now: NIODeadline) -> [Line] {
        var lines = flush(now: now)
        if windowStart == nil {
            windowStart = now
            lines.append(.refused(refusal))
        } else {
            suppressed[refusal, default: 0] += 1
        }
        return lines
    }

    /// Ends a window that has run its interval: its summary, if anything was held back. Called on each refusal and
    /// by the server's timer, so a burst's count is logged even when no refusal follows it.
    mutating func flush(now: NIODeadline) -> [Line] {
        guard let start = windowStart, now - start >= interval else { return [] }
        windowStart = nil
        guard !suppressed.isEmpty else { return [] }
        let counts = suppressed
        suppressed = [:]
        return [.summary(counts: counts, seconds: (now - start).nanoseconds / 1_000_000_000)]
    }
}
