import ConsentSigning
import CryptoExtras
import Foundation
import Testing

@testable import UploadQueue

/// The real transport (AsyncHTTPClient) against a local recording server: what goes on the wire, a 503, a timeout, a
/// restart, and that no entry is removed before a 2xx. Backoffs are milliseconds, so each test takes well under
/// two seconds.
@Suite(.serialized) struct HTTPDeliveryTests {
    static let fastBackoff = Backoff(initial: .milliseconds(20), maximum: .milliseconds(100), jitter: 0)

    static func service(
        _ state: URL, _ destination: UploadConfiguration.Destination, timeout: Duration = .seconds(5),
        events: EventLog = EventLog()
    ) throws -> UploadService {
        try UploadService(
            stateDirectory: state,
            configuration: UploadConfiguration(
                destination: destination, requestTimeout: timeout, backoff: fastBackoff,
                haltedRecheckInterval: .milliseconds(100)),
            onEvent: events.append)
    }

    @Test func deliversInOrderWithFHIRHeaders() async throws {
        let server = try await RecordingHTTPServer()
        defer { Task { try? await server.shutdown() } }
        let state = try TestRecord.temporaryDirectory()
        let service = try Self.service(state, .fhir(baseURL: server.baseURL))
        for id in ["r1", "r2", "r3"] { try service.enqueue(recordID: id, recordDirectory: try TestRecord.write(id, in: state)) }
        try await whileRunning(service) {
            try await eventually { try service.status().entries.isEmpty }
        }
        #expect(server.bundleIDs == ["r1", "r2", "r3"])
        let request = try #require(server.requests.first)
        #expect(request.method == "POST")
        #expect(request.uri == "/fhir")
        #expect(request.header("Accept") == "application/fhir+json")
        #expect(request.header("Content-Type") == "application/fhir+json; charset=utf-8")
        #expect(request.header("Prefer") == "return=minimal")
        #expect(request.body == TestRecord.bundle("r1"))
        #expect(request.header("Cookie") == nil)
    }

    /// A redirect is never followed, to another host or the same one, for either status that keeps the body:
    /// the consent goes nowhere but the configured URL, and the queue halts saying what to configure.
    @Test(arguments: [307, 308, 301])
    func redirectsAreNotFollowed(_ status: Int) async throws {
        let elsewhere = try await RecordingHTTPServer()
        defer { Task { try? await elsewhere.shutdown() } }
        let server = try await RecordingHTTPServer(script: [
            RecordingHTTPServer.Reply(status: status, body: "", location: elsewhere.baseURL.absoluteString),
        ])
        defer { Task { try? await server.shutdown() } }
        let state = try TestRecord.temporaryDirectory()
        let events = EventLog()
        let service = try Self.service(state, .fhir(baseURL: server.baseURL), events: events)
        try service.enqueue(recordID: "r1", recordDirectory: try TestRecord.write("r1", in: state))
        try await whileRunning(service) {
            try await eventually { try service.status().entries.first?.isHalted == true }
        }
        #expect(server.requests.count == 1)
        #expect(elsewhere.requests.isEmpty, "the record went to the redirect target")
        let entry = try #require(try service.status().entries.first)
        #expect(entry.lastError?.httpStatus == status)
        #expect(entry.lastError?.message.contains("redirected") == true)
    }

    @Test func aSameOriginRedirectIsNotFollowedEither() async throws {
        let server = try await RecordingHTTPServer(script: [
            RecordingHTTPServer.Reply(status: 307, body: "", location: "/fhir-moved")
        ])
        defer { Task { try? await server.shutdown() } }
        let state = try TestRecord.temporaryDirectory()
        let service = try Self.service(state, .fhir(baseURL: server.baseURL))
        try service.enqueue(recordID: "r1", recordDirectory: try TestRecord.write("r1", in: state))
        try await whileRunning(service) {
            try await eventually { try service.status().entries.first?.isHalted == true }
        }
        #expect(server.requests.map(\.uri) == ["/fhir"])
    }

    /// 503 → the entry stays, with its error and attempt count, and the next record waits; then 200 → removed.
    @Test func serviceUnavailableThenSuccess() async throws {
        let server = try await RecordingHTTPServer(script: [.status(503, delay: .milliseconds(50)), .status(503)])
        defer { Task { try? await server.shutdown() } }
        let state = try TestRecord.temporaryDirectory()
        let events = EventLog()
        let service = try Self.service(state, .fhir(baseURL: server.baseURL), events: events)
        for id in ["r1", "r2"] { try service.enqueue(recordID: id, recordDirectory: try TestRecord.write(id, in: state)) }
        try await whileRunning(service) {
            try await eventually { try service.status().entries.isEmpty }
        }
        #expect(server.bundleIDs == ["r1", "r1", "r1", "r2"])
        let retries = events.all.compactMap { event -> Int? in
            if case .retryScheduled("r1", let error, _) = event { error.httpStatus } else { nil }
        }
        #expect(retries == [503, 503])
        #expect(events.deliveredRecordIDs == ["r1", "r2"])
        #expect(events.all.contains(.delivered(recordID: "r1", failedAttempts: 2)))
    }

