import ConsentCore
import Foundation
import Testing

@testable import ConsentSigning

/// Records of consents a witness attested or a legally authorized representative gave: their Contract signers,
/// Consent performers and Provenance agents, and FHIR validity by the independent validator.
@Suite(.serialized) struct SessionSignersTests {
    static let witnessStrokes = SignatureStrokes(strokes: [[StrokePoint(x: 0.2, y: 0.2, t: 0, p: nil), StrokePoint(x: 0.8, y: 0.3, t: 90, p: nil)]])
    static let parent = RepresentativeRelationship(code: "PRN", display: "Parent")

    func outcome(_ study: Study, representative: Bool, witness: Bool) -> ConsentOutcome {
        var outcome = Fixture.outcome(study)
        if representative {
            outcome.representative = ConsentRepresentative(givenName: "Anne", familyName: "Milbanke", relationship: Self.parent)
        }
        if witness {
            outcome.witness = ConsentWitness(givenName: "Grace", familyName: "Hopper", signature: Self.witnessStrokes)
        }
        return outcome
    }

    func sign(representative: Bool, witness: Bool, deidentify: Bool = false) throws -> SignedRecord {
        let study = try Fixture.study()
        return try Fixture.signer().sign(
            outcome: outcome(study, representative: representative, witness: witness), study: study,
            deidentify: deidentify, location: deidentify ? ["country": "US", "state": "MA", "postalCode": "02115"] : nil,
            signedAt: Fixture.signedAt, pdf: Fixture.pdf, signaturePNG: Fixture.png,
            witnessSignaturePNG: witness ? Fixture.png : nil)
    }

    func validate(_ record: SignedRecord) throws -> FHIRValidatorTests.Validation {
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

    @Test func witnessIsAConsentWitnessSigner() throws {
        let record = try sign(representative: false, witness: true)
        let signers = try #require(record.contract["signer"]?.arrayValue)
        #expect(signers.count == 2)
        #expect(signers[0]["type"]?["code"] == "CONSENTER")
        #expect(signers[0]["signature"]?[0]?["type"]?[0]?["code"] == "1.2.840.10065.1.12.1.7")
        #expect(signers[0]["party"]?["reference"]?.stringValue?.hasPrefix("Patient/") == true)
        #expect(signers[1]["type"] == [
            "system": "http://terminology.hl7.org/CodeSystem/contractsignertypecodes", "code": "CONSWIT",
            "display": "Consent Witness",
        ])
        let witness = try #require(signers[1]["signature"]?[0])
        #expect(witness["type"]?[0]?["system"] == "urn:iso-astm:E1762-95:2013")
        #expect(witness["type"]?[0]?["code"] == "1.2.840.10065.1.12.1.11")
        #expect(witness["who"]?["display"] == "Grace Hopper")
        #expect(witness.objectValue?["onBehalfOf"] == nil)
        #expect(witness["sigFormat"] == "image/png")
        let agents = try #require(record.provenance["agent"]?.arrayValue)
        #expect(agents.contains { $0["type"]?["coding"]?[0]?["code"] == "attester" && $0["who"]?["display"] == "Grace Hopper" })
        #expect(record.provenance["signature"]?.arrayValue?.count == 2)
        // The witness's strokes are kept at full fidelity beside the participant's.
        let file = try JSONValue.parse(try #require(record.file(RecordFileName.signature)))
        #expect(file["additionalSigners"]?[0]?["role"] == "witness")
        #expect(file.objectValue?["signedBy"] == nil)
        let result = try validate(record)
        #expect(result.status == 0, "\(result.output)")
    }

    @Test func representativeSignsOnBehalfOfThePatientWithTheRelationshipRecorded() throws {
        let record = try sign(representative: true, witness: true)
        let patient = "Patient/\(record.patient["id"]?.stringValue ?? "")"
        let signers = try #require(record.contract["signer"]?.arrayValue)
        #expect(signers.map { $0["type"]?["code"] } == ["RESPRSN", "CONSWIT"])
        // No signature is attributed to the participant: the representative consented for them.
        #expect(!signers.contains { $0["type"]?["code"] == "CONSENTER" })
        let consenting = try #require(signers[0]["signature"]?[0])
        #expect(consenting["type"]?[0]?["code"] == "1.2.840.10065.1.12.1.7")
        #expect(consenting["who"] == ["reference": "#representative", "type": "RelatedPerson", "display": "Anne Milbanke"])
        #expect(consenting["onBehalfOf"] == ["reference": .string(patient)])
        #expect(signers[0]["extension"]?[0]?["valueBoolean"] == true)  // the sharing choice stays on the consenting signer
        for resource in [record.contract, record.consent, record.provenance] {
            let related = try #require(resource["contained"]?.arrayValue?.first { $0["resourceType"] == "RelatedPerson" })
            #expect(related["id"] == "representative")
            #expect(related["patient"] == ["reference": .string(patient)])
            #expect(related["relationship"]?[0]?["coding"]?[0] == [
                "system": "http://terminology.hl7.org/CodeSystem/v3-RoleCode", "code": "PRN", "display": "Parent",
            ])
            #expect(related["name"]?[0]?["family"] == "Milbanke")
        }
        #expect(record.consent["performer"]?.arrayValue?.contains { $0["reference"] == "#representative" } == true)
        let author = try #require(record.provenance["agent"]?[0])
        #expect(author["type"]?["coding"]?[0]?["code"] == "author")
        #expect(author["who"]?["reference"] == "#representative")
        #expect(author["onBehalfOf"] == ["reference": .string(patient)])
        #expect(record.provenance["signature"]?[0]?["onBehalfOf"] == ["reference": .string(patient)])
        // The participant's name is still recorded (the Patient), and signature.json says who drew the strokes.
        #expect(record.patient["name"]?[0]?["family"] == "Lovelace")
        let file = try JSONValue.parse(try #require(record.file(RecordFileName.signature)))
        #expect(file["signedBy"] == "legallyAuthorizedRepresentative")
        let result = try validate(record)
        #expect(result.status == 0, "\(result.output)")
    }

    @Test func deidentifiedRepresentativeRecordKeepsTheRelationshipNotTheNames() throws {
        let record = try sign(representative: true, witness: true, deidentify: true)
        let bundle = String(decoding: try #require(record.file(RecordFileName.bundle)), as: UTF8.self)
        for name in ["Anne", "Milbanke", "Grace", "Hopper", "Lovelace"] { #expect(!bundle.contains(name), "\(name)") }
        let related = try #require(record.contract["contained"]?.arrayValue?.first { $0["resourceType"] == "RelatedPerson" })
        #expect(related.objectValue?["name"] == nil)
        #expect(related["relationship"]?[0]?["coding"]?[0]?["code"] == "PRN")
        let result = try validate(record)
        #expect(result.status == 0, "\(result.output)")
    }

    @Test func stu3KeepsC3sSingleSigner() throws {
        let study = try Fixture.study()
        let record = try Fixture.signer().sign(
            outcome: outcome(study, representative: true, witness: true), study: study, signedAt: Fixture.signedAt,
            mode: .stu3)
        #expect(record.contract["signer"]?.arrayValue?.count == 1)
        #expect(record.contract["signer"]?[0]?["type"]?["code"] == "CONSENTER")
        // The representative and witness are in the local Provenance.
        #expect(record.provenance["agent"]?.arrayValue?.count == 3)
    }
}
