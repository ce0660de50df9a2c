import Foundation
import Testing

@testable import UploadQueue

/// The delivery loop with a fake transport and a manual clock: order, backoff, halts, restarts, wake-ups. No I/O
/// but the queue directory, no real time but the polling in `eventually`.
@Suite struct UploadServiceTests {
    static let endpoint = URL(string: "https://fhir.example.org/r4")!

    static func configuration(backoff: Backoff = Backoff(initial: .seconds(1), maximum: .seconds(300), jitter: 0)) -> UploadConfiguration {
        UploadConfiguration(
            destination: .fhir(baseURL: endpoint), requestTimeout: .seconds(5), backoff: backoff,
            haltedRecheckInterval: .seconds(60))
    }

    static func service(
        _ state: URL, _ transport: FakeTransport, _ clock: ManualClock, events: EventLog = EventLog(),
        configuration: UploadConfiguration = configuration()
    ) throws -> UploadService {
        try UploadService(
            stateDirectory: state, configuration: configuration, transport: transport, clock: clock,
            now: { clock.date }, random: { 0 }, onEvent: events.append)
    }

    @Test func deliversInOrderWithC3HeadersAndRemovesOnlyAcknowledged() async throws {
        let state = try TestRecord.temporaryDirectory()
        let transport = FakeTransport()
        let clock = ManualClock()
        let service = try Self.service(state, transport, clock)
        for id in ["r1", "r2", "r3"] {
            try service.enqueue(recordID: id, recordDirectory: try TestRecord.write(id, in: state))
        }
        try await whileRunning(service) {
            try await eventually { try service.status().entries.isEmpty }
        }
        #expect(transport.sentBundleIDs == ["r1", "r2", "r3"])
        let request = try #require(transport.requests.first)
        #expect(request.method == "POST")
        #expect(request.url == Self.endpoint)
        #expect(request.header("Accept") == "application/fhir+json")
        #expect(request.header("Content-Type") == "application/fhir+json; charset=utf-8")
        #expect(request.header("Prefer") == "return=minimal")
        #expect(request.body == TestRecord.bundle("r1"))
    }

    /// A 503 keeps the head (and everything behind it) until the backoff has passed on the clock.
    @Test func serverErrorBacksOffAndNeverOvertakes() async throws {
        let state = try TestRecord.temporaryDirectory()
        let transport = FakeTransport([TestRecord.status(503), TestRecord.status(503)])
        let clock = ManualClock()
        let events = EventLog()
        let service = try Self.service(state, transport, clock, events: events)
        for id in ["r1", "r2"] { try service.enqueue(recordID: id, recordDirectory: try TestRecord.write(id, in: state)) }
        try await whileRunning(service) {
            try await eventually { clock.sleeperDeadlines == [.seconds(1)] }
            var head = try #require(try service.status().head)
            #expect(head.recordID == "r1" && head.attempts == 1)
            #expect(head.lastError?.httpStatus == 503 && head.lastError?.code == "serverError")
            #expect(head.nextAttemptAt == clock.base.addingTimeInterval(1))
            #expect(transport.sentBundleIDs == ["r1"])

            clock.advance(by: .seconds(1))
            try await eventually { clock.sleeperDeadlines == [.seconds(3)] }  // 1 s + 2 s
            head = try #require(try service.status().head)
            #expect(head.attempts == 2)
            #expect(transport.sentBundleIDs == ["r1", "r1"])

            clock.advance(by: .seconds(2))
            try await eventually { try service.status().entries.isEmpty }
        }
        #expect(transport.sentBundleIDs == ["r1", "r1", "r1", "r2"])
        #expect(events.deliveredRecordIDs == ["r1", "r2"])
    }

    @Test func timeoutsAndConnectionFailuresAreRetried() async throws {
        let state = try TestRecord.temporaryDirectory()
        let transport = FakeTransport([
            .failure(UploadQueueError(.timedOut, "t")), .failure(UploadQueueError(.connectionFailed, "c")),
        ])
        let clock = ManualClock()
        let service = try Self.service(state, transport, clock)
        try service.enqueue(recordID: "r1", recordDirectory: try TestRecord.write("r1", in: state))
        try await whileRunning(service) {
            try await eventually { clock.sleeperDeadlines == [.seconds(1)] }
            #expect(try service.status().lastError?.code == "timedOut")
            clock.advance(by: .seconds(1))
            try await eventually { clock.sleeperDeadlines == [.seconds(3)] }
            #expect(try service.status().lastError?.code == "connectionFailed")
            clock.advance(by: .seconds(2))
            try await eventually { try service.status().entries.isEmpty }
        }
    }

