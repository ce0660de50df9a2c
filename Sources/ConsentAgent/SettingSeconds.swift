/// A setting given in seconds (a timeout, a grace period, a backoff, a recheck interval), from a config key or a
/// flag, as the `Duration` the agent waits.
///
/// Every such setting goes through here, so each has the same range and the same refusal: at least a millisecond
/// (the unit the agent converts to; a smaller positive value would become a wait of zero) and at most 366 days. The
/// upper bound is not a policy on how long a kiosk may wait: it keeps the conversion to whole milliseconds exact
/// and in range. Without it, `"inactivityTimeoutSeconds": 1e300` stopped consentd at start-up in a Double-to-Int64
/// trap instead of an error naming the key (found by the FuzzConfig target, docs/RELIABILITY.md).
public struct SettingSeconds: Sendable, Hashable {
    /// A millisecond.
    public static let minimum = 0.001
    /// 366 days, in seconds.
    public static let maximum = 31_622_400.0

    /// What a refused value breaks, phrased to follow the key or flag's name ("\"timeout\" must be …").
    public struct Refusal: Error, Sendable, Hashable {
        public let rule: String
    }

    public let duration: Duration

    /// - Throws: `Refusal` for a value that is not finite, not positive, below a millisecond or above 366 days.
    public init(_ seconds: Double) throws(Refusal) {
        guard seconds.isFinite, seconds > 0 else { throw Refusal(rule: "must be a positive number of seconds") }
        guard seconds >= Self.minimum else { throw Refusal(rule: "must be at least 0.001 seconds (a millisecond)") }
        guard seconds <= Self.maximum else { throw Refusal(rule: "must be at most 31622400 seconds (366 days)") }
        // In range, so the product is below 2^35 and converts exactly.
        duration = .milliseconds(Int64((seconds * 1000).rounded()))
    }
}
