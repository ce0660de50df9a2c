import ConsentCore
import Foundation
import Testing

@Suite struct ContractConverterTests {
    typealias C = ContractJSON

    @Test(arguments: ConsentSectionType.allCases)
    func everyCodeGivesItsTypeAndDefaultTitle(type: ConsentSectionType) throws {
        let doc = try C.convert(C.contract(terms: [C.term(type.rawValue, ext: [C.html("<p>x</p>")])]))
        #expect(doc.sections.map(\.type) == [type])
        #expect(doc.sections[0].title == type.defaultTitle)
        #expect(doc.sections[0].isVisual == (type != .onlyInDocument))
    }

    @Test func defaultTitlesAreResearchKits() {
        #expect(ConsentSectionType.overview.defaultTitle == "Welcome")
        #expect(ConsentSectionType.dataGathering.defaultTitle == "Data Gathering")
        #expect(ConsentSectionType.timeCommitment.defaultTitle == "Time Commitment")
        #expect(ConsentSectionType.custom.defaultTitle == nil)
        #expect(ConsentSectionType.onlyInDocument.defaultTitle == nil)
        #expect(ConsentSectionType.allCases.count == 10)
    }

    @Test func termsKeepTheirOrder() throws {
        let codes = ["Withdrawing", "Overview", "Privacy", "Custom"]
        let doc = try C.convert(C.contract(terms: codes.map { C.term($0) }))
        #expect(doc.sections.map(\.type.rawValue) == codes)
        #expect(doc.sections.map(\.termIndex) == [0, 1, 2, 3])
    }

    @Test func codingWithAnotherSystemIsSkippedAndTheNextDecides() throws {
        let term: JSONValue = [
            "type": [
                "coding": [
                    ["system": .string(C.system + ".html"), "code": "Privacy"],
                    ["system": .string(C.system), "code": "DataUse"],
                ]
            ]
        ]
        let doc = try C.convert(C.contract(terms: [term]))
        #expect(doc.sections.map(\.type) == [.dataUse])
    }

    @Test func aSystemWithHtmlSuffixAloneLeavesTheTermWithoutType() throws {
        let doc = try C.convert(C.contract(terms: [C.term("Privacy", system: C.system + ".html"), C.term("Overview")]))
        #expect(doc.sections.map(\.type) == [.overview])
        #expect(doc.warnings.count == 1)
        #expect(doc.warnings[0].hasPrefix("term[0] skipped: \(ContractConverter.noTypeMessage)"))
        // Why, and what to change: the wrong system and the right one, by name.
        #expect(doc.warnings[0].contains("\"\(C.system).html\" is not ResearchKit's code system; change it to \"\(C.system)\""))
    }

    @Test func codingWithoutSystemIsAccepted() throws {
        let doc = try C.convert(C.contract(terms: [C.term("StudyTasks", system: nil)]))
        #expect(doc.sections.map(\.type) == [.studyTasks])
    }

    @Test func codingWithoutCodeIsSkipped() throws {
        let term: JSONValue = ["type": ["coding": [["system": .string(C.system)], ["code": "Overview"]]]]
        #expect(try C.convert(C.contract(terms: [term])).sections.map(\.type) == [.overview])
    }

    @Test func firstDecidingCodingWins() throws {
        let term: JSONValue = ["type": ["coding": [["code": "Privacy"], ["code": "Overview"]]]]
        #expect(try C.convert(C.contract(terms: [term])).sections.map(\.type) == [.privacy])
    }

    @Test func unknownCodeSkipsTheTermWithoutTryingLaterCodings() throws {
        let term: JSONValue = ["type": ["coding": [["code": "overview"], ["code": "Overview"]]]]
        let doc = try C.convert(C.contract(terms: [term, C.term("Privacy")]))
        #expect(doc.sections.map(\.type) == [.privacy])
        #expect(doc.warnings.count == 1)
        #expect(doc.warnings[0].hasPrefix("term[0] skipped: Unknown consent section type \u{201C}overview\u{201D}: the known types are Overview, DataGathering,"))
        #expect(doc.warnings[0].contains("OnlyInDocument (case-sensitive)"))
    }

    @Test func termWithoutTypeIsSkipped() throws {
        let doc = try C.convert(C.contract(terms: [["text": "no type"], C.term("Privacy")]))
        #expect(doc.sections.count == 1)
        #expect(doc.warnings.count == 1)
        #expect(doc.warnings[0].hasPrefix("term[0] skipped: Looking for consent type in ContractTerm.type.coding but none was found: the term has no type.coding; add"))
        #expect(doc.warnings[0].contains("<type> is one of Overview,"))
    }

    @Test func noConvertibleTermIsAnErrorWithC3sMessage() {
        for terms: [JSONValue] in [[], [C.term("Nope")], [["text": "x"]]] {
            #expect(throws: ConsentCoreError(.contractHasNoTerms, "")) { try C.convert(C.contract(terms: terms)) }
        }
        var noTerms = C.contract(terms: [])
        noTerms.set("term", nil)
        do {
            _ = try C.convert(noTerms)
            Issue.record("expected an error")
        } catch let error as ConsentCoreError {
            #expect(error.code == .contractHasNoTerms)
            #expect(error.message == "The Contract resource does not have any terms that can be used for consenting")
        } catch { Issue.record("unexpected \(error)") }
    }