    /// A refusal halts the queue at the head: the next record is not sent, both entries stay, until re-armed.
    @Test func rejectionHaltsUntilRetried() async throws {
        let state = try TestRecord.temporaryDirectory()
        let transport = FakeTransport([TestRecord.status(422)])
        let clock = ManualClock()
        let events = EventLog()
        let service = try Self.service(state, transport, clock, events: events)
        for id in ["r1", "r2"] { try service.enqueue(recordID: id, recordDirectory: try TestRecord.write(id, in: state)) }
        try await whileRunning(service) {
            try await eventually { (try? service.status().isHalted) == true }
            try await eventually { clock.sleeperDeadlines == [.seconds(60)] }  // the halted recheck
            #expect(transport.sentBundleIDs == ["r1"])
            #expect(try service.status().entries.count == 2)
            #expect(try service.status().lastError?.code == "rejected")
            #expect(events.all.contains { if case .halted("r1", _) = $0 { true } else { false } })

            try service.retryNow()
            try await eventually { try service.status().entries.isEmpty }
        }
        #expect(transport.sentBundleIDs == ["r1", "r1", "r2"])
    }

    /// `consentctl queue retry` changes only the disk; a halted loop notices at its next recheck.
    @Test func haltedLoopNoticesAnOperatorRearmOnDisk() async throws {
        let state = try TestRecord.temporaryDirectory()
        let transport = FakeTransport([TestRecord.status(403)])
        let clock = ManualClock()
        let service = try Self.service(state, transport, clock)
        try service.enqueue(recordID: "r1", recordDirectory: try TestRecord.write("r1", in: state))
        try await whileRunning(service) {
            try await eventually { clock.sleeperDeadlines == [.seconds(60)] }
            try QueueStore(stateDirectory: state).rearm(now: clock.date)
            clock.advance(by: .seconds(60))
            try await eventually { try service.status().entries.isEmpty }
        }
    }

    /// The record's bundle.json is gone: the entry fails with a clear error and stays.
    @Test func missingRecordHaltsAndKeepsTheEntry() async throws {
        let state = try TestRecord.temporaryDirectory()
        let transport = FakeTransport()
        let clock = ManualClock()
        let service = try Self.service(state, transport, clock)
        let record = try TestRecord.write("r1", in: state)
        try service.enqueue(recordID: "r1", recordDirectory: record)
        try FileManager.default.removeItem(at: record)
        try await whileRunning(service) {
            try await eventually { (try? service.status().isHalted) == true }
        }
        let head = try #require(try service.status().head)
        #expect(head.lastError?.code == "recordMissing")
        #expect(head.lastError?.message.contains("bundle.json") == true)
        #expect(transport.requests.isEmpty)
    }

    /// A new service over the same state directory resumes: same order, and the persisted backoff is honoured.
    @Test func restartResumesWithThePersistedBackoff() async throws {
        let state = try TestRecord.temporaryDirectory()
        let transport = FakeTransport([TestRecord.status(500)])
        let clock = ManualClock()
        let first = try Self.service(state, transport, clock, configuration: Self.configuration(backoff: Backoff(initial: .seconds(30), jitter: 0)))
        for id in ["r1", "r2"] { try first.enqueue(recordID: id, recordDirectory: try TestRecord.write(id, in: state)) }
        try await whileRunning(first) {
            try await eventually { clock.sleeperDeadlines == [.seconds(30)] }
        }
        #expect(clock.sleeperDeadlines.isEmpty)  // the first loop is gone

        clock.advance(by: .seconds(10))
        let second = try Self.service(state, transport, clock)
        try await whileRunning(second) {
            // 20 s of the 30 s backoff are left, whatever the new service's own backoff settings.
            try await eventually { clock.sleeperDeadlines == [.seconds(30)] }
            #expect(transport.sentBundleIDs == ["r1"])
            clock.advance(by: .seconds(20))
            try await eventually { try second.status().entries.isEmpty }
        }
        #expect(transport.sentBundleIDs == ["r1", "r1", "r2"])
    }

