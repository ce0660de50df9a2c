import ConsentCore
import Foundation
import Testing

@testable import ConsentSigning

/// Withdrawal and re-consent records: how they point at the earlier record, and that the independent validator
/// (fhir.resources, see FHIRValidatorTests) accepts every resource they hold.
@Suite(.serialized) struct LinkedRecordTests {
    static let original = "0b7c2f9e-1111-4aaa-8bbb-0123456789ab"

    static func withdrawalOutcome(_ study: Study, reason: String? = "I am moving abroad") -> ConsentOutcome {
        var outcome = Fixture.outcome(study, shareWidely: nil)
        outcome.eligibilityAnswers = []
        outcome.link = RecordLink(
            kind: .withdrawal, recordID: original, reason: reason, studyTitle: "Heartbeat", signedOn: "2026-09-01")
        return outcome
    }

    static func validate(_ record: SignedRecord) throws -> FHIRValidatorTests.Validation {
        let directory = try Fixture.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        var files: [URL] = []
        for name in [RecordFileName.contract, RecordFileName.consent, RecordFileName.provenance, RecordFileName.patient, RecordFileName.bundle] {
            let url = directory.appendingPathComponent(name)
            try #require(record.file(name)).write(to: url)
            files.append(url)
        }
        return try FHIRValidatorTests.validate(files)
    }

    static func linkEntities(_ provenance: JSONValue) -> [JSONValue] {
        (provenance["entity"]?.arrayValue ?? []).filter {
            $0["what"]?["identifier"]?["system"]?.stringValue == "urn:consent-kiosk:record-id"
        }
    }

    @Test func withdrawalRevokesTheContractAndInactivatesTheConsent() throws {
        let study = try Fixture.study()
        let patient: JSONValue = [
            "resourceType": "Patient", "id": "p-7", "name": [["family": "Lovelace", "given": ["Ada"]]], "birthDate": "1980-04-02",
        ]
        let record = try Fixture.signer().sign(
            outcome: Self.withdrawalOutcome(study), study: study, patient: patient, signedAt: Fixture.signedAt,
            pdf: Fixture.pdf, signaturePNG: Fixture.png)
        #expect(record.contract["status"]?.stringValue == "revoked")
        #expect(record.consent["status"]?.stringValue == "inactive")
        #expect(record.patient["id"]?.stringValue == "p-7")
        let links = Self.linkEntities(record.provenance)
        #expect(links.map { $0["role"]?.stringValue } == ["removal", "removal"])
        #expect(links.map { $0["what"]?["type"]?.stringValue } == ["Contract", "Consent"])
        #expect(links.allSatisfy { $0["what"]?["identifier"]?["value"]?.stringValue == Self.original })
        #expect(record.provenance["reason"]?[0]?["text"]?.stringValue == "I am moving abroad")
        // The PDF's DocumentReference stays the provenance's source.
        #expect(record.provenance["entity"]?.arrayValue?.first?["role"]?.stringValue == "source")
        #expect(record.manifest.withdraws == Self.original)
        #expect(record.manifest.previousRecord == nil)
        #expect(record.manifest.sections == nil)

        let result = try Self.validate(record)
        #expect(result.status == 0, "\(result.output)")
    }

    @Test func withdrawalWithoutReasonOrPDFIsValidToo() throws {
        let study = try Fixture.study()
        let record = try Fixture.signer().sign(
            outcome: Self.withdrawalOutcome(study, reason: nil), study: study, signedAt: Fixture.signedAt)
        #expect(record.provenance["reason"] == nil)
        #expect(Self.linkEntities(record.provenance).count == 2)
        let result = try Self.validate(record)
        #expect(result.status == 0, "\(result.output)")
    }

    @Test func reconsentIsAnActiveConsentThatRevisesThePreviousRecord() throws {
        let study = try Fixture.study()
        var outcome = Fixture.outcome(study)
        outcome.link = RecordLink(kind: .reconsent, recordID: Self.original)
        let record = try Fixture.signer().sign(
            outcome: outcome, study: study, signedAt: Fixture.signedAt, pdf: Fixture.pdf, signaturePNG: Fixture.png)
        #expect(record.contract["status"]?.stringValue == "executed")
        #expect(record.consent["status"]?.stringValue == "active")
        #expect(Self.linkEntities(record.provenance).map { $0["role"]?.stringValue } == ["revision", "revision"])
        #expect(record.manifest.previousRecord == Self.original)
        #expect(record.manifest.withdraws == nil)
        let result = try Self.validate(record)
        #expect(result.status == 0, "\(result.output)")
    }

    /// A consent's manifest keeps what a later withdrawal and re-consent need: the section fingerprints and the
    /// PIN's hash (never the digits), both covered by the signature.
    @Test func manifestKeepsSectionsAndThePasscodeHash() throws {
        let study = try Fixture.study()
        var outcome = Fixture.outcome(study)
        outcome.passcodeHash = try PasscodeHash(passcode: "4711")
        let record = try Fixture.signer().sign(outcome: outcome, study: study, signedAt: Fixture.signedAt)
        let bytes = try #require(record.file(RecordManifest.fileName))
        #expect(!String(decoding: bytes, as: UTF8.self).contains("4711"))
        let decoded = try JSONDecoder().decode(RecordManifest.self, from: bytes)
        let passcode = try #require(decoded.passcode)
        #expect(passcode.matches("4711"))
        #expect(!passcode.matches("4712"))
        #expect(!passcode.matches("471"))
        #expect(decoded.sections == SectionFingerprint.of(study.document))
    }

    /// A manifest written before these fields existed still decodes; its record simply has no sections or PIN.
    @Test func olderManifestsDecode() throws {
        let study = try Fixture.study()
        let record = try Fixture.signer().sign(outcome: Fixture.outcome(study), study: study, signedAt: Fixture.signedAt)
        let parsed = try JSONValue.parse(try #require(record.file(RecordManifest.fileName)))
        var object = try #require(parsed.objectValue)
        object["sections"] = nil
        let old = try JSONDecoder().decode(RecordManifest.self, from: JSONValue.object(object).serialized())
        #expect(old.sections == nil && old.passcode == nil && old.withdraws == nil)
    }
}
