import ConsentCore
import Foundation

/// A stand-in record maker: writes what the consent collected as plain JSON, unsigned.
///
/// TO BE REPLACED by ConsentSigning's record writer (FHIR Contract/Consent/Provenance/Bundle, manifest and
/// Ed25519 signature). It exists so that `flow.complete` works end to end before that module is merged, and it
/// uses the same directory layout and file names where it writes the same thing: `consent.json` (the answers,
/// the choice, the name), `signature.json` (the strokes in the shared stroke format), `patient.json` when the
/// kiosk gave one, `consent.pdf` when a `PDFRendering` is given, and `manifest.json` listing the files.
public struct JSONRecordMaker: RecordMaking {
    public let writer: AtomicRecordWriter
    public let renderer: (any PDFRendering)?

    public init(stateDirectory: URL, renderer: (any PDFRendering)? = nil) {
        self.writer = AtomicRecordWriter(recordsDirectory: stateDirectory.appendingPathComponent("records"))
        self.renderer = renderer
    }

    public func makeRecord(for outcome: ConsentOutcome, study: Study, options: CompletionOptions) async throws -> RecordReceipt {
        let id = RecordID.make()
        let completed = ISO8601DateFormatter().string(from: options.completedAt)
        var consent: JSONValue = [
            "record": .string(id),
            "study": .string(outcome.studyID),
            "studyVersion": .string(outcome.studyVersion),
            "completedAt": .string(completed),
            "eligibilityAnswers": .array(outcome.eligibilityAnswers.map { $0.map(JSONValue.bool) ?? .null }),
            "shareWidely": outcome.shareWidely.map(JSONValue.bool) ?? .null,
            "givenName": .string(outcome.givenName),
            "familyName": .string(outcome.familyName),
            "hasPasscode": .bool(outcome.passcodeHash != nil),
            "deidentify": .bool(options.deidentify),
            "signed": false,
        ]
        if let location = options.location { consent.set("location", .string(location)) }
        var files: [(name: String, data: Data)] = [
            ("consent.json", try consent.serialized(pretty: true)),
            ("signature.json", try Self.encoder.encode(outcome.signature)),
        ]
        if let patient = options.patient { files.append(("patient.json", try patient.serialized(pretty: true))) }
        if let renderer {
            files.append(("consent.pdf", try await renderer.renderConsentPDF(for: outcome, study: study, completedAt: options.completedAt)))
        }
        let names = files.map(\.name).sorted()
        let manifest: JSONValue = [
            "record": .string(id),
            "writer": "consentd JSONRecordMaker (unsigned stand-in)",
            "files": .array(files.sorted { $0.name < $1.name }.map { ["name": .string($0.name), "bytes": .integer(Int64($0.data.count))] }),
        ]
        files.append(("manifest.json", try manifest.serialized(pretty: true)))
        let directory = try writer.write(id: id, files: files)
        return RecordReceipt(id: id, directory: directory, files: (names + ["manifest.json"]).sorted())
    }

    private static var encoder: JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return encoder
    }
}
