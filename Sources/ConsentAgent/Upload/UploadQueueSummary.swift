import AgentProtocol
import Foundation
import UploadQueue

/// `uploads.status`: the upload queue's state for a staff page, without PHI and without record ids: how many
/// records wait (and are parked), how long the oldest has waited, whether the queue is halted, and the head's last
/// failure by its code and HTTP status only (never its message, which may quote the server).
enum UploadQueueSummary {
    static func value(_ status: QueueStatus, now: Date) -> RPCValue {
        var members: [String: RPCValue] = [
            "pending": .integer(Int64(status.entries.count)),
            "parked": .integer(Int64(status.parked.count)),
            "halted": .bool(status.isHalted),
            "attempts": .integer(Int64(status.head?.attempts ?? 0)),
        ]
        if let oldest = status.entries.map(\.enqueuedAt).min() {
            members["oldestAgeSeconds"] = .integer(Int64(max(0, now.timeIntervalSince(oldest)).rounded(.down)))
        }
        if let next = status.nextAttemptAt {
            members["nextAttemptInSeconds"] = .integer(Int64(max(0, next.timeIntervalSince(now)).rounded(.up)))
        }
        if let error = status.lastError {
            var last: [String: RPCValue] = [
                "code": .string(error.code),
                "ageSeconds": .integer(Int64(max(0, now.timeIntervalSince(error.at)).rounded(.down))),
            ]
            if let http = error.httpStatus { last["httpStatus"] = .integer(Int64(http)) }
            members["lastError"] = .object(last)
        }
        return .object(members)
    }
}
