import ConsentCore
import Foundation
import SampleStudy
import Testing

@Suite struct StudyTests {
    typealias C = ContractJSON

    @Test func bundledSampleStudyLoadsAsDesigned() throws {
        let folder = try #require(SampleStudy.folder)
        let study = try Study.load(from: folder)
        #expect(study.warnings.isEmpty)
        #expect(study.document.sections.count >= 6)
        #expect(Set(study.document.sections.map(\.type)).count >= 6)
        #expect(study.document.teamName == "The Heartbeat & Sleep Study Team")
        #expect(study.document.eligibility.contains { !$0.mustBeMet })  // an exclusion criterion
        // Lint-clean: every section has HTML and is in the document; the section left out for want of
        // HTML is tested on copies (ContractConverterTests, LintCommandTests, InspectCommandTests).
        #expect(study.document.sections.allSatisfy { $0.isInDocument })
        #expect(study.document.sections.contains { $0.type == .onlyInDocument })
        #expect(study.sharingHTML?.contains("<ol>") == true)
        #expect(study.eligibilityMessages.letsCheckMessage == "Let's see if you can take part in Heartbeat & Sleep")
        #expect(study.eligibilityMessages.eligibleTitle == EligibilityMessages.defaults.eligibleTitle)
        #expect(study.version.count == 64)
        #expect(study.files.contains("HTMLContent/privacy.html"))
        // HTML with lists, emphasis and a link, as the PDF and review tests need.
        let html = study.document.sections.compactMap(\.htmlContent).joined()
        for tag in ["<ul>", "<ol>", "<em>", "<b>", "<a href="] { #expect(html.contains(tag), "\(tag)") }
    }

    @Test func specSampleGivesTheSectionsTheSpecPredicts() throws {
        let study = try Study.load(from: Fixtures.specSample)
        let d = study.document
        #expect(d.sections.map(\.type) == [.overview, .dataGathering, .privacy, .custom, .withdrawing, .onlyInDocument])
        #expect(d.sections.map(\.title) == ["Welcome to SleepWell", "Data Gathering", "Protecting Your Privacy", "Wrist Sensor", "Withdrawing", "Compensation"])
        #expect(d.sections[1].htmlContentFile == "sleepwell_datagathering")
        #expect(d.sections.map(\.isVisual) == [true, true, true, true, true, false])
        #expect(d.teamName == "The SleepWell Study Team")
        #expect(d.eligibility.map(\.mustBeMet) == [true, true, false])
        #expect(d.eligibility.evaluate([true, true, false]) == .eligible)
        #expect(study.warnings.isEmpty)
    }

    @Test func missingHTMLFileLeavesTheSectionOutWithAWarning() throws {
        let contract = C.contract(terms: [C.term("DataGathering", ext: [C.entry("htmlContentFile", "absent")])])
        let study = try TemporaryStudy(contract: contract).load()
        #expect(study.document.sections[0].isInDocument == false)
        #expect(study.warnings.count == 1 && study.warnings[0].contains("absent.html"))
    }

    @Test func htmlFileIsLookedUpAtTheRootBeforeHTMLContent() throws {
        let contract = C.contract(terms: [C.term("Privacy", ext: [C.entry("htmlContentFile", "p")])])
        let both = try TemporaryStudy(contract: contract, files: ["p.html": "root", "HTMLContent/p.html": "sub"]).load()
        #expect(both.document.sections[0].htmlContent == "root")
        let sub = try TemporaryStudy(contract: contract, files: ["HTMLContent/p.html": "sub"]).load()
        #expect(sub.document.sections[0].htmlContent == "sub")
    }

    @Test func laterHTMLEntriesWinAndAMissingFileKeepsEarlierHTML() throws {
        let contract = C.contract(terms: [
            C.term("Privacy", ext: [C.entry("htmlContentFile", "p"), C.html("inline")]),
            C.term("Overview", ext: [C.html("inline"), C.entry("htmlContentFile", "p")]),
            C.term("DataUse", ext: [C.html("kept"), C.entry("htmlContentFile", "missing")]),
        ])
        let study = try TemporaryStudy(contract: contract, files: ["p.html": "file"]).load()
        #expect(study.document.sections.map(\.htmlContent) == ["inline", "file", "kept"])
    }

    @Test func htmlFileNamesCannotLeaveTheStudyFolder() throws {
        let contract = C.contract(terms: [C.term("Privacy", ext: [C.entry("htmlContentFile", "../secret")])])
        let study = try TemporaryStudy(contract: contract).load()
        #expect(study.document.sections[0].htmlContent == nil)
    }

    @Test func versionCoversEveryUsedFile() throws {
        let contract = C.contract(terms: [C.term("Privacy", ext: [C.entry("htmlContentFile", "p")])])
        let a = try TemporaryStudy(contract: contract, files: ["p.html": "one"]).load()
        let b = try TemporaryStudy(contract: contract, files: ["p.html": "one"]).load()
        let c = try TemporaryStudy(contract: contract, files: ["p.html": "two"]).load()
        #expect(a.version == b.version)
        #expect(a.version != c.version)
        #expect(a.files == ["contract.json", "options.json", "p.html"])
    }

    @Test func aContractFileLoadsOnItsOwn() throws {
        let folder = try TemporaryStudy(contract: C.contract(terms: [C.term("Overview")]), files: ["Consent_sharing.html": "s"])
        let study = try Study.load(from: folder.folder.appendingPathComponent("contract.json"))
        #expect(study.id == "test")
        #expect(study.sharingHTML == "s")
        // No options.json is read for a bare Contract, so sharing is asked and needs its page, which the
        // spec sample's folder does not have: that is refused.
        #expect(throws: ConsentCoreError(.sharingDocumentMissing, "")) {
            try Study.load(from: Fixtures.specSample.appendingPathComponent("contract.json"))
        }
    }