    /// The server answers after the client's timeout: the attempt counts as timed out, and the retry succeeds.
    /// The server did receive the first copy: delivery is at least once (docs/UPLOAD.md).
    @Test func timeoutThenRecovery() async throws {
        let server = try await RecordingHTTPServer(script: [
            RecordingHTTPServer.Reply(status: 200, body: TestRecord.transactionResponseBodyText, delay: .milliseconds(1500))
        ])
        defer { Task { try? await server.shutdown() } }
        let state = try TestRecord.temporaryDirectory()
        let events = EventLog()
        let service = try Self.service(state, .fhir(baseURL: server.baseURL), timeout: .milliseconds(300), events: events)
        try service.enqueue(recordID: "r1", recordDirectory: try TestRecord.write("r1", in: state))
        try await whileRunning(service) {
            try await eventually { try service.status().entries.isEmpty }
        }
        // It did not wait for the slow answer: had it waited, the 200 would have acknowledged the first copy and no
        // second would have been sent (no wall-clock bound here: on a loaded machine it says nothing).
        #expect(server.bundleIDs == ["r1", "r1"])
        let codes = events.all.compactMap { event -> String? in
            if case .retryScheduled(_, let error, _) = event { error.code } else { nil }
        }
        #expect(codes == ["timedOut"])
    }

    @Test func connectionRefusedIsRetriedAndKept() async throws {
        let state = try TestRecord.temporaryDirectory()
        // Port 1 on loopback: nothing listens there.
        let service = try Self.service(state, .fhir(baseURL: URL(string: "http://127.0.0.1:1/fhir")!))
        try service.enqueue(recordID: "r1", recordDirectory: try TestRecord.write("r1", in: state))
        try await whileRunning(service) {
            try await eventually { (try service.status().head?.attempts ?? 0) >= 2 }
        }
        let head = try #require(try service.status().head)
        #expect(head.lastError?.code == "connectionFailed")
    }

    /// While the server holds its answer, and after a 500, the entry file is still there; it goes only after 2xx.
    @Test func entryIsNotDeletedBeforeTheAcknowledgement() async throws {
        let server = try await RecordingHTTPServer(script: [
            .status(500, delay: .milliseconds(300)),
            RecordingHTTPServer.Reply(status: 200, body: TestRecord.transactionResponseBodyText, delay: .milliseconds(300)),
        ])
        defer { Task { try? await server.shutdown() } }
        let state = try TestRecord.temporaryDirectory()
        let service = try Self.service(state, .fhir(baseURL: server.baseURL))
        let entry = try service.enqueue(recordID: "r1", recordDirectory: try TestRecord.write("r1", in: state))
        let file = service.store.directory.appendingPathComponent(entry.fileName)
        try await whileRunning(service) {
            try await eventually { server.requests.count == 1 }
            #expect(FileManager.default.fileExists(atPath: file.path))  // in flight
            try await eventually { (try service.status().head?.attempts ?? 0) == 1 }
            #expect(FileManager.default.fileExists(atPath: file.path))  // after the 500
            try await eventually { server.requests.count == 2 }
            #expect(FileManager.default.fileExists(atPath: file.path))  // second attempt in flight
            try await eventually { !FileManager.default.fileExists(atPath: file.path) }
        }
        #expect(try service.status().entries.isEmpty)
    }

    /// A service stopped mid-queue and a new one over the same directory: nothing lost, nothing reordered.
    @Test func restartResumesInOrder() async throws {
        let server = try await RecordingHTTPServer(script: [.status(503)], fallback: .status(503))
        defer { Task { try? await server.shutdown() } }
        let state = try TestRecord.temporaryDirectory()
        let first = try Self.service(state, .fhir(baseURL: server.baseURL))
        for id in ["r1", "r2"] { try first.enqueue(recordID: id, recordDirectory: try TestRecord.write(id, in: state)) }
        // Waits for the second failed attempt to be recorded, not only received: the server counts a request
        // before the client has read the 503, and a stop in between leaves one attempt (seen under ASan).
        try await whileRunning(first) {
            try await eventually { (try first.status().head?.attempts ?? 0) >= 2 }
        }
        #expect(Set(server.bundleIDs) == ["r1"])

        let recovered = try await RecordingHTTPServer()
        defer { Task { try? await recovered.shutdown() } }
        let second = try Self.service(state, .fhir(baseURL: recovered.baseURL))
        try second.enqueue(recordID: "r3", recordDirectory: try TestRecord.write("r3", in: state))
        #expect(try second.status().entries.map(\.recordID) == ["r1", "r2", "r3"])
        #expect(try second.status().head?.attempts ?? 0 >= 2)
        try await whileRunning(second) {
            try await eventually { try second.status().entries.isEmpty }
        }
        #expect(recovered.bundleIDs == ["r1", "r2", "r3"])
    }

