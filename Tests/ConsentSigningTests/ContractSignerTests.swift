import ConsentCore
import Foundation
import Testing

@testable import ConsentSigning

@Suite struct ContractSignerTests {
    private func signer(
        shareWidely: Bool?, at date: Date = Fixture.signedAt, patient: String = "Patient/p-1", png: Data? = nil,
        others: [AdditionalSignature] = []
    ) -> ContractSigner {
        ContractSigner(
            patientReference: patient, shareWidely: shareWidely, signedAt: date, signaturePNG: png,
            additionalSigners: others, namesSigners: true, includesImages: true)
    }

    /// Field by field: C3-PRO's `sample-consent-signed.json` shape on the documentation's sample template.
    @Test func stu3ShapeIsC3ProExactly() throws {
        let template = try Fixture.fixture("c3pro-template-contract.json")
        let expected = try Fixture.fixture("c3pro-signed-expected.json")
        let signed = signer(
            shareWidely: true, at: Date(timeIntervalSince1970: 1_471_427_680), patient: "Patient/RK201608XDH"
        ).stu3(template)
        let signedMembers = try #require(signed.objectValue)
        let expectedMembers = try #require(expected.objectValue)
        #expect(Set(signedMembers.keys) == Set(expectedMembers.keys))
        for (key, value) in expectedMembers {
            #expect(signedMembers[key] == value, "member \(key)")
        }
        #expect(signed == expected)
    }

    @Test func stu3SharingIsSemanticAndOmittedWhenNotAsked() throws {
        let template = try Fixture.fixture("c3pro-template-contract.json")
        #expect(signer(shareWidely: false).stu3(template)["signer"]?[0]?["extension"]?[0]?["valueBoolean"] == false)
        #expect(signer(shareWidely: true).stu3(template)["signer"]?[0]?["extension"]?[0]?["valueBoolean"] == true)
        #expect(signer(shareWidely: nil).stu3(template)["signer"]?[0]?["extension"] == nil)
    }

    @Test func stu3CarriesNoImageNoStatusAndOneSigner() throws {
        let template = try Fixture.fixture("c3pro-template-contract.json")
        let witness = AdditionalSignature(role: .witness, givenName: "W", familyName: "X", strokes: Fixture.strokes)
        let signed = signer(shareWidely: nil, png: Fixture.png, others: [witness]).stu3(template)
        #expect(signed["status"] == nil)
        #expect(signed["signer"]?.arrayValue?.count == 1)
        let signature = try #require(signed["signer"]?[0]?["signature"]?[0]?.objectValue)
        #expect(Set(signature.keys) == ["type", "when", "whoReference"])
        #expect(signed["term"] == template["term"])
    }

    @Test func stu3ReplacesAPreviousSigningAndDropsAppliesEnd() throws {
        var template = try Fixture.fixture("c3pro-template-contract.json")
        template.set("applies", ["start": "2020-01-01", "end": "2021-01-01"])
        let once = signer(shareWidely: true).stu3(template)
        let twice = signer(shareWidely: true).stu3(once)
        #expect(once == twice)
        #expect(once["applies"] == ["start": "2026-09-14T10:15:30Z"])
    }

