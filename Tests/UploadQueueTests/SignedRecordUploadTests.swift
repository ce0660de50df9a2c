import ConsentCore
import ConsentSigning
import Crypto
import Foundation
import SampleStudy
import Testing

@testable import UploadQueue

/// The whole path the agent will take: sign the sample study's consent, write the record with `RecordWriter`,
/// enqueue it by its id, and deliver it to a local server, which must receive `bundle.json` byte for byte.
@Suite struct SignedRecordUploadTests {
    @Test func aRecordWrittenByRecordWriterIsDeliveredAsIs() async throws {
        let folder = try #require(SampleStudy.folder)
        let study = try Study.load(from: folder)
        let outcome = ConsentOutcome(
            studyID: study.id, studyVersion: study.version, eligibilityAnswers: [true, true, false, true],
            shareWidely: true, givenName: "Test", familyName: "Participant",
            signature: SignatureStrokes(strokes: [[StrokePoint(x: 0.1, y: 0.2, t: 0, p: 0.5)]]))
        let kiosk = KioskIdentity(id: "kiosk-upload-test", signingKey: Curve25519.Signing.PrivateKey())
        let record = try ConsentSigner(kiosk: kiosk).sign(outcome: outcome, study: study, signedAt: Date())

        let state = try TestRecord.temporaryDirectory()
        let records = state.appendingPathComponent("records", isDirectory: true)
        try FileManager.default.createDirectory(at: records, withIntermediateDirectories: true)
        let directory = try RecordWriter.write(record, into: records)

        let server = try await RecordingHTTPServer()
        defer { Task { try? await server.shutdown() } }
        let service = try UploadService(
            stateDirectory: state, configuration: UploadConfiguration(destination: .fhir(baseURL: server.baseURL)))
        try service.enqueue(recordID: record.id, recordDirectory: directory)
        // The queue entry names the record but holds none of it.
        let entryFile = service.store.directory.appendingPathComponent(try #require(try service.status().head).fileName)
        #expect(!String(decoding: try Data(contentsOf: entryFile), as: UTF8.self).contains("Participant"))

        try await whileRunning(service) {
            try await eventually { try service.status().entries.isEmpty }
        }
        let sent = try #require(server.requests.first)
        #expect(sent.body == (try Data(contentsOf: directory.appendingPathComponent(RecordFileName.bundle))))
        #expect(server.requests.count == 1)
    }
}
