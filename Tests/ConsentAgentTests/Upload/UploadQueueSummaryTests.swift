import AgentProtocol
import Foundation
import Testing
import UploadQueue

@testable import ConsentAgent

/// uploads.status: counts and ages of the upload queue, never a record id nor an error's message.
@Suite struct UploadQueueSummaryTests {
    let now = Date(timeIntervalSince1970: 1_800_000_000)

    func entry(_ sequence: Int, enqueued: TimeInterval) -> QueueEntry {
        QueueEntry(sequence: sequence, recordID: "rec-\(sequence)", recordDirectory: "/state/records/rec-\(sequence)",
                   target: .bundle, enqueuedAt: now.addingTimeInterval(-enqueued))
    }

    @Test func anEmptyQueue() {
        let value = UploadQueueSummary.value(QueueStatus(entries: [], parked: []), now: now)
        #expect(value == ["pending": 0, "parked": 0, "halted": false, "attempts": 0])
    }

    @Test func aHaltedQueueSaysWhyWithoutTheMessageOrTheRecord() {
        var head = entry(1, enqueued: 120)
        head.attempts = 3
        head.isHalted = true
        head.lastError = .init(code: "rejected", message: "server said: Ada Lovelace is invalid", httpStatus: 422,
                               at: now.addingTimeInterval(-30))
        let value = UploadQueueSummary.value(QueueStatus(entries: [head, entry(2, enqueued: 60)], parked: [entry(3, enqueued: 500)]), now: now)
        #expect(value["pending"] == 2 && value["parked"] == 1 && value["halted"] == true && value["attempts"] == 3)
        #expect(value["oldestAgeSeconds"] == 120)
        #expect(value["nextAttemptInSeconds"] == nil, "a halted queue is not retried by itself")
        #expect(value["lastError"] == ["code": "rejected", "httpStatus": 422, "ageSeconds": 30])
        let text = String(describing: value)
        #expect(!text.contains("rec-") && !text.contains("Ada"))
    }
}
