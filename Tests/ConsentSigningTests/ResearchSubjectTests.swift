import ConsentCore
import Foundation
import Testing

@testable import ConsentSigning

/// The consent linked to its study in FHIR. The R4 Bundle carries the participant's
/// `ResearchSubject` (status following the record, `consent` → the Consent, `study` → the configured ResearchStudy
/// identifier), the Consent's provision names the study, and the independent validator accepts all of it.
@Suite(.serialized) struct ResearchSubjectTests {
    static func subject(_ record: SignedRecord) -> JSONValue? {
        record.bundle["entry"]?.arrayValue?.compactMap { $0["resource"] }
            .first { $0["resourceType"]?.stringValue == "ResearchSubject" }
    }

    static func entry(of type: String, _ record: SignedRecord) -> JSONValue? {
        record.bundle["entry"]?.arrayValue?.first { $0["resource"]?["resourceType"]?.stringValue == type }
    }

    @Test func consentBundleHasAnOnStudySubjectLinkedToItsConsentAndStudy() throws {
        let study = try Fixture.study()
        let record = try Fixture.signer().sign(outcome: Fixture.outcome(study), study: study, signedAt: Fixture.signedAt)
        let subject = try #require(Self.subject(record))
        #expect(subject["status"]?.stringValue == "on-study")
        #expect(subject["period"]?["start"]?.stringValue == FHIRTime.instant(Fixture.signedAt))
        // The sample study's options.json names its ResearchStudy.
        #expect(subject["study"]?["type"]?.stringValue == "ResearchStudy")
        #expect(subject["study"]?["identifier"]?["system"]?.stringValue == "https://example.org/studies")
        #expect(subject["study"]?["identifier"]?["value"]?.stringValue == "heartbeat-sleep-2026")
        #expect(subject["individual"]?["reference"]?.stringValue == "Patient/\(record.patient["id"]?.stringValue ?? "")")
        let consentEntry = try #require(Self.entry(of: "Consent", record))
        #expect(subject["consent"]?["reference"]?.stringValue == consentEntry["fullUrl"]?.stringValue)
        #expect(subject["identifier"]?[0]?["value"]?.stringValue == record.id)
        let request = try #require(Self.entry(of: "ResearchSubject", record))["request"]
        #expect(request?["method"]?.stringValue == "POST")
        #expect(request?["url"]?.stringValue == "ResearchSubject")

        // The Consent's provision: for research, in this study.
        let provision = try #require(record.consent["provision"])
        #expect(provision["purpose"]?[0]?["code"]?.stringValue == "HRESCH")
        #expect(provision["data"]?[0]?["meaning"]?.stringValue == "related")
        #expect(provision["data"]?[0]?["reference"]?["identifier"]?["value"]?.stringValue == "heartbeat-sleep-2026")

        let result = try LinkedRecordTests.validate(record)
        #expect(result.status == 0, "\(result.output)")
    }

    @Test func withdrawalBundleHasAWithdrawnSubjectNamedByTheWithdrawnRecord() throws {
        let study = try Fixture.study()
        let record = try Fixture.signer().sign(
            outcome: LinkedRecordTests.withdrawalOutcome(study), study: study, signedAt: Fixture.signedAt,
            pdf: Fixture.pdf, signaturePNG: Fixture.png)
        let subject = try #require(Self.subject(record))
        #expect(subject["status"]?.stringValue == "withdrawn")
        #expect(subject["period"]?["end"]?.stringValue == FHIRTime.instant(Fixture.signedAt))
        #expect(subject["identifier"]?[0]?["value"]?.stringValue == LinkedRecordTests.original)
        #expect(subject["consent"]?["reference"]?.stringValue == Self.entry(of: "Consent", record)?["fullUrl"]?.stringValue)
        #expect(record.consent["status"]?.stringValue == "inactive")
        let result = try LinkedRecordTests.validate(record)
        #expect(result.status == 0, "\(result.output)")
    }

    /// After re-consents, the subject is named by the first record of the chain (what the agent looks up).
    @Test func withdrawalAfterReconsentsNamesTheFirstRecord() throws {
        let study = try Fixture.study()
        var outcome = LinkedRecordTests.withdrawalOutcome(study)
        outcome.link?.enrollmentRecordID = "first-record"
        let record = try Fixture.signer().sign(outcome: outcome, study: study, signedAt: Fixture.signedAt)
        #expect(Self.subject(record)?["identifier"]?[0]?["value"]?.stringValue == "first-record")
    }

    /// Without the option: the study id under this project's system. STU3 records (C3-PRO's shape) carry none.
    @Test func defaultIdentifierAndNoSubjectInSTU3() throws {
        var study = try Fixture.study()
        study.options.researchStudy = nil
        let record = try Fixture.signer().sign(outcome: Fixture.outcome(study), study: study, signedAt: Fixture.signedAt)
        let identifier = Self.subject(record)?["study"]?["identifier"]
        #expect(identifier?["system"]?.stringValue == "urn:consent-kiosk:study")
        #expect(identifier?["value"]?.stringValue == study.id)
        let result = try LinkedRecordTests.validate(record)
        #expect(result.status == 0, "\(result.output)")
        let stu3 = try Fixture.signer().sign(outcome: Fixture.outcome(study), study: study, signedAt: Fixture.signedAt, mode: .stu3)
        #expect(Self.subject(stu3) == nil)
    }

    @Test func researchStudyOptionIsCheckedByName() throws {
        let good = try ConsentOptions.from(
            json: ["researchStudy": ["system": "https://clinicaltrials.gov", "value": "NCT01234567"]], file: "options.json")
        #expect(good.researchStudy == ResearchStudyIdentifier(system: "https://clinicaltrials.gov", value: "NCT01234567"))
        let bad: [JSONValue] = [
            ["researchStudy": "NCT01234567"], ["researchStudy": ["system": "https://x"]],
            ["researchStudy": ["system": "has space", "value": "v"]], ["researchStudy": ["system": "s", "value": "v", "use": "x"]],
        ]
        for json in bad {
            #expect(throws: ConsentCoreError.self) { _ = try ConsentOptions.from(json: json, file: "options.json") }
        }
    }
}
