import ConsentCore
import Crypto
import Foundation
import Testing

@testable import ConsentSigning

@Suite struct ConsentSignerTests {
    @Test func recordHoldsTheLayoutFiles() throws {
        let study = try Fixture.study()
        let record = try Fixture.signer().sign(outcome: Fixture.outcome(study), study: study, signedAt: Fixture.signedAt)
        #expect(
            record.files.map(\.name) == [
                "contract.json", "consent.json", "provenance.json", "patient.json", "bundle.json", "signature.json",
                "signature-participant.iso19794-7", "manifest.json", "manifest.sig",
            ])
        #expect(record.manifest.files.map(\.name) == [
            "bundle.json", "consent.json", "contract.json", "patient.json", "provenance.json", "signature-participant.iso19794-7",
            "signature.json",
        ])
        #expect(record.id == "00000000-0000-4000-8000-000000000001")
        #expect(record.patient["id"] == "00000000-0000-4000-8000-000000000007")
    }

    @Test func signingIsDeterministicWithInjectedTimeAndUUIDs() throws {
        let study = try Fixture.study()
        let a = try Fixture.signer().sign(outcome: Fixture.outcome(study), study: study, signedAt: Fixture.signedAt, pdf: Fixture.pdf)
        let b = try Fixture.signer().sign(outcome: Fixture.outcome(study), study: study, signedAt: Fixture.signedAt, pdf: Fixture.pdf)
        #expect(a.files == b.files)
    }

    @Test func manifestPinsStudyTimeKioskAndEveryFile() throws {
        let study = try Fixture.study()
        let record = try Fixture.signer().sign(outcome: Fixture.outcome(study), study: study, signedAt: Fixture.signedAt, pdf: Fixture.pdf)
        let manifest = record.manifest
        #expect(manifest.format == "consent-kiosk-record/1")
        #expect(manifest.studyID == study.id)
        #expect(manifest.studyVersion == study.version)
        #expect(manifest.signedAt == "2026-09-14T10:15:30Z")
        #expect(manifest.kioskID == "kiosk-test-1")
        #expect(manifest.publicKey.key == Fixture.kiosk.publicKey.rawRepresentation.base64EncodedString())
        for file in record.files where !file.name.hasPrefix("manifest.") {
            let entry = try #require(manifest.files.first { $0.name == file.name })
            #expect(entry.sha256 == SHA256.hash(data: file.contents).map { String(format: "%02x", $0) }.joined())
            #expect(entry.size == file.contents.count)
        }
        let manifestBytes = try #require(record.file("manifest.json"))
        let signatureText = try #require(record.file("manifest.sig").map { String(decoding: $0, as: UTF8.self) })
        let signature = try #require(Data(base64Encoded: signatureText.trimmingCharacters(in: .whitespacesAndNewlines)))
        #expect(Fixture.kiosk.publicKey.isValidSignature(signature, for: manifestBytes))
        #expect(record.file("consent.pdf") == Fixture.pdf)
    }

    @Test func consentRecordsTheEvent() throws {
        let study = try Fixture.study()
        let record = try Fixture.signer().sign(
            outcome: Fixture.outcome(study, shareWidely: false), study: study, patient: ["resourceType": "Patient", "id": "p-9"],
            signedAt: Fixture.signedAt, pdf: Fixture.pdf)
        let consent = record.consent
        #expect(consent["status"] == "active")
        #expect(consent["scope"]?["coding"]?[0]?["code"] == "research")
        #expect(consent["patient"] == ["reference": "Patient/p-9"])
        #expect(consent["dateTime"] == "2026-09-14T10:15:30Z")
        #expect(consent["organization"] == [["reference": "#team"]])
        #expect(consent["contained"]?[0]?["name"] == "Heartbeat & Sleep Study Team")
        let attachment = try #require(consent["sourceAttachment"])
        #expect(attachment["contentType"] == "application/pdf")
        #expect(attachment["hash"] == .string(Data(Insecure.SHA1.hash(data: Fixture.pdf)).base64EncodedString()))
        #expect(attachment["size"] == .integer(Int64(Fixture.pdf.count)))
        #expect(attachment["creation"] == "2026-09-14T10:15:30Z")
        #expect(attachment["title"] != nil)
        #expect(consent["policyRule"]?["coding"]?[0]?["code"] == .string(study.version))
        #expect(consent["policyRule"]?["text"]?.stringValue?.contains(study.id) == true)
        #expect(consent["policy"]?[0]?["uri"] == .string("urn:consent-kiosk:study:\(study.id)"))
        #expect(consent["provision"]?["type"] == "permit")
        #expect(consent["provision"]?["provision"]?[0]?["type"] == "deny")
        #expect(consent["provision"]?["provision"]?[0]?["action"]?[0]?["coding"]?[0]?["code"] == "disclose")
    }

    @Test func sharingNotAskedLeavesNoSharingProvision() throws {
        let study = try Fixture.study()
        let record = try Fixture.signer().sign(outcome: Fixture.outcome(study, shareWidely: nil), study: study, signedAt: Fixture.signedAt)
        #expect(record.consent["provision"]?["provision"] == nil)
        #expect(record.consent["sourceReference"]?["reference"] == .string("urn:uuid:00000000-0000-4000-8000-000000000002"))
        #expect(record.contract["signer"]?[0]?["extension"] == nil)
    }

    @Test func provenanceTargetsContractAndConsentAndCarriesTheSignature() throws {
        let study = try Fixture.study()
        let witness = AdditionalSignature(role: .witness, givenName: "Wanda", familyName: "Witness", strokes: Fixture.strokes)
        let record = try Fixture.signer().sign(
            outcome: Fixture.outcome(study), study: study, signedAt: Fixture.signedAt, pdf: Fixture.pdf,
            signaturePNG: Fixture.png, additionalSigners: [witness])
        let provenance = record.provenance
        #expect(
            provenance["target"]
                == [
                    ["reference": "urn:uuid:00000000-0000-4000-8000-000000000002", "type": "Contract"],
                    ["reference": "urn:uuid:00000000-0000-4000-8000-000000000003", "type": "Consent"],
                ])
        #expect(provenance["recorded"] == "2026-09-14T10:15:30Z")
        let signatures = try #require(provenance["signature"]?.arrayValue)
        #expect(signatures.count == 2)
        #expect(signatures[0]["who"] == record.contract["signer"]?[0]?["party"])
        #expect(signatures[0]["data"] == .string(Fixture.png.base64EncodedString()))
        #expect(signatures[1]["type"]?[0]?["code"] == "1.2.840.10065.1.12.1.11")
        #expect(provenance["agent"]?[1]?["who"]?["identifier"]?["value"] == "kiosk-test-1")
        #expect(provenance["entity"]?[0]?["what"]?["reference"] == "urn:uuid:00000000-0000-4000-8000-000000000006")
    }

    @Test func bundleIsATransactionOfEverything() throws {
        let study = try Fixture.study()
        let record = try Fixture.signer().sign(
            outcome: Fixture.outcome(study), study: study, patient: ["resourceType": "Patient", "id": "p-9"],
            signedAt: Fixture.signedAt, pdf: Fixture.pdf)
        #expect(record.bundle["type"] == "transaction")
        let entries = try #require(record.bundle["entry"]?.arrayValue)
        #expect(
            entries.compactMap { $0["resource"]?["resourceType"]?.stringValue }
                == ["Patient", "Binary", "DocumentReference", "Contract", "Consent", "Provenance", "ResearchSubject"])
        #expect(entries[0]["request"] == ["method": "PUT", "url": "Patient/p-9"])
        for entry in entries.dropFirst() {
            #expect(entry["request"]?["method"] == "POST")
            #expect(entry["fullUrl"]?.stringValue?.hasPrefix("urn:uuid:") == true)
            #expect(entry["resource"]?["id"] == nil)
        }
        #expect(entries[1]["resource"]?["data"] == .string(Fixture.pdf.base64EncodedString()))
        var contract = record.contract
        contract.set("id", nil)
        #expect(entries[3]["resource"] == contract)
    }

    @Test func stu3RecordBundlesPatientAndContractOnly() throws {
        let study = try Fixture.study()
        let record = try Fixture.signer().sign(outcome: Fixture.outcome(study), study: study, signedAt: Fixture.signedAt, mode: .stu3)
        #expect(record.contract["signer"]?[0]?["type"]?["system"] == "http://hl7.org/fhir/ValueSet/contract-signer-type")
        #expect(record.bundle["entry"]?.arrayValue?.count == 2)
        #expect(record.manifest.mode == .stu3)
    }

    @Test func deidentifiedRecordHasNoNamesOrImages() throws {
        let study = try Fixture.study()
        let witness = AdditionalSignature(
            role: .witness, givenName: "Wanda", familyName: "Witness", strokes: Fixture.strokes, png: Fixture.png)
        let record = try Fixture.signer().sign(
            outcome: Fixture.outcome(study), study: study,
            patient: ["resourceType": "Patient", "name": [["family": "Lovelace"]], "birthDate": "1930-01-01"],
            deidentify: true, location: ["country": "US", "state": "NY", "postalCode": "10203"], signedAt: Fixture.signedAt,
            signaturePNG: Fixture.png, additionalSigners: [witness])
        #expect(record.patient["birthDate"] == "1936")
        #expect(record.patient["address"] == [["country": "US", "state": "NY", "postalCode": "000"]])
        #expect(record.manifest.deidentified)
        for name in ["contract.json", "consent.json", "provenance.json", "patient.json", "bundle.json"] {
            let text = String(decoding: try #require(record.file(name)), as: UTF8.self)
            #expect(!text.contains("Lovelace"), "\(name)")
            #expect(!text.contains("Wanda"), "\(name)")
            #expect(!text.contains(Fixture.png.base64EncodedString()), "\(name)")
        }
    }

    /// The PDF prints the name and draws the signature: a de-identified record pins it by hash in the Consent but
    /// never carries its bytes in a resource or the bundle; it stays in the local record directory only.
    @Test func deidentifiedRecordShipsNoPDF() throws {
        let study = try Fixture.study()
        let record = try Fixture.signer().sign(
            outcome: Fixture.outcome(study), study: study, deidentify: true, location: ["country": "DE"],
            signedAt: Fixture.signedAt, pdf: Fixture.pdf)
        let resources = record.bundle["entry"]?.arrayValue?.compactMap { $0["resource"]?["resourceType"]?.stringValue }
        #expect(resources?.contains("Binary") == false)
        #expect(resources?.contains("DocumentReference") == false)
        let attachment = try #require(record.consent["sourceAttachment"])
        #expect(attachment["url"] == nil && attachment["data"] == nil)
        #expect(attachment["size"] == .integer(Int64(Fixture.pdf.count)))
        #expect(attachment["hash"] != nil)
        let bundle = String(decoding: try #require(record.file("bundle.json")), as: UTF8.self)
        #expect(!bundle.contains(Fixture.pdf.base64EncodedString()))
        #expect(record.file("consent.pdf") == Fixture.pdf)
    }

    @Test func unrestrictedZIP3InADeidentifiedRecord() throws {
        let study = try Fixture.study()
        let record = try Fixture.signer().sign(
            outcome: Fixture.outcome(study), study: study, deidentify: true,
            location: ["country": "US", "state": "NY", "postalCode": "10001-2345", "city": "New York"], signedAt: Fixture.signedAt)
        #expect(record.patient["address"] == [["country": "US", "state": "NY", "postalCode": "100"]])
    }

    @Test func signatureFileKeepsStrokesAtFullFidelity() throws {
        let study = try Fixture.study()
        let record = try Fixture.signer().sign(outcome: Fixture.outcome(study), study: study, signedAt: Fixture.signedAt)
        let data = try #require(record.file("signature.json"))
        #expect(try JSONDecoder().decode(SignatureStrokes.self, from: data) == Fixture.strokes)
    }

    @Test func refusals() throws {
        let study = try Fixture.study()
        let signer = Fixture.signer()
        var outcome = Fixture.outcome(study)
        outcome.signature = SignatureStrokes(strokes: [])
        #expect(throws: ConsentSigningError(.missingSignature, "")) {
            try signer.sign(outcome: outcome, study: study, signedAt: Fixture.signedAt)
        }
        outcome = Fixture.outcome(study)
        outcome.studyVersion = "0000"
        #expect(throws: ConsentSigningError(.studyMismatch, "")) {
            try signer.sign(outcome: outcome, study: study, signedAt: Fixture.signedAt)
        }
        #expect(throws: ConsentSigningError(.invalidSignatureImage, "")) {
            try signer.sign(outcome: Fixture.outcome(study), study: study, signedAt: Fixture.signedAt, signaturePNG: Data("GIF89a".utf8))
        }
        #expect(throws: ConsentSigningError(.invalidPDF, "")) {
            try signer.sign(outcome: Fixture.outcome(study), study: study, signedAt: Fixture.signedAt, pdf: Data("<html>".utf8))
        }
        #expect(throws: ConsentSigningError(.notAPatient, "")) {
            try signer.sign(outcome: Fixture.outcome(study), study: study, patient: ["resourceType": "Practitioner"], signedAt: Fixture.signedAt)
        }
        let unsigned = AdditionalSignature(role: .witness, givenName: "W", familyName: "X", strokes: SignatureStrokes(strokes: []))
        #expect(throws: ConsentSigningError(.invalidSigner, "")) {
            try signer.sign(outcome: Fixture.outcome(study), study: study, signedAt: Fixture.signedAt, additionalSigners: [unsigned])
        }
    }

    /// The audit log's chain head is part of the signed bytes, so changing it breaks `manifest.sig`; without a
    /// head the manifest has no `auditHead` key at all (records signed before the audit log keep their bytes).
    @Test func auditHeadIsSignedIntoTheManifestAndOmittedWhenNil() throws {
        let study = try Fixture.study()
        let head = String(repeating: "ab", count: 32)
        let record = try Fixture.signer().sign(
            outcome: Fixture.outcome(study), study: study, signedAt: Fixture.signedAt, auditHead: head)
        #expect(record.manifest.auditHead == head)
        let manifestBytes = try #require(record.file("manifest.json"))
        let object = try #require(try JSONSerialization.jsonObject(with: manifestBytes) as? [String: Any])
        #expect(object["auditHead"] as? String == head)
        let signatureText = try #require(record.file("manifest.sig").map { String(decoding: $0, as: UTF8.self) })
        let signature = try #require(Data(base64Encoded: signatureText.trimmingCharacters(in: .whitespacesAndNewlines)))
        #expect(Fixture.kiosk.publicKey.isValidSignature(signature, for: manifestBytes))
        let forged = Data(String(decoding: manifestBytes, as: UTF8.self)
            .replacingOccurrences(of: head, with: String(repeating: "cd", count: 32)).utf8)
        #expect(forged != manifestBytes)
        #expect(!Fixture.kiosk.publicKey.isValidSignature(signature, for: forged))

        let plain = try Fixture.signer().sign(outcome: Fixture.outcome(study), study: study, signedAt: Fixture.signedAt)
        #expect(plain.manifest.auditHead == nil)
        #expect(!String(decoding: try #require(plain.file("manifest.json")), as: UTF8.self).contains("auditHead"))
    }
}
