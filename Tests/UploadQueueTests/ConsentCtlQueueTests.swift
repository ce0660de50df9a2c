import Foundation
import Testing

@testable import UploadQueue

/// `consentctl queue` as an operator runs it: the built binary, a real state directory, a local server.
@Suite(.serialized) struct ConsentCtlQueueTests {
    struct Result {
        var status: Int32
        var output: String
    }

    /// Runs the built consentctl (beside the test bundle, or in the package's .build/debug), stdout and stderr merged.
    static func consentctl(_ arguments: String...) throws -> Result {
        let bundleFolder = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        let candidates = [bundleFolder, bundleFolder.deletingLastPathComponent(), packageRoot.appendingPathComponent(".build/debug")]
        let folder = candidates.first { FileManager.default.isExecutableFile(atPath: $0.appendingPathComponent("consentctl").path) }
        let process = Process()
        process.executableURL = (folder ?? candidates[2]).appendingPathComponent("consentctl")
        process.arguments = arguments
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        try process.run()
        let output = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Result(status: process.terminationStatus, output: String(decoding: output, as: UTF8.self))
    }

    static func queued(_ ids: [String]) throws -> (state: URL, store: QueueStore) {
        let state = try TestRecord.temporaryDirectory()
        let store = QueueStore(stateDirectory: state)
        try store.prepare()
        for id in ids {
            try store.append(recordID: id, recordDirectory: try TestRecord.write(id, in: state), target: .bundle, now: Date())
        }
        return (state, store)
    }

    @Test func listShowsPendingEntriesAndTheLastError() throws {
        let (state, store) = try Self.queued(["rec-1", "rec-2"])
        var head = try #require(try store.entries().first)
        head.attempts = 4
        head.nextAttemptAt = Date().addingTimeInterval(120)
        head.lastError = .init(code: "serverError", message: "the server answered HTTP 503; it is retried", httpStatus: 503, at: Date())
        try store.save(head)

        let table = try Self.consentctl("queue", "--state-dir", state.path)
        #expect(table.status == 0)
        #expect(table.output.contains("2 record(s) pending"))
        #expect(table.output.contains("rec-1"))
        #expect(table.output.contains("serverError 503"))
        #expect(table.output.contains("after #1"))
        #expect(table.output.contains("last error"))
        #expect(table.output.contains("HTTP 503"))

        let json = try Self.consentctl("queue", "--state-dir", state.path, "--json")
        #expect(json.status == 0)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.output.utf8)) as? [String: Any])
        let entries = try #require(object["entries"] as? [[String: Any]])
        #expect(entries.map { $0["recordID"] as? String } == ["rec-1", "rec-2"])
        #expect(entries.first?["attempts"] as? Int == 4)
        #expect((object["lastError"] as? [String: Any])?["httpStatus"] as? Int == 503)
        #expect(object["halted"] as? Bool == false)
        #expect(object["nextAttemptAt"] is String)
    }

    @Test func haltedQueueExitsThreeUntilRetried() throws {
        let (state, store) = try Self.queued(["rec-1"])
        var head = try #require(try store.entries().first)
        head.isHalted = true
        head.lastError = .init(code: "rejected", message: "refused", httpStatus: 422, at: Date())
        try store.save(head)

        let halted = try Self.consentctl("queue", "list", "--state-dir", state.path)
        #expect(halted.status == 3)
        #expect(halted.output.contains("HALTED"))

        let retry = try Self.consentctl("queue", "retry", "--state-dir", state.path)
        #expect(retry.status == 0)
        #expect(try Self.consentctl("queue", "--state-dir", state.path).status == 0)
        #expect(try store.entries().first?.isHalted == false)

        let park = try Self.consentctl("queue", "park", "rec-1", "--state-dir", state.path)
        #expect(park.status == 0)
        let after = try Self.consentctl("queue", "--state-dir", state.path)
        #expect(after.output.contains("queue empty"))
        #expect(after.output.contains("1 parked"))

        #expect(try Self.consentctl("queue", "unpark", "rec-1", "--state-dir", state.path).status == 0)
        #expect(try store.entries().map(\.sequence) == [2])
        #expect(try Self.consentctl("queue", "unpark", "rec-1", "--state-dir", state.path).status == 1)
    }

    @Test func flushDeliversInOrder() async throws {
        let server = try await RecordingHTTPServer(script: [.transactionResponse, .status(503)])
        defer { Task { try? await server.shutdown() } }
        let (state, store) = try Self.queued(["rec-1", "rec-2", "rec-3"])

        let first = try Self.consentctl("queue", "flush", "--endpoint", server.baseURL.absoluteString, "--state-dir", state.path)
        #expect(first.status == 1)
        #expect(first.output.contains("delivered rec-1"))
        #expect(first.output.contains("stopped at rec-2"))
        #expect(try store.entries().map(\.recordID) == ["rec-2", "rec-3"])

        let second = try Self.consentctl("queue", "flush", "--endpoint", server.baseURL.absoluteString, "--state-dir", state.path)
        #expect(second.status == 0)
        #expect(second.output.contains("queue empty: 2 record(s) delivered"))
        #expect(server.bundleIDs == ["rec-1", "rec-2", "rec-2", "rec-3"])
    }

    @Test func usageMistakesExit64() throws {
        let state = try TestRecord.temporaryDirectory()
        let missing = try Self.consentctl("queue", "--state-dir", state.appendingPathComponent("typo").path)
        #expect(missing.status == 0)
        #expect(missing.output.contains("no upload queue"))
        #expect(try Self.consentctl("queue", "flush", "--state-dir", state.path).status == 64)
        #expect(try Self.consentctl("queue", "flush", "--encrypted-endpoint", "http://127.0.0.1:1/", "--state-dir", state.path).status == 64)
    }
}
