import ConsentCore
import ConsentRecords
import ConsentSigning
import Crypto
import Foundation
import SampleStudy
import Testing

/// A change of answers' record: its PDF names the record it amends and lists every answer, not the consent again;
/// its Bundle sends the earlier Consent again, inactive, by the record id.
@Suite struct ChangeDocumentTests {
    static let earlier = "0b7c2f9e-1111-4aaa-8bbb-0123456789ab"

    static func compose(amendedConsent: JSONValue? = nil) throws -> (ComposedRecord, Study) {
        let study = try Study.load(from: try #require(SampleStudy.folder))
        let answers = study.document.optionalElements.enumerated().map { index, element in
            OptionalElementAnswer(element: element, accepted: index == 0)
        }
        let outcome = ConsentOutcome(
            studyID: study.id, studyVersion: study.version, eligibilityAnswers: [], shareWidely: nil, givenName: "Zoë",
            familyName: "Müller", signature: ConsentRecordComposerTests.strokes,
            link: RecordLink(kind: .change, recordID: earlier, studyTitle: "Heartbeat", signedOn: "2026-09-01"),
            optionalAnswers: answers)
        let composer = ConsentRecordComposer(
            signer: ConsentSigner(kiosk: KioskIdentity(id: "kiosk-test", signingKey: Curve25519.Signing.PrivateKey())))
        return (
            try composer.compose(
                outcome: outcome, study: study, signedAt: ConsentRecordComposerTests.signedAt, amendedConsent: amendedConsent),
            study
        )
    }

    @Test func thePDFNamesTheAmendedRecordAndListsEveryAnswer() throws {
        let (composed, study) = try Self.compose()
        let text = try WithdrawalDocumentTests.text(ofPDF: try #require(composed.record.file("consent.pdf")))
        #expect(text.contains("Change of Optional Choices"))
        #expect(text.contains("Heartbeat") && text.contains("2026-09-01") && text.contains(Self.earlier))
        for element in study.document.optionalElements { #expect(text.contains(element.title), "\(element.title)") }
        let heading = try #require(study.document.documentSections.compactMap(\.title).first)
        #expect(!text.contains(heading))
        #expect(composed.record.manifest.amends == Self.earlier)
        #expect(composed.record.manifest.withdraws == nil && composed.record.manifest.previousRecord == nil)
    }

    @Test func theBundleSendsTheEarlierConsentAgainInactiveByItsRecordID() throws {
        // The earlier record's Consent as a kiosk signed it: its references point into its own Bundle.
        let earlierConsent: JSONValue = [
            "resourceType": "Consent", "id": "c-1", "status": "active",
            "sourceReference": ["reference": "urn:uuid:1234", "type": "Contract"],
            "provision": ["type": "permit"],
        ]
        let (composed, _) = try Self.compose(amendedConsent: earlierConsent)
        let entries = composed.record.bundle["entry"]?.arrayValue ?? []
        let resent = try #require(entries.first { $0["request"]?["method"]?.stringValue == "PUT" && $0["resource"]?["resourceType"] == "Consent" })
        #expect(resent["request"]?["url"]?.stringValue == "Consent?identifier=urn:consent-kiosk:record-id|\(Self.earlier)")
        #expect(resent["resource"]?["status"] == "inactive")
        #expect(resent["resource"]?["id"] == nil)
        #expect(resent["resource"]?["identifier"]?[0]?["value"]?.stringValue == Self.earlier)
        #expect(resent["resource"]?["sourceReference"]?["reference"] == nil)
        #expect(resent["resource"]?["sourceReference"]?["identifier"]?["value"]?.stringValue == Self.earlier)
        // The change's own Consent: active, named by its own record id.
        #expect(composed.record.consent["status"] == "active")
        #expect(composed.record.consent["identifier"]?[0]?["value"]?.stringValue == composed.record.id)
        // Without the earlier Consent (a record encrypted at rest) only the change's own resources go.
        let (plain, _) = try Self.compose()
        #expect(!(plain.record.bundle["entry"]?.arrayValue ?? []).contains { $0["request"]?["method"]?.stringValue == "PUT" && $0["resource"]?["resourceType"] == "Consent" })
    }
}
