import Foundation
import NIOConcurrencyHelpers
import Testing
import UploadQueue

/// Records on disk, as `RecordWriter` leaves them (only `bundle.json` matters to the queue).
enum TestRecord {
    static func temporaryDirectory() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("upload-tests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    /// Writes `<state>/records/<id>/bundle.json`, a transaction Bundle whose `id` is the record id.
    @discardableResult
    static func write(_ id: String, in state: URL) throws -> URL {
        let directory = state.appendingPathComponent("records/\(id)", isDirectory: true)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        try bundle(id).write(to: directory.appendingPathComponent("bundle.json"))
        return directory
    }

    static func bundle(_ id: String) -> Data {
        Data(
            #"{"resourceType":"Bundle","id":"\#(id)","type":"transaction","entry":[{"fullUrl":"urn:uuid:\#(id)","resource":{"resourceType":"Consent","status":"active"},"request":{"method":"POST","url":"Consent"}}]}"#
                .utf8)
    }

    static func bundleID(in body: Data) -> String? {
        (try? JSONSerialization.jsonObject(with: body) as? [String: Any])?["id"] as? String
    }

    static var transactionResponseBodyText: String { String(decoding: transactionResponseBody, as: UTF8.self) }

    static let transactionResponseBody = Data(
        #"{"resourceType":"Bundle","type":"transaction-response","entry":[{"response":{"status":"201 Created","location":"Consent/1/_history/1"}}]}"#
            .utf8)

    static let transactionResponse = HTTPResponse(
        status: 200, headers: ["Content-Type": "application/fhir+json"], body: transactionResponseBody)

    static func status(_ status: Int, headers: [String: String] = [:], body: String = "") -> FakeTransport.Answer {
        .response(HTTPResponse(status: status, headers: headers, body: Data(body.utf8)))
    }
}

/// Collects the service's events.
final class EventLog: Sendable {
    private let events = NIOLockedValueBox<[UploadEvent]>([])
    var all: [UploadEvent] { events.withLockedValue { $0 } }
    func append(_ event: UploadEvent) { events.withLockedValue { $0.append(event) } }
    var deliveredRecordIDs: [String] {
        all.compactMap { if case .delivered(let id, _) = $0 { id } else { nil } }
    }
}

/// Polls `condition` every 5 ms (real time) until it holds or `timeout` passes.
///
/// The bound only fails a test that is broken, so it is generous: a passing test returns as soon as the condition
/// holds, while on a loaded machine the service's loop may not get a thread for many seconds (swift-testing runs
/// every suite of the process at once, and the CPU-bound ones can hold all of a 2-core machine's cooperative
/// threads for half a minute: seen as every test of this module failing at once after 29 s).
func eventually(
    timeout: Duration = .seconds(90), _ comment: Comment? = nil, sourceLocation: SourceLocation = #_sourceLocation,
    _ condition: () throws -> Bool
) async throws {
    let deadline = ContinuousClock.now.advanced(by: timeout)
    while ContinuousClock.now < deadline {
        if try condition() { return }
        try await Task.sleep(for: .milliseconds(5))
    }
    Issue.record(comment ?? "the condition did not hold in time", sourceLocation: sourceLocation)
    throw CancellationError()
}

/// Runs the service's loop in a child task for the duration of `body`, then cancels it and waits for it to end.
func whileRunning<T>(_ service: UploadService, _ body: () async throws -> T) async throws -> T {
    let task = Task { await service.run() }
    defer { task.cancel() }
    let result = try await body()
    task.cancel()
    await task.value
    return result
}