    // MARK: Bad input: each a clear error naming the file.

    @Test func missingStudyOrContract() throws {
        expectError(.fileNotFound, file: "nowhere") { try Study.load(from: URL(fileURLWithPath: "/nowhere")) }
        let empty = try TemporaryStudy(contract: [:])
        try FileManager.default.removeItem(at: empty.folder.appendingPathComponent("contract.json"))
        expectError(.fileNotFound, file: "contract.json") { try empty.load() }
    }

    @Test func notJSON() throws {
        let study = try TemporaryStudy(contract: [:])
        try study.write("contract.json", data: Data("{ not json".utf8))
        expectError(.invalidJSON, file: "contract.json") { try study.load() }
    }

    @Test func notAContract() throws {
        expectError(.notAContract, file: "contract.json") {
            try TemporaryStudy(contract: ["resourceType": "Patient"]).load()
        }
    }

    @Test func wrongTypes() throws {
        expectError(.invalidField, file: "contract.json") {
            try TemporaryStudy(contract: ["resourceType": "Contract", "term": ["a": 1]]).load()
        }
    }

    @Test func htmlThatIsNotUTF8() throws {
        let contract = C.contract(terms: [C.term("Privacy", ext: [C.entry("htmlContentFile", "latin1")])])
        let study = try TemporaryStudy(contract: contract)
        try study.write("latin1.html", data: Data([0x3C, 0x70, 0x3E, 0xE9, 0xFF]))
        expectError(.notUTF8, file: "latin1.html") { try study.load() }
    }

    @Test func aFileOverTheSizeLimit() throws {
        let study = try TemporaryStudy(contract: C.contract(terms: [C.term("Privacy", ext: [C.entry("htmlContentFile", "big")])]))
        try study.write("big.html", data: Data(count: 50 * 1024 * 1024))
        expectError(.fileTooLarge, file: "big.html") { try study.load() }
    }

    @Test func sharingWithoutItsDocumentIsAnErrorNamingTheMissingPage() throws {
        let study = try TemporaryStudy(contract: C.contract(terms: [C.term("Overview")]), options: ["askForSharing": true])
        expectError(.sharingDocumentMissing, file: "Consent_sharing.html") { try study.load() }
        try study.write("HTMLContent/Consent_sharing.html", data: Data("<p>share</p>".utf8))
        #expect(try study.load().sharingHTML == "<p>share</p>")
    }

    @Test func optionsAreCheckedByName() throws {
        for options: JSONValue in [["askForSharin": false], ["askForSharing": "no"], ["reasonForConsent": 1], [1]] {
            let study = try TemporaryStudy(contract: C.contract(terms: [C.term("Overview")]), options: options)
            expectError(.invalidConfiguration, file: "options.json") { try study.load() }
        }
        let study = try TemporaryStudy(
            contract: C.contract(terms: [C.term("Overview")]),
            options: ["askForSharing": false, "askToCreatePasscode": true, "reviewConsentDocument": "review", "reasonForConsent": "R"])
        try study.write("review.html", data: Data("<h1>Custom</h1>".utf8))
        let loaded = try study.load()
        #expect(loaded.options.askToCreatePasscode && loaded.options.reasonForConsent == "R")
        #expect(loaded.reviewHTML == "<h1>Custom</h1>")
        #expect(ReviewDocument.bodyHTML(for: loaded) == "<h1>Custom</h1>")
    }

    @Test func introWithoutItemsIsRefusedWithC3sMessage() throws {
        let study = try TemporaryStudy(contract: C.contract(terms: [C.term("Overview")]))
        try study.write("intro.json", data: Data(#"{"eligibility":{}}"#.utf8))
        do {
            _ = try study.load()
            Issue.record("expected an error")
        } catch let error as ConsentCoreError {
            #expect(error.message == "Invalid JSON: No \u{201C}items\u{201D} array of dictionaries found")
        }
    }

    private func expectError(
        _ code: ConsentCoreError.Code, file: String?, sourceLocation: SourceLocation = #_sourceLocation,
        _ body: () throws -> Study
    ) {
        do {
            _ = try body()
            Issue.record("expected \(code)", sourceLocation: sourceLocation)
        } catch let error as ConsentCoreError {
            #expect(error.code == code, "\(error)", sourceLocation: sourceLocation)
            if let file { #expect(error.description.contains(file), "\(error)", sourceLocation: sourceLocation) }
        } catch {
            Issue.record("unexpected \(error)", sourceLocation: sourceLocation)
        }
    }
}