    @Test func r4SignedContract() throws {
        let study = try Fixture.study()
        let signed = signer(shareWidely: true, png: Fixture.png).r4(study.contract)
        #expect(signed["status"] == "executed")
        #expect(signed["applies"] == ["start": "2026-09-14T10:15:30Z"])
        let signers = try #require(signed["signer"]?.arrayValue)
        #expect(signers.count == 1)
        let consenter = signers[0]
        #expect(
            consenter["type"]
                == [
                    "system": "http://terminology.hl7.org/CodeSystem/contractsignertypecodes", "code": "CONSENTER",
                    "display": "Consenter",
                ])
        #expect(consenter["party"] == ["reference": "Patient/p-1"])
        #expect(
            consenter["extension"]
                == [["url": "http://fhir-registry.smarthealthit.org/StructureDefinition/consents-to-data-sharing", "valueBoolean": true]])
        let signature = try #require(consenter["signature"]?[0])
        #expect(signature["type"] == [["system": "urn:iso-astm:E1762-95:2013", "code": "1.2.840.10065.1.12.1.7", "display": "Consent Signature"]])
        #expect(signature["when"] == "2026-09-14T10:15:30Z")
        #expect(signature["who"] == ["reference": "Patient/p-1"])
        #expect(signature["sigFormat"] == "image/png")
        #expect(signature["data"] == .string(Fixture.png.base64EncodedString()))
        #expect(signature["whoReference"] == nil)
    }

    @Test func r4KeepsEveryOtherMemberAndGivesEachTermAnOffer() throws {
        let study = try Fixture.study()
        let template = try #require(study.contract.objectValue)
        let signed = try #require(signer(shareWidely: nil).r4(study.contract).objectValue)
        for (key, value) in template where !["status", "applies", "signer", "term"].contains(key) {
            #expect(signed[key] == value, "member \(key)")
        }
        let terms = try #require(signed["term"]?.arrayValue)
        let templateTerms = try #require(template["term"]?.arrayValue)
        #expect(terms.count == templateTerms.count)
        for (term, original) in zip(terms, templateTerms) {
            #expect(term["offer"] != nil)
            if let offer = original["offer"] { #expect(term["offer"] == offer) }  // an existing offer is kept
            var withoutOffer = term
            withoutOffer.set("offer", original["offer"])
            #expect(withoutOffer == original)
        }
        // The sample's first term has its own offer; the OnlyInDocument term has no text, so its title is used.
        #expect(terms[0]["offer"] == ["text": "Study overview"])
        #expect(terms[1]["offer"] == ["text": "A wrist sensor records your heart rate and movement while you sleep."])
        #expect(terms.last?["offer"] == ["text": "Compensation and Contacts"])
        #expect(signed["signer"]?[0]?["extension"] == nil)
    }

    @Test func nestedTermGroupsGetOffersToo() {
        let term: JSONValue = ["text": "outer", "group": [["type": ["coding": [["code": "Custom"]]]]]]
        #expect(ContractSigner.withOffer(term)["group"]?[0]?["offer"] == ["text": "Custom"])
    }

    @Test func witnessAndRepresentativeAreSignersWithTheirOwnTypes() throws {
        let study = try Fixture.study()
        let witness = AdditionalSignature(
            role: .witness, givenName: "Wanda", familyName: "Witness", strokes: Fixture.strokes,
            signedAt: Fixture.signedAt.addingTimeInterval(60), png: Fixture.png)
        let representative = AdditionalSignature(
            role: .legallyAuthorizedRepresentative, givenName: "Rita", familyName: "Rep", strokes: Fixture.strokes)
        let signers = try #require(signer(shareWidely: nil, others: [witness, representative]).r4(study.contract)["signer"]?.arrayValue)
        #expect(signers.count == 3)
        #expect(signers[1]["type"]?["code"] == "CONSWIT")
        #expect(signers[1]["party"] == ["type": "Practitioner", "display": "Wanda Witness"])
        #expect(signers[1]["signature"]?[0]?["type"]?[0]?["code"] == "1.2.840.10065.1.12.1.11")
        #expect(signers[1]["signature"]?[0]?["when"] == "2026-09-14T10:16:30Z")
        #expect(signers[1]["signature"]?[0]?["data"] == .string(Fixture.png.base64EncodedString()))
        #expect(signers[2]["type"]?["code"] == "RESPRSN")
        #expect(signers[2]["signature"]?[0]?["type"]?[0]?["code"] == "1.2.840.10065.1.12.1.7")
        #expect(signers[2]["signature"]?[0]?["onBehalfOf"] == ["reference": "Patient/p-1"])
        #expect(signers[2]["signature"]?[0]?["data"] == nil)
    }
}
