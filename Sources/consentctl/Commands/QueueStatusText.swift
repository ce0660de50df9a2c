import Foundation
import UploadQueue

/// How `consentctl queue` prints a `QueueStatus`: a table for people, JSON for monitoring.
enum QueueStatusText {
    static func table(_ status: QueueStatus) -> String {
        var lines: [String] = []
        if status.entries.isEmpty {
            lines.append("queue empty: nothing waiting for upload")
        } else {
            let state = status.isHalted ? "HALTED at the head: a refused record stops the queue (see docs/UPLOAD.md)" : "delivering in order"
            lines.append("\(status.entries.count) record(s) pending, \(state)")
            lines.append(row("#", "RECORD", "TARGET", "ATTEMPTS", "NEXT ATTEMPT", "LAST ERROR"))
            for (index, entry) in status.entries.enumerated() {
                lines.append(describe(entry, next: index == 0 ? nextAttempt(entry) : "after #\(status.entries[index - 1].sequence)"))
            }
        }
        if !status.parked.isEmpty {
            lines.append("\(status.parked.count) parked (kept, not delivered):")
            for entry in status.parked { lines.append(describe(entry, next: "parked")) }
        }
        if let error = status.lastError {
            lines.append("last error (\(timestamp(error.at))): \(error.code)\(error.httpStatus.map { " HTTP \($0)" } ?? ""): \(error.message)")
        }
        return lines.joined(separator: "\n") + "\n"
    }

    static func json(_ status: QueueStatus) throws -> String {
        struct Output: Encodable {
            var halted: Bool
            var nextAttemptAt: Date?
            var lastError: QueueEntry.LastError?
            var entries: [QueueEntry]
            var parked: [QueueEntry]
        }
        let output = Output(
            halted: status.isHalted, nextAttemptAt: status.nextAttemptAt, lastError: status.lastError,
            entries: status.entries, parked: status.parked)
        return try JSONOutput.text(output, date: { .string(timestamp($0)) }) + "\n"
    }

    private static func describe(_ entry: QueueEntry, next: String) -> String {
        let error = entry.lastError.map { "\($0.code)\($0.httpStatus.map { " \($0)" } ?? "")" } ?? "-"
        return row(String(entry.sequence), entry.recordID, entry.target.rawValue, String(entry.attempts), next, error)
    }

    private static func nextAttempt(_ entry: QueueEntry) -> String {
        if entry.isHalted { return "halted" }
        return entry.nextAttemptAt <= Date() ? "due now" : timestamp(entry.nextAttemptAt)
    }

    private static func row(_ columns: String...) -> String {
        let widths = [4, 38, 9, 9, 25]
        return zip(columns, widths + [0]).map { column, width in
            column.count >= width ? column + " " : column + String(repeating: " ", count: width - column.count)
        }.joined().trimmingCharacters(in: .whitespaces)
    }

    private static func timestamp(_ date: Date) -> String {
        date.formatted(Date.ISO8601FormatStyle(includingFractionalSeconds: false))
    }
}
