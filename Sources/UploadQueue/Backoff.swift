import Foundation

/// Capped exponential backoff with jitter: after the n-th failed attempt the entry waits
/// `min(maximum, initial × multiplier^(n−1))`, shortened by up to `jitter` of itself at random.
///
/// Jitter only ever shortens the delay, so `maximum` is a true cap; it spreads the retries of kiosks that lost
/// the same server at the same moment.
public struct Backoff: Sendable, Hashable {
    public var initial: Duration
    public var maximum: Duration
    public var multiplier: Double
    /// 0…1: the fraction of the delay that may be taken off at random.
    public var jitter: Double

    public init(
        initial: Duration = .seconds(1), maximum: Duration = .seconds(300), multiplier: Double = 2, jitter: Double = 0.2
    ) {
        self.initial = initial
        self.maximum = maximum
        self.multiplier = multiplier
        self.jitter = jitter
    }

    /// The delay after `attempts` failed attempts (1 for the first failure).
    ///
    /// - Parameter random: a number in 0..<1 (injected, so tests are deterministic).
    public func delay(afterAttempts attempts: Int, random: Double) -> Duration {
        let exponent = Double(max(0, attempts - 1))
        let initialSeconds = initial.seconds, maximumSeconds = maximum.seconds
        // pow overflows to +inf long before an Int would; min() then caps it.
        let raw = min(maximumSeconds, initialSeconds * pow(multiplier, exponent))
        let shortened = raw * (1 - jitter * min(max(random, 0), 1))
        return .milliseconds(Int64((max(shortened, 0) * 1000).rounded()))
    }

    func validate() throws {
        guard initial > .zero, maximum >= initial, multiplier >= 1, (0...1).contains(jitter) else {
            throw UploadQueueError(
                .invalidConfiguration,
                "the backoff needs 0 < initial ≤ maximum, a multiplier ≥ 1 and a jitter between 0 and 1")
        }
    }
}

extension Duration {
    /// The duration in seconds, as a Double.
    var seconds: Double {
        let (seconds, attoseconds) = components
        return Double(seconds) + Double(attoseconds) / 1e18
    }
}
