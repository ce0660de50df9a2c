import ConsentCore
import Foundation
import SampleStudy
import Testing

/// The review step's signer pages: who signs, a representative's name and relationship, a witness's name and
/// signature, their order, back, expiry and wipe.
@Suite struct SignerStepsTests {
    static let strokes = ConsentSessionTests.strokes
    static let witnessStrokes = SignatureStrokes(strokes: [[StrokePoint(x: 0.2, y: 0.2, t: 0, p: nil), StrokePoint(x: 0.8, y: 0.3, t: 90, p: nil)]])

    func study(witness: Bool = false, representative: Bool = false, passcode: Bool = false) throws -> Study {
        var study = try Study.load(from: try #require(SampleStudy.folder))
        study.options.requireWitness = witness
        study.options.allowRepresentative = representative
        study.options.askToCreatePasscode = passcode
        return study
    }

    /// From the start to the page after Agree.
    func agreed(_ study: Study) throws -> ConsentSession {
        var s = ConsentSession(id: "f", study: study, now: .zero)
        try ConsentSessionTests().toReview(&s)
        try s.agreeAndUnderstand(now: .seconds(5))
        return s
    }

    @Test func witnessSignsAfterTheParticipant() throws {
        var s = try agreed(try study(witness: true))
        #expect(s.reviewPage == .name)
        try s.apply(.setName(given: "Ada", family: "Lovelace"), now: .seconds(6))
        #expect(s.viewModel.review?.role == .participant)
        #expect(s.viewModel.review?.hasWitnessName == false)
        try s.apply(.submitSignature(Self.strokes), now: .seconds(7))
        #expect(s.step == .reviewStep && s.reviewPage == .witness)
        let page = try #require(s.viewModel.review)
        #expect(s.viewModel.title == BuiltInTexts.english.witnessTitle)
        #expect(page.role == .witness && page.text == BuiltInTexts.english.witnessText)
        #expect(s.viewModel.actions == [.setSignerName, .back, .decline, .cancel, .askStaff])
        // The witness signs only once named, and only at the witness's signature page.
        #expect(throws: ConsentCoreError(.missingName, "")) { var c = s; try c.apply(.next(.reviewStep), now: .seconds(8)) }
        #expect(throws: ConsentCoreError(.stepMismatch, "")) { var c = s; try c.apply(.submitSignature(Self.witnessStrokes), now: .seconds(8)) }
        #expect(throws: ConsentCoreError(.stepMismatch, "")) { try s.requireSignaturePage(role: .witness) }
        #expect(throws: ConsentCoreError(.invalidField, "")) {
            var c = s; try c.apply(.setSignerName(.witness, given: "W", family: "X", relationship: "PRN"), now: .seconds(8))
        }
        try s.apply(.setSignerName(.witness, given: " Grace ", family: "Hopper", relationship: nil), now: .seconds(8))
        #expect(s.reviewPage == .witnessSignature && s.signingRole == .witness)
        try s.requireSignaturePage(role: .witness)
        #expect(throws: ConsentCoreError(.stepMismatch, "")) { try s.requireSignaturePage(role: .participant) }
        #expect(s.viewModel.review?.signatureInstruction == BuiltInTexts.english.witnessSignatureInstruction)
        #expect(s.viewModel.actions.contains(.beginSignature))
        try s.apply(.submitSignature(Self.witnessStrokes), now: .seconds(9))
        #expect(s.step == .done)
        let outcome = try s.outcome()
        #expect(outcome.signature == Self.strokes && outcome.representative == nil)
        #expect(outcome.witness == ConsentWitness(givenName: "Grace", familyName: "Hopper", signature: Self.witnessStrokes))
        try s.markCompleted()
        #expect(s.witnessGivenName == nil && s.witnessSignature == nil)
    }