    @Test func notAContractIsRefused() {
        #expect(throws: ConsentCoreError(.notAContract, "")) { try C.convert(["resourceType": "Patient"]) }
        #expect(throws: ConsentCoreError(.notAContract, "")) { try C.convert([1, 2]) }
        #expect(throws: ConsentCoreError(.invalidField, "")) {
            try C.convert(["resourceType": "Contract", "term": "not an array"])
        }
    }

    @Test func extensionSetsTitleHTMLImageAndAnimation() throws {
        let doc = try C.convert(
            C.contract(terms: [
                C.term(
                    "Custom", text: "summary",
                    ext: [
                        C.entry("title", "Wrist Sensor"), C.entry("image", "img"), C.entry("animation", "anim"),
                        C.html("<p>h</p>"), C.entry("somethingElse", "ignored"),
                    ])
            ]))
        let s = doc.sections[0]
        #expect(s.title == "Wrist Sensor")
        #expect(s.summary == "summary")
        #expect(s.htmlContent == "<p>h</p>")
        #expect(s.image == "img")
        #expect(s.animation == "anim")
        #expect(s.isInDocument)
        #expect(s.learnMoreTitle == "Learn more")
    }

    @Test func titleWithoutValueLosesEvenTheDefault() throws {
        let doc = try C.convert(C.contract(terms: [C.term("Overview", ext: [C.entry("title", nil)])]))
        #expect(doc.sections[0].title == nil)
    }

    @Test func onlyTheFirstSectionExtensionIsRead() throws {
        let term: JSONValue = [
            "type": ["coding": [["code": "Privacy"]]],
            "extension": [
                ["url": "http://example.org/other", "extension": [C.entry("title", "Other")]],
                C.sectionExtension([C.entry("title", "First")]),
                C.sectionExtension([C.entry("title", "Second")]),
            ],
        ]
        #expect(try C.convert(C.contract(terms: [term])).sections[0].title == "First")
    }

    @Test func sectionWithoutHTMLIsLeftOutOfTheDocument() throws {
        let doc = try C.convert(C.contract(terms: [C.term("Overview", text: "only a summary"), C.term("Privacy", ext: [C.html("<p>p</p>")])]))
        #expect(doc.sections.map(\.isInDocument) == [false, true])
        #expect(doc.documentSections.map(\.type) == [.privacy])
        #expect(doc.sections[0].learnMoreTitle == nil)
    }

    @Test func onlyInDocumentIsNotAVisualScene() throws {
        let doc = try C.convert(C.contract(terms: [C.term("Overview"), C.term("OnlyInDocument", ext: [C.html("<p>$</p>")])]))
        #expect(doc.visualSections.map(\.type) == [.overview])
        #expect(doc.documentSections.map(\.type) == [.onlyInDocument])
    }

    @Test func r4TermOfferIsAccepted() throws {
        var term = C.term("Overview")
        term.set("offer", ["text": "Study overview"])
        #expect(try C.convert(C.contract(terms: [term])).sections.count == 1)
    }

    @Test func teamNameComesFromTheContainedOrganization() throws {
        let org: JSONValue = ["resourceType": "Organization", "id": "team", "name": "SleepWell Study Team"]
        #expect(try C.convert(C.contract(terms: [C.term("Overview")], contained: [org], authority: "#team")).teamName == "The SleepWell Study Team")
    }

    @Test func teamNameFallsBack() throws {
        let noName: JSONValue = ["resourceType": "Organization", "id": "team"]
        let notOrg: JSONValue = ["resourceType": "Group", "id": "team"]
        let cases: [(JSONValue, String?, Int)] = [
            ([], nil, 0), ([noName], "#team", 0), ([notOrg], "#team", 1), ([], "Organization/123", 1), ([], "#missing", 1),
        ]
        for (contained, authority, warnings) in cases {
            let contained = contained.arrayValue ?? []
            let doc = try C.convert(C.contract(terms: [C.term("Overview")], contained: contained, authority: authority))
            #expect(doc.teamName == "the research team")
            #expect(doc.warnings.count == warnings)
        }
    }

    @Test func unmodelledMembersSurviveARoundTrip() throws {
        let text = #"{"resourceType":"Contract","meta":{"tag":[{"code":"x"}]},"term":[{"type":{"coding":[{"code":"Overview"}]},"offer":{"text":"o"},"zzz":[1,2.5,null,true]}],"_issued":{"extension":[]}}"#
        let value = try JSONValue.parse(Data(text.utf8))
        let again = try JSONValue.parse(value.serialized())
        #expect(again == value)
        #expect(value["term"]?[0]?["zzz"] == [1, .number(2.5), nil, true])
        #expect(value["_issued"] != nil)
    }

    @Test func termCodedOnlyInAnotherSystemSaysWhichSystemIsRead() throws {
        let term: JSONValue = ["type": ["coding": [["system": "http://loinc.org", "code": "59284-0"]]]]
        let doc = try C.convert(C.contract(terms: [term, C.term("Privacy")]))
        #expect(doc.warnings.count == 1)
        #expect(doc.warnings[0].contains("not \"http://loinc.org\"; add one whose code is one of Overview,"), "\(doc.warnings)")
    }
}
