import Foundation
import Testing

@testable import UploadQueue

@Suite struct BackoffTests {
    @Test(arguments: [(1, 1.0), (2, 2.0), (3, 4.0), (9, 256.0), (10, 300.0), (100, 300.0), (Int.max, 300.0)])
    func doublesFromOneSecondUpToFiveMinutes(attempts: Int, seconds: Double) {
        let delay = Backoff().delay(afterAttempts: attempts, random: 0)
        #expect(delay == .milliseconds(Int64(seconds * 1000)))
    }

    @Test func jitterOnlyShortensSoTheCapHolds() {
        let backoff = Backoff(jitter: 0.5)
        #expect(backoff.delay(afterAttempts: 1, random: 0.999_999) == .milliseconds(500))
        #expect(backoff.delay(afterAttempts: 20, random: 0.5) == .seconds(225))
        #expect(backoff.delay(afterAttempts: 20, random: 0) == .seconds(300))
        // Out-of-range randoms are clamped, never lengthen the delay.
        #expect(backoff.delay(afterAttempts: 1, random: -3) == .seconds(1))
    }

    @Test func invalidSettingsAreRefused() {
        for backoff in [
            Backoff(initial: .zero), Backoff(initial: .seconds(10), maximum: .seconds(1)), Backoff(multiplier: 0.5),
            Backoff(jitter: 1.5),
        ] {
            #expect(throws: UploadQueueError(.invalidConfiguration, "")) { try backoff.validate() }
        }
    }
}
