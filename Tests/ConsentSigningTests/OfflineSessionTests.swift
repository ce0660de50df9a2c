import ConsentCore
import Foundation
import Testing

@testable import ConsentSigning

@Suite struct OfflineSessionTests {
    static let valid = """
        {"answers": [true, true, false, true], "shareWidely": false, "given": "Ada", "family": "Lovelace",
         "strokes": [[[0.1, 0.2, 0, 0.5], [0.3, 0.4, 16]]], "patient": null, "deidentify": false, "location": null,
         "signedAt": "2026-09-14T12:15:30.5+02:00", "comprehension": [[1], [1], [0]], "optional": {"future-research": true, "contact-other-studies": false}}
        """

    private func parse(_ text: String) throws -> OfflineSession { try OfflineSession.parse(Data(text.utf8)) }

    @Test func parsesAndReplaysThroughTheSession() throws {
        let session = try parse(Self.valid)
        #expect(session.signedAt == Fixture.signedAt.addingTimeInterval(0.5))
        let outcome = try session.replay(study: try Fixture.study())
        #expect(outcome.shareWidely == false)
        #expect(outcome.givenName == "Ada")
        #expect(outcome.signature.pointCount == 2)
        #expect(outcome.eligibilityAnswers == Fixture.eligibleAnswers)
    }

    @Test func signatureObjectFormIsAccepted() throws {
        let text = Self.valid.replacingOccurrences(
            of: #""strokes": [[[0.1, 0.2, 0, 0.5], [0.3, 0.4, 16]]]"#,
            with: #""strokes": {"strokes": [[[0.1, 0.2, 0]]], "widthMM": 120, "heightMM": 40}"#)
        let session = try parse(text)
        #expect(session.signature.widthMM == 120)
    }

    /// A representative's and a witness's consent replays through the session's signer pages.
    @Test func representativeAndWitnessReplayThroughTheSignerPages() throws {
        var study = try Fixture.study()
        study.options.allowRepresentative = true
        study.options.requireWitness = true
        let extra =
            #""representative": {"given": "Anne", "family": "Milbanke", "relationship": "GUARD"}, "#
            + #""witness": {"given": "Grace", "family": "Hopper", "strokes": [[[0.5, 0.5, 0], [0.6, 0.5, 9]]]}, "patient": null"#
        let full = Self.valid.replacingOccurrences(of: #""patient": null"#, with: extra)
        let outcome = try parse(full).replay(study: study)
        #expect(outcome.givenName == "Ada")
        #expect(outcome.representative?.familyName == "Milbanke" && outcome.representative?.relationship.code == "GUARD")
        #expect(outcome.witness?.givenName == "Grace" && outcome.witness?.signature.pointCount == 2)
        // A witness the study requires must be in the file; one it does not ask for is refused, like a
        // representative it does not allow.
        #expect(throws: ConsentSigningError(.invalidSession, "")) { try parse(Self.valid).replay(study: study) }
        #expect(throws: ConsentSigningError(.invalidSession, "")) { try parse(full).replay(study: try Fixture.study()) }
    }

    @Test func ineligibleAnswersStopTheSigning() throws {
        let session = try parse(Self.valid.replacingOccurrences(of: "[true, true, false, true]", with: "[true, true, true, true]"))
        #expect(throws: ConsentCoreError(.notEligible, "")) { try session.replay(study: try Fixture.study()) }
    }

    @Test func missingSignatureStopsTheSigning() throws {
        let session = try parse(Self.valid.replacingOccurrences(of: #"[[[0.1, 0.2, 0, 0.5], [0.3, 0.4, 16]]]"#, with: "[]"))
        #expect(throws: ConsentCoreError(.missingSignature, "")) { try session.replay(study: try Fixture.study()) }
    }

    @Test func sharingChoiceIsRequiredWhenTheStudyAsks() throws {
        let session = try parse(Self.valid.replacingOccurrences(of: #""shareWidely": false"#, with: #""shareWidely": null"#))
        #expect(throws: ConsentSigningError(.invalidSession, "")) { try session.replay(study: try Fixture.study()) }
    }

    @Test(arguments: [
        ("[1]", "not an object"),
        (#"{"answers": "yes"}"#, "answers"),
        (Self.valid.replacingOccurrences(of: #""given": "Ada""#, with: #""given": 3"#), "given"),
        (Self.valid.replacingOccurrences(of: "2026-09-14T12:15:30.5+02:00", with: "yesterday"), "signedAt"),
        (Self.valid.replacingOccurrences(of: "[0.3, 0.4, 16]", with: "[0.3]"), "strokes"),
        (Self.valid.replacingOccurrences(of: #""deidentify": false"#, with: #""deidentify": "no""#), "deidentify"),
    ])
    func malformedSessionsAreTypedErrors(text: String, member: String) {
        #expect(throws: ConsentSigningError(.invalidSession, "")) { try parse(text) }
    }

    @Test func additionalSignersAreRead() throws {
        let text = Self.valid.replacingOccurrences(
            of: #""patient": null"#,
            with: #""patient": null, "additionalSigners": [{"role": "witness", "given": "W", "family": "X", "strokes": [[[0, 0, 0]]], "signedAt": "2026-09-14T10:20:00Z"}]"#)
        let session = try parse(text)
        #expect(session.additionalSigners.first?.role == .witness)
        #expect(session.additionalSigners.first?.signedAt == Fixture.signedAt.addingTimeInterval(270))
        let badRole = text.replacingOccurrences(of: #""role": "witness""#, with: #""role": "notary""#)
        #expect(throws: ConsentSigningError(.invalidSession, "")) { try parse(badRole) }
    }
}
