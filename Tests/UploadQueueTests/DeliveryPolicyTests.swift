import Foundation
import Testing

@testable import UploadQueue

@Suite struct DeliveryPolicyTests {
    let policy = DeliveryPolicy(backoff: Backoff(initial: .seconds(1), maximum: .seconds(300), jitter: 0.2))
    let now = Date(timeIntervalSince1970: 1_789_380_930)
    var entry: QueueEntry {
        QueueEntry(sequence: 1, recordID: "r1", recordDirectory: "/s/records/r1", target: .bundle, enqueuedAt: now)
    }

    @Test func acknowledgedRemoves() {
        #expect(policy.action(after: .acknowledged, for: entry, now: now, random: 0) == .remove)
    }

    @Test func retryCountsTheAttemptAndSchedulesWithJitter() {
        var current = entry
        var delays: [TimeInterval] = []
        for _ in 0..<4 {
            let action = policy.action(
                after: .retry(UploadQueueError(.serverError, "HTTP 503"), httpStatus: 503, retryAfter: nil), for: current,
                now: now, random: 0.5)
            guard case .retry(let next) = action else {
                Issue.record("a 503 is retried")
                return
            }
            delays.append(next.nextAttemptAt.timeIntervalSince(now))
            current = next
        }
        #expect(delays.map { ($0 * 1000).rounded() } == [900, 1800, 3600, 7200])
        #expect(current.attempts == 4)
        #expect(current.lastError == .init(code: "serverError", message: "HTTP 503", httpStatus: 503, at: now))
        #expect(!current.isHalted)
    }

    @Test func retryAfterIsBelievedUpToTheCap() {
        for (retryAfter, expected) in [(Duration.seconds(30), 30.0), (.seconds(3600), 300.0), (.zero, 1.0)] {
            let action = policy.action(
                after: .retry(UploadQueueError(.serverError, ""), httpStatus: 429, retryAfter: retryAfter), for: entry,
                now: now, random: 0)
            guard case .retry(let next) = action else {
                Issue.record("a 429 is retried")
                return
            }
            #expect((next.nextAttemptAt.timeIntervalSince(now) * 1000).rounded() == expected * 1000)
        }
    }

    @Test func permanentHaltsAndKeepsTheEntry() {
        let action = policy.action(
            after: .permanent(UploadQueueError(.rejected, "HTTP 422"), httpStatus: 422), for: entry, now: now, random: 0)
        guard case .halt(let halted) = action else {
            Issue.record("a 422 halts")
            return
        }
        #expect(halted.isHalted)
        #expect(halted.attempts == 1)
        #expect(halted.lastError?.httpStatus == 422)
        #expect(halted.recordID == entry.recordID && halted.sequence == entry.sequence)
    }
}