    /// Encrypted mode: the C3-PRO envelope of bundle.json goes to <encrypted base>/Bundle and opens with the
    /// receiver's private key.
    @Test func encryptedEnvelopeToTheEncryptedEndpoint() async throws {
        let receiver = try _RSA.Encryption.PrivateKey(keySize: .bits2048)
        let state = try TestRecord.temporaryDirectory()
        let keyFile = state.appendingPathComponent("receiver.pem")
        try receiver.publicKey.pemRepresentation.write(to: keyFile, atomically: true, encoding: .utf8)
        let server = try await RecordingHTTPServer(fallback: .status(201))
        defer { Task { try? await server.shutdown() } }
        let encryptedBase = URL(string: "http://127.0.0.1:\(server.port)/c3pro/fhirenc/")!
        let service = try Self.service(
            state, .encrypted(.init(baseURL: encryptedBase, publicKeyFile: keyFile.path, keyID: "site-7")))
        try service.enqueue(recordID: "r1", recordDirectory: try TestRecord.write("r1", in: state))
        try await whileRunning(service) {
            try await eventually { try service.status().entries.isEmpty }
        }
        let request = try #require(server.requests.first)
        #expect(request.uri == "/c3pro/fhirenc/Bundle")
        #expect(request.method == "POST")
        #expect(request.header("Content-Type") == "application/fhir+json; charset=utf-8")
        #expect(request.header("Accept") == "application/fhir+json")
        let envelope = try JSONDecoder().decode(EncryptedEnvelope.self, from: request.body)
        #expect(envelope.keyID == "site-7")
        #expect(envelope.version == "4.0.1")
        #expect(try envelope.open(with: receiver) == TestRecord.bundle("r1"))
        #expect(!String(decoding: request.body, as: UTF8.self).contains("Consent"))
    }

    /// A record encrypted at rest (only `bundle.json.enc` on disk) is delivered from its sealed payload,
    /// across a restart of the service; the payload holds no plaintext and is deleted after the acknowledgement.
    @Test func sealedPayloadOfAnEncryptedRecordIsDeliveredAndThenDeleted() async throws {
        let server = try await RecordingHTTPServer(script: [.status(503)])
        defer { Task { try? await server.shutdown() } }
        let state = try TestRecord.temporaryDirectory()
        let directory = try TestRecord.write("r1", in: state)
        // As an encrypted record: the plaintext Bundle exists only in memory while it is sealed.
        let bundle = try Data(contentsOf: directory.appendingPathComponent("bundle.json"))
        try FileManager.default.moveItem(
            at: directory.appendingPathComponent("bundle.json"), to: directory.appendingPathComponent("bundle.json.enc"))
        let first = try Self.service(state, .fhir(baseURL: server.baseURL))
        try first.payloads.store(recordID: "r1", bundle: bundle)
        let entry = try first.enqueue(recordID: "r1", recordDirectory: directory)
        #expect(entry.sealedPayload == true)
        let sealed = try Data(contentsOf: first.payloads.file(of: "r1"))
        #expect(!String(decoding: sealed, as: UTF8.self).contains("Bundle"), "the payload is not plaintext")
        let keyMode = try FileManager.default.attributesOfItem(atPath: first.payloads.keyFile.path)[.posixPermissions] as? Int
        #expect(keyMode == 0o600)
        // A payload no entry names (a crash before the record was written) is removed; r1's is kept.
        try first.payloads.store(recordID: "orphan", bundle: bundle)
        try first.removeOrphanedPayloads()
        #expect(!first.payloads.hasPayload(of: "orphan"))
        #expect(first.payloads.hasPayload(of: "r1"))

        // A new service over the same state (a restart) delivers it after the 503.
        let second = try Self.service(state, .fhir(baseURL: server.baseURL))
        try await whileRunning(second) {
            try await eventually { try second.status().entries.isEmpty }
        }
        #expect(server.requests.map(\.body) == [bundle, bundle])
        #expect(!second.payloads.hasPayload(of: "r1"), "the sealed copy is deleted once delivered")
    }

    /// An encrypted record queued without a payload (by hand) halts with a message that says why.
    @Test func encryptedRecordWithoutPayloadHaltsSayingWhy() async throws {
        let server = try await RecordingHTTPServer()
        defer { Task { try? await server.shutdown() } }
        let state = try TestRecord.temporaryDirectory()
        let directory = try TestRecord.write("r1", in: state)
        try FileManager.default.moveItem(
            at: directory.appendingPathComponent("bundle.json"), to: directory.appendingPathComponent("bundle.json.enc"))
        let service = try Self.service(state, .fhir(baseURL: server.baseURL))
        try service.enqueue(recordID: "r1", recordDirectory: directory)
        try await whileRunning(service) {
            try await eventually { try service.status().entries.first?.isHalted == true }
        }
        #expect(server.requests.isEmpty)
        #expect(try service.status().entries.first?.lastError?.message.contains("encrypted at rest") == true)
    }
}
