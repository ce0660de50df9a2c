import ConsentCore
import Foundation
import Testing

@testable import ConsentSigning

/// The person obtaining consent in the record: their signature file, the manifest's binding for role
/// `personObtainingConsent`, `Consent.verification`, the Contract's verifier signer and the Provenance's `verifier`
/// agent naming them as a Practitioner; validated by fhir.resources.
@Suite(.serialized) struct StaffCountersignatureTests {
    static let staffStrokes = SignatureStrokes(strokes: [[StrokePoint(x: 0.1, y: 0.5, t: 0, p: nil), StrokePoint(x: 0.9, y: 0.4, t: 120, p: nil)]])

    static func outcome(_ study: Study, method: IdentityVerification = .photoId, note: String? = nil, name: String = "Jane Q. Roe") -> ConsentOutcome {
        var outcome = Fixture.outcome(study)
        outcome.personObtainingConsent = StaffAttestation(
            staff: StaffMember(id: "jroe", name: name), method: method, note: note, signature: staffStrokes)
        return outcome
    }

    @Test func recordCarriesTheVerificationAndTheVerifier() throws {
        let study = try Fixture.study()
        let record = try Fixture.signer().sign(
            outcome: Self.outcome(study, method: .other, note: "birth certificate"), study: study, signedAt: Fixture.signedAt,
            pdf: Fixture.pdf, signaturePNG: Fixture.png, staffSignaturePNG: Fixture.png)

        let verification = try #require(record.consent["verification"]?.arrayValue?.first)
        #expect(verification["verified"]?.boolValue == true)
        #expect(verification["verificationDate"]?.stringValue == FHIRTime.instant(Fixture.signedAt))
        #expect(verification["verifiedWith"]?["reference"]?.stringValue?.hasPrefix("Patient/") == true)
        let method = try #require(verification["extension"]?[0])
        #expect(method["url"]?.stringValue == "urn:consent-kiosk:fhir:identity-verification-method")
        #expect(method["valueCodeableConcept"]?["coding"]?[0]?["code"]?.stringValue == "other")
        #expect(method["valueCodeableConcept"]?["text"]?.stringValue == "birth certificate")

        let agents = try #require(record.provenance["agent"]?.arrayValue)
        let verifier = try #require(agents.first { $0["type"]?["coding"]?[0]?["code"]?.stringValue == "verifier" })
        #expect(verifier["who"]?["type"]?.stringValue == "Practitioner")
        #expect(verifier["who"]?["display"]?.stringValue == "Jane Q. Roe")
        #expect(verifier["who"]?["identifier"]?["value"]?.stringValue == "jroe")
        #expect(verifier["who"]?["identifier"]?["system"]?.stringValue == "urn:consent-kiosk:staff-id")
        let signatures = try #require(record.provenance["signature"]?.arrayValue)
        #expect(signatures.contains { $0["type"]?[0]?["code"]?.stringValue == SignerRole.personObtainingConsent.signatureType.code })
        let signers = try #require(record.contract["signer"]?.arrayValue)
        #expect(signers.contains { $0["type"]?["code"]?.stringValue == "VERF" })

        // The staff signature's own files, bound in the manifest to the document it was given on.
        #expect(record.file("signature-personObtainingConsent.iso19794-7") != nil)
        let binding = try #require(record.manifest.signatures?.first { $0.role == "personObtainingConsent" })
        #expect(binding.documentVersion == study.version && binding.pdfSHA256 != nil)
        #expect(binding.biometricFile == "signature-personObtainingConsent.iso19794-7")
        let strokes = String(decoding: try #require(record.file(RecordFileName.signature)), as: UTF8.self)
        #expect(strokes.contains("personObtainingConsent"))

        let result = try FHIRValidatorTests.validate(try write(record))
        #expect(result.status == 0, "\(result.output)")
    }

    @Test func deidentifiedRecordKeepsTheMethodButNotTheNote() throws {
        let study = try Fixture.study()
        let record = try Fixture.signer().sign(
            outcome: Self.outcome(study, method: .other, note: "knows her from the ward", name: "Roe"), study: study,
            patient: ["resourceType": "Patient", "id": "p-1", "birthDate": "1961-03-04", "gender": "female"],
            deidentify: true, location: ["country": "US", "state": "WY", "postalCode": "82301"], signedAt: Fixture.signedAt,
            pdf: Fixture.pdf, signaturePNG: Fixture.png, staffSignaturePNG: Fixture.png)
        let verification = try #require(record.consent["verification"]?[0])
        #expect(verification["extension"]?[0]?["valueCodeableConcept"]?["coding"]?[0]?["code"]?.stringValue == "other")
        #expect(verification["extension"]?[0]?["valueCodeableConcept"]?["text"] == nil)
        let text = String(decoding: try record.consent.serialized(), as: UTF8.self)
        #expect(!text.contains("knows her"))
        let result = try FHIRValidatorTests.validate(try write(record))
        #expect(result.status == 0, "\(result.output)")
    }

    @Test func aRecordWithoutCountersignatureHasNoVerification() throws {
        let study = try Fixture.study()
        let record = try Fixture.signer().sign(outcome: Fixture.outcome(study), study: study, signedAt: Fixture.signedAt)
        #expect(record.consent["verification"] == nil)
        #expect(record.manifest.signatures?.contains { $0.role == "personObtainingConsent" } != true)
    }

    private func write(_ record: SignedRecord) throws -> [URL] {
        let directory = try Fixture.temporaryDirectory()
        return try [RecordFileName.contract, RecordFileName.consent, RecordFileName.provenance, RecordFileName.patient, RecordFileName.bundle]
            .map { name in
                let url = directory.appendingPathComponent(name)
                try #require(record.file(name)).write(to: url)
                return url
            }
    }
}