    @Test func enqueueWakesAnIdleLoop() async throws {
        let state = try TestRecord.temporaryDirectory()
        let transport = FakeTransport()
        let clock = ManualClock()
        let service = try Self.service(state, transport, clock)
        try await whileRunning(service) {
            try await Task.sleep(for: .milliseconds(20))
            #expect(clock.sleeperDeadlines.isEmpty)  // idle: waits for an enqueue, not on the clock
            try service.enqueue(recordID: "r1", recordDirectory: try TestRecord.write("r1", in: state))
            try await eventually { try service.status().entries.isEmpty }
            try service.enqueue(recordID: "r2", recordDirectory: try TestRecord.write("r2", in: state))
            try await eventually { try service.status().entries.isEmpty }
        }
        #expect(transport.sentBundleIDs == ["r1", "r2"])
    }

    /// A 2xx that is not a transaction-response (a proxy's page) does not count as delivered.
    @Test func twoHundredWithoutTransactionResponseIsNotAnAcknowledgement() async throws {
        let state = try TestRecord.temporaryDirectory()
        let transport = FakeTransport([TestRecord.status(200, body: "<html>Welcome to the hospital Wi-Fi</html>")])
        let clock = ManualClock()
        let service = try Self.service(state, transport, clock)
        try service.enqueue(recordID: "r1", recordDirectory: try TestRecord.write("r1", in: state))
        try await whileRunning(service) {
            try await eventually { clock.sleeperDeadlines == [.seconds(1)] }
            #expect(try service.status().lastError?.code == "unexpectedResponse")
            clock.advance(by: .seconds(1))
            try await eventually { try service.status().entries.isEmpty }
        }
        #expect(transport.sentBundleIDs == ["r1", "r1"])
    }

    @Test func onlyOneDelivererPerQueue() async throws {
        let state = try TestRecord.temporaryDirectory()
        let clock = ManualClock()
        let service = try Self.service(state, FakeTransport(), clock)
        let other = try Self.service(state, FakeTransport(), clock)
        try await whileRunning(service) {
            try await eventually { FileManager.default.fileExists(atPath: service.store.lockFile.path) }
            try await Task.sleep(for: .milliseconds(20))
            await #expect(throws: UploadQueueError(.queueBusy, "")) { try await other.flush() }
        }
        #expect(try await other.flush() == FlushReport(delivered: [], stoppedAt: nil))
    }

    @Test func flushStopsAtTheFirstFailureAndIgnoresBackoff() async throws {
        let state = try TestRecord.temporaryDirectory()
        let transport = FakeTransport([TestRecord.status(200, body: TestRecord.transactionResponseBodyText), TestRecord.status(502)])
        let clock = ManualClock()
        let service = try Self.service(state, transport, clock)
        for id in ["r1", "r2", "r3"] { try service.enqueue(recordID: id, recordDirectory: try TestRecord.write(id, in: state)) }
        let report = try await service.flush()
        #expect(report.delivered == ["r1"])
        #expect(report.stoppedAt?.recordID == "r2")
        #expect(report.stoppedAt?.lastError?.httpStatus == 502)
        // The next flush tries r2 again at once, backoff notwithstanding.
        let second = try await service.flush()
        #expect(second.delivered == ["r2", "r3"])
        #expect(second.stoppedAt == nil)
    }

    @Test func badConfigurationFailsAtStart() throws {
        let state = try TestRecord.temporaryDirectory()
        let ftp = UploadConfiguration(destination: .fhir(baseURL: URL(string: "ftp://example.org")!))
        #expect(throws: UploadQueueError(.invalidConfiguration, "")) {
            try UploadService(stateDirectory: state, configuration: ftp)
        }
        let missingKey = UploadConfiguration(
            destination: .encrypted(.init(baseURL: Self.endpoint, publicKeyFile: state.appendingPathComponent("none.pem").path)))
        #expect(throws: UploadQueueError(.publicKeyUnreadable, "")) {
            try UploadService(stateDirectory: state, configuration: missingKey)
        }
    }
}