    @Test func representativeSignsOnTheParticipantsBehalf() throws {
        var s = try agreed(try study(witness: true, representative: true))
        #expect(s.reviewPage == .signer)
        let choice = try #require(s.viewModel.review)
        #expect(s.viewModel.title == BuiltInTexts.english.signerTitle)
        #expect(choice.signerChoices?.map(\.role) == [.participant, .representative])
        #expect(choice.signedBy == nil)
        #expect(s.viewModel.actions == [.chooseSigner, .back, .decline, .cancel, .askStaff])
        #expect(throws: ConsentCoreError(.invalidAction, "")) { var c = s; try c.apply(.next(.reviewStep), now: .seconds(6)) }
        #expect(throws: ConsentCoreError(.invalidField, "")) { var c = s; try c.apply(.chooseSigner(.witness), now: .seconds(6)) }
        #expect(throws: ConsentCoreError(.stepMismatch, "")) {
            var c = s; try c.apply(.setName(given: "Ada", family: "Lovelace"), now: .seconds(6))
        }
        try s.apply(.chooseSigner(.representative), now: .seconds(6))
        // The participant's name is still recorded, on its own page.
        #expect(s.reviewPage == .name && s.viewModel.title == BuiltInTexts.english.participantNameTitle)
        try s.apply(.setSignerName(.participant, given: "Ada", family: "Lovelace", relationship: nil), now: .seconds(7))
        #expect(s.reviewPage == .representative)
        let rep = try #require(s.viewModel.review)
        #expect(rep.role == .representative && rep.relationshipLabel == BuiltInTexts.english.relationshipLabel)
        #expect(rep.relationships?.map(\.code) == RepresentativeRelationship.defaults.map(\.code))
        #expect(rep.hasRepresentative == false)
        // The consent signature waits for the representative's name and a relationship the study offers.
        #expect(throws: ConsentCoreError(.missingName, "")) { var c = s; try c.apply(.next(.reviewStep), now: .seconds(8)) }
        #expect(throws: ConsentCoreError(.missingName, "")) {
            var c = s; try c.apply(.setSignerName(.representative, given: "Anne", family: "Milbanke", relationship: nil), now: .seconds(8))
        }
        #expect(throws: ConsentCoreError(.invalidField, "")) {
            var c = s; try c.apply(.setSignerName(.representative, given: "Anne", family: "Milbanke", relationship: "XYZ"), now: .seconds(8))
        }
        #expect(throws: ConsentCoreError(.stepMismatch, "")) {
            var c = s; try c.apply(.setSignerName(.witness, given: "Grace", family: "Hopper", relationship: nil), now: .seconds(8))
        }
        try s.apply(.setSignerName(.representative, given: "Anne", family: "Milbanke", relationship: "PRN"), now: .seconds(8))
        #expect(s.reviewPage == .signature && s.signingRole == .representative)
        #expect(s.viewModel.review?.signatureInstruction == BuiltInTexts.english.representativeSignatureInstruction)
        #expect(throws: ConsentCoreError(.stepMismatch, "")) { try s.requireSignaturePage(role: .participant) }
        try s.requireSignaturePage(role: .representative)
        try s.apply(.submitSignature(Self.strokes), now: .seconds(9))
        #expect(s.reviewPage == .witness)
        try s.apply(.setSignerName(.witness, given: "Grace", family: "Hopper", relationship: nil), now: .seconds(10))
        try s.apply(.submitSignature(Self.witnessStrokes), now: .seconds(11))
        #expect(s.step == .done)
        let outcome = try s.outcome()
        #expect(outcome.givenName == "Ada" && outcome.familyName == "Lovelace")
        #expect(outcome.representative?.friendlyName == "Anne Milbanke")
        #expect(outcome.representative?.relationship.code == "PRN")
        #expect(outcome.representative?.relationship.system == RepresentativeRelationship.roleCodeSystem)
        #expect(outcome.signature == Self.strokes && outcome.witness?.signature == Self.witnessStrokes)
    }

    @Test func participantMaySignForThemselvesWhereARepresentativeIsAllowed() throws {
        var s = try agreed(try study(representative: true))
        try s.apply(.chooseSigner(.participant), now: .seconds(6))
        try s.apply(.setName(given: "Ada", family: "Lovelace"), now: .seconds(7))
        #expect(s.reviewPage == .signature && s.signingRole == .participant)
        #expect(throws: ConsentCoreError(.invalidAction, "")) {
            var c = s; try c.apply(.setSignerName(.representative, given: "A", family: "B", relationship: "PRN"), now: .seconds(8))
        }
        try s.apply(.submitSignature(Self.strokes), now: .seconds(8))
        #expect(s.step == .done)
        #expect(try s.outcome().representative == nil)
        #expect(try s.outcome().witness == nil)
    }

    @Test func studiesWithoutTheOptionsRefuseTheNewActions() throws {
        var s = try agreed(try study())
        #expect(s.reviewPage == .name)
        #expect(throws: ConsentCoreError(.invalidAction, "")) { var c = s; try c.apply(.chooseSigner(.representative), now: .seconds(6)) }
        try s.apply(.setName(given: "Ada", family: "Lovelace"), now: .seconds(6))
        #expect(throws: ConsentCoreError(.invalidAction, "")) {
            var c = s; try c.apply(.setSignerName(.witness, given: "G", family: "H", relationship: nil), now: .seconds(7))
        }
        let review = try #require(s.viewModel.review)
        // No new members in the view model of a study that asks for neither.
        #expect(review.signedBy == nil && review.hasWitnessName == nil && review.hasRepresentative == nil)
        try s.apply(.submitSignature(Self.strokes), now: .seconds(7))
        #expect(s.step == .done)
    }

    @Test func backWalksTheSignerPagesInReverse() throws {
        var s = try agreed(try study(witness: true, representative: true, passcode: true))
        try s.apply(.chooseSigner(.representative), now: .seconds(6))
        try s.apply(.setName(given: "Ada", family: "Lovelace"), now: .seconds(7))
        try s.apply(.setSignerName(.representative, given: "Anne", family: "Milbanke", relationship: "GUARD"), now: .seconds(8))
        try s.apply(.submitSignature(Self.strokes), now: .seconds(9))
        try s.apply(.setSignerName(.witness, given: "Grace", family: "Hopper", relationship: nil), now: .seconds(10))
        try s.apply(.submitSignature(Self.witnessStrokes), now: .seconds(11))
        #expect(s.step == .passcode)
        var pages: [ReviewPage] = []
        try s.apply(.back(.passcode), now: .seconds(12))
        while s.step == .reviewStep {
            pages.append(s.reviewPage)
            if s.reviewPage == .document { break }
            try s.apply(.back(.reviewStep), now: .seconds(12))
        }
        #expect(pages == [.witnessSignature, .witness, .signature, .representative, .name, .signer, .document])
        // Forward again: what was given is kept, so next walks through to the witness's signature.
        try s.agreeAndUnderstand(now: .seconds(13))
        for _ in 0..<4 { try s.apply(.next(.reviewStep), now: .seconds(13)) }
        #expect(s.reviewPage == .witness)
        try s.apply(.next(.reviewStep), now: .seconds(13))
        #expect(s.reviewPage == .witnessSignature && s.witnessSignature == Self.witnessStrokes)
    }

    @Test func aNewConsentSignatureOrSignerVoidsTheWitnessSignature() throws {
        var s = try agreed(try study(witness: true, representative: true))
        try s.apply(.chooseSigner(.representative), now: .seconds(6))
        try s.apply(.setName(given: "Ada", family: "Lovelace"), now: .seconds(7))
        try s.apply(.setSignerName(.representative, given: "Anne", family: "Milbanke", relationship: "PRN"), now: .seconds(8))
        try s.apply(.submitSignature(Self.strokes), now: .seconds(9))
        try s.apply(.setSignerName(.witness, given: "Grace", family: "Hopper", relationship: nil), now: .seconds(10))
        try s.apply(.submitSignature(Self.witnessStrokes), now: .seconds(11))
        try s.apply(.back(.done), now: .seconds(12))
        try s.apply(.back(.reviewStep), now: .seconds(12))
        try s.apply(.back(.reviewStep), now: .seconds(12))
        #expect(s.reviewPage == .signature)
        try s.apply(.clearSignature, now: .seconds(13))
        #expect(s.signature == nil && s.witnessSignature == nil)
        // Changing who signs drops the other signer's data.
        for _ in 0..<3 { try s.apply(.back(.reviewStep), now: .seconds(14)) }
        #expect(s.reviewPage == .signer)
        try s.apply(.chooseSigner(.participant), now: .seconds(15))
        #expect(s.representativeGivenName == nil && s.representativeRelationship == nil)
        #expect(s.givenName == "Ada")
    }

    @Test func expiryAndDeclineWipeEverySigner() throws {
        var s = try agreed(try study(witness: true, representative: true))
        try s.apply(.chooseSigner(.representative), now: .seconds(6))
        try s.apply(.setName(given: "Ada", family: "Lovelace"), now: .seconds(7))
        try s.apply(.setSignerName(.representative, given: "Anne", family: "Milbanke", relationship: "PRN"), now: .seconds(8))
        try s.apply(.submitSignature(Self.strokes), now: .seconds(9))
        try s.apply(.setSignerName(.witness, given: "Grace", family: "Hopper", relationship: nil), now: .seconds(10))
        var declined = s
        try declined.apply(.decline, now: .seconds(11))
        var expired = s
        let didExpire = expired.expireIfIdle(now: .seconds(10) + ConsentSession.defaultInactivityTimeout)
        #expect(didExpire)
        for ended in [declined, expired] {
            #expect(ended.givenName == nil && ended.signature == nil)
            #expect(ended.representativeGivenName == nil && ended.representativeFamilyName == nil)
            #expect(ended.representativeRelationship == nil)
            #expect(ended.witnessGivenName == nil && ended.witnessFamilyName == nil && ended.witnessSignature == nil)
        }
    }

    @Test func optionsReadTheSignerKeys() throws {
        let contract = ContractJSON.contract(terms: [ContractJSON.term("Overview", text: "o")])
        let ok = try TemporaryStudy(contract: contract, options: [
            "askForSharing": false, "requireWitness": true, "allowRepresentative": true,
            "representativeRelationships": [
                ["code": "MTH", "display": "Mother"],
                ["code": "guardian", "display": "Guardian", "system": "urn:example:relationships"],
            ],
        ]).load()
        #expect(ok.options.requireWitness && ok.options.allowRepresentative)
        #expect(ok.options.representativeRelationships == [
            RepresentativeRelationship(code: "MTH", display: "Mother"),
            RepresentativeRelationship(code: "guardian", display: "Guardian", system: "urn:example:relationships"),
        ])
        let defaults = try TemporaryStudy(contract: contract, options: ["askForSharing": false]).load()
        #expect(!defaults.options.requireWitness && !defaults.options.allowRepresentative)
        let bad: [JSONValue] = [
            ["requireWitness": "yes"],
            ["representativeRelationships": [["code": "PRN", "display": "Parent"]]],  // without allowRepresentative
            ["allowRepresentative": true, "representativeRelationships": []],
            ["allowRepresentative": true, "representativeRelationships": [["code": "PRN"]]],
            ["allowRepresentative": true, "representativeRelationships": [["code": "PRN", "display": "P", "x": 1]]],
            ["allowRepresentative": true, "representativeRelationships": [["code": "PRN", "display": "P"], ["code": "PRN", "display": "Q"]]],
        ]
        for options in bad {
            let study = try TemporaryStudy(contract: contract, options: options)
            #expect(throws: ConsentCoreError(.invalidConfiguration, "")) { try study.load() }
        }
    }
}
