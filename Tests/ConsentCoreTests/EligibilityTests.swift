import ConsentCore
import Testing

@Suite struct EligibilityTests {
    typealias C = ContractJSON

    static let mustBeMetTable: [(Bool, Bool, Bool)] = [
        (true, false, true), (true, true, false), (false, false, false), (false, true, true),
    ]

    @Test(arguments: mustBeMetTable)
    func mustBeMetIsValueBooleanDifferentFromExclude(value: Bool, exclude: Bool, mustBeMet: Bool) throws {
        let doc = try document([C.characteristic("Q", value: .bool(value), exclude: .bool(exclude))])
        #expect(doc.eligibility == [EligibilityRequirement(question: "Q", mustBeMet: mustBeMet)])
    }

    @Test func missingValueBooleanCountsAsTrue() throws {
        var c = C.characteristic("Q", value: nil, exclude: true)
        c.set("valueCodeableConcept", ["text": "ignored"])
        #expect(try document([c]).eligibility == [EligibilityRequirement(question: "Q", mustBeMet: false)])
    }

    @Test func characteristicsWithoutTextOrExcludeAreSkippedWithAWarning() throws {
        let doc = try document([
            C.characteristic(nil), C.characteristic("no exclude", exclude: nil), C.characteristic("kept"),
            C.characteristic("bad value", value: "yes"),
        ])
        #expect(doc.eligibility.map(\.question) == ["kept"])
        #expect(doc.warnings.count == 3)
        #expect(doc.warnings[0].hasPrefix("eligibility characteristic[0] skipped: no code.text"))
        #expect(doc.warnings[1].hasPrefix("eligibility characteristic[1] skipped: no boolean exclude"))
    }

    @Test func noSubjectOrUnresolvedGroupMeansNoRequirements() throws {
        #expect(try C.convert(C.contract(terms: [C.term("Overview")])).eligibility.isEmpty)
        let doc = try C.convert(C.contract(terms: [C.term("Overview")], subject: "Group/remote"))
        #expect(doc.eligibility.isEmpty)
        #expect(doc.warnings.count == 1)
    }

    @Test func r5GroupWithMembershipIsAccepted() throws {
        var group = C.group([C.characteristic("Adult?")])
        group.set("actual", nil)
        group.set("membership", "definitional")
        let doc = try C.convert(C.contract(terms: [C.term("Overview")], contained: [group], subject: "#eligibility"))
        #expect(doc.eligibility.count == 1)
    }

    static let evaluations: [([Bool?], EligibilityStatus)] = [
        ([true, true, false], .eligible),
        ([false, true, false], .ineligible),
        ([true, true, true], .ineligible),
        ([true, nil, false], .incomplete),
        ([false, nil, nil], .ineligible),  // the first failing answer decides before a later gap
        ([nil, false, false], .incomplete),  // ... but a gap before it leaves the result open
        ([], .incomplete),
        ([true, true], .incomplete),
    ]

    @Test(arguments: evaluations)
    func evaluationWalksRequirementsInOrder(answers: [Bool?], expected: EligibilityStatus) {
        let requirements = [
            EligibilityRequirement(question: "Q1", mustBeMet: true), EligibilityRequirement(question: "Q2", mustBeMet: true),
            EligibilityRequirement(question: "Q3", mustBeMet: false),
        ]
        #expect(requirements.evaluate(answers) == expected)
    }

    @Test func noRequirementsIsEligible() {
        #expect([EligibilityRequirement]().evaluate([]) == .eligible)
    }

    @Test func introConfigOverridesMessages() {
        let (messages, warnings) = EligibilityMessages.from(
            introConfig: ["items": [], "eligibility": ["letsCheckMessage": "L", "eligibleTitle": "T", "eligibleMessage": "E", "ineligibleMessage": "I"]],
            file: "intro.json")
        #expect(messages == EligibilityMessages(letsCheckMessage: "L", eligibleTitle: "T", eligibleMessage: "E", ineligibleMessage: "I"))
        #expect(warnings.isEmpty)
        let (partial, _) = EligibilityMessages.from(introConfig: ["eligibility": ["eligibleTitle": "T"]], file: "intro.json")
        #expect(partial.eligibleTitle == "T")
        #expect(partial.letsCheckMessage == "Let's see if you may take part in this study")
    }

    @Test func aNonStringValueDiscardsTheWholeEligibilityObject() {
        let (messages, warnings) = EligibilityMessages.from(
            introConfig: ["eligibility": ["eligibleTitle": "T", "ineligibleMessage": 3]], file: "intro.json")
        #expect(messages == .defaults)
        #expect(warnings.count == 1)
    }

    @Test func defaultsAreC3s() {
        #expect(EligibilityMessages.defaults.eligibleTitle == "You are eligible to join the study")
        // Not C3-PRO's "Tap the button below…": the message names the button a kiosk UI may place anywhere.
        #expect(EligibilityMessages.defaults.eligibleMessage == "Tap \u{201C}{button}\u{201D} to begin the consent process.")
        #expect(
            EligibilityMessages.defaults.ineligibleMessage
                == "Thank you for your interest!\nUnfortunately, you are not eligible to join this study at this time.")
    }

    private func document(_ characteristics: [JSONValue]) throws -> ConsentDocument {
        try C.convert(C.contract(terms: [C.term("Overview")], contained: [C.group(characteristics)], subject: "#eligibility"))
    }
}
