import ConsentCore
import Foundation
import SampleStudy
import Testing

/// The structured diagnostics behind `consentctl lint` and `inspect`: codes, severities, files and locations.
@Suite struct StudyDiagnosticTests {
    typealias C = ContractJSON

    @Test func conversionFindingsCarryCodeFileAndLocation() throws {
        let contract = C.contract(
            terms: [
                C.term("Overview", ext: [C.html("<p>hi</p>")]),
                C.term("Lunch"),
                C.term("Privacy"),
                C.term("Withdrawing", ext: [C.html("<p>bye</p>")]),
            ],
            contained: [C.group([C.characteristic("Adult?"), C.characteristic(nil)])],
            authority: "#nowhere", subject: "#eligibility")
        let document = try C.convert(contract)
        let found = document.diagnostics.map { "\($0.severity) \($0.code) \($0.location ?? "-")" }
        #expect(found == [
            "warning termSkipped term[1]",
            "warning sectionWithoutHTML term[2]",
            "warning referenceUnresolved authority[0]",
            "warning characteristicSkipped subject[0] Group.characteristic[1]",
        ])
        #expect(document.diagnostics.allSatisfy { $0.file == "contract.json" })
        // The free-text warnings stay what C3-PRO logs: a section without HTML is its rule, not its warning.
        #expect(document.warnings.count == 3)
        #expect(!document.warnings.contains { $0.contains("has no HTML") })
    }

    @Test func missingHTMLFileIsAnErrorNamingTheFileNotAlsoASectionWithoutHTML() throws {
        let contract = C.contract(terms: [C.term("DataGathering", ext: [C.entry("htmlContentFile", "absent")])])
        let study = try TemporaryStudy(contract: contract).load()
        #expect(study.diagnostics.count == 1)
        let missing = try #require(study.diagnostics.first)
        #expect(missing.severity == .error && missing.code == .fileMissing)
        #expect(missing.file == "absent.html" && missing.location == "term[0]")
        #expect([missing].hasErrors)
    }

    @Test func imagesInHTMLMustBeFilesOfTheStudy() throws {
        let html = #"<p><img alt="x" src="img/a.png"> <IMG SRC='b.png'> <img src=c.png> <img src="https://x/y.png">"#
            + #"<img src="data:image/png;base64,AAAA"> <img src="../outside.png"></p>"#
        let contract = C.contract(terms: [C.term("Privacy", ext: [C.html(html)])])
        let study = try TemporaryStudy(contract: contract, files: ["b.png": "png"])
        let all = try study.load().diagnostics
        // b.png exists but is no image: UIs cannot be sent it (assetUnavailable), the rest are missing files.
        #expect(all.filter { $0.code == .assetUnavailable }.map(\.file) == ["b.png"])
        let diagnostics = all.filter { $0.code != .assetUnavailable }
        #expect(diagnostics.map(\.file) == ["img/a.png", "c.png", "../outside.png"])
        #expect(diagnostics.allSatisfy { $0.code == .fileMissing && $0.location == "term[0], contract.json" })
        #expect(diagnostics.last?.message.contains("outside the study folder") == true)
    }

    @Test func missingReviewDocumentIsAnError() throws {
        let study = try TemporaryStudy(
            contract: C.contract(terms: [C.term("Overview", ext: [C.html("<p>x</p>")])]),
            options: ["askForSharing": false, "reviewConsentDocument": "full"])
        let missing = try #require(try study.load().diagnostics.first)
        #expect(missing.code == .fileMissing && missing.file == "full.html")
        #expect(missing.location == "options.reviewConsentDocument")
    }

    @Test func lintReportsALoadErrorAndTheContractsOwnFindings() throws {
        let study = try TemporaryStudy(
            contract: C.contract(terms: [C.term("Overview"), C.term(nil)]), options: ["askForSharing": true])
        let diagnostics = StudyLint.diagnostics(of: study.folder)
        #expect(diagnostics.map(\.code) == [.termSkipped, .sectionWithoutHTML, .sharingDocumentMissing])
        #expect(diagnostics.last?.file == "Consent_sharing.html")
    }

    @Test func lintNamesTheBrokenContract() throws {
        let study = try TemporaryStudy(contract: ["resourceType": "Contract", "term": "nope"])
        let diagnostics = StudyLint.diagnostics(of: study.folder)
        #expect(diagnostics.count == 1)
        #expect(diagnostics.first?.code == .contractUnreadable)
        #expect(diagnostics.first?.file == "contract.json")
        #expect(diagnostics.first?.message.contains("Contract.term must be an array") == true)
    }

    @Test func lintFindsLanguageSubFoldersWithTheirOwnContract() throws {
        let study = try TemporaryStudy(
            contract: C.contract(terms: [C.term("Overview", ext: [C.html("<p>x</p>")])]),
            files: ["HTMLContent/a.html": "<p>a</p>", "notes/readme.txt": "not a language"])
        try study.write("fr/contract.json", data: C.contract(terms: [C.term("Privacy")]).serialized())
        try study.write("de/contract.json", data: Data("{".utf8))
        let results = StudyLint.check(study.folder)
        #expect(results.map(\.language) == ["en", "de", "fr"])
        // Neither Contract has key information: lint warns of it in each language it can read.
        #expect(results[0].diagnostics.map(\.code) == [.keyInformationMissing])
        #expect(results[1].diagnostics.map(\.code) == [.contractUnreadable])
        // A translation inherits the top folder's options; its one section has no HTML.
        #expect(results[2].diagnostics.map(\.code) == [.sectionWithoutHTML, .keyInformationMissing])
    }

    @Test func encodesAsPlainStrings() throws {
        let diagnostic = StudyDiagnostic.error(.fileMissing, file: "a.html", location: "term[0]", "gone")
        let json = String(decoding: try JSONEncoder().encode(diagnostic), as: UTF8.self)
        #expect(json.contains(#""code":"fileMissing""#) && json.contains(#""severity":"error""#), "\(json)")
        #expect(try JSONDecoder().decode(StudyDiagnostic.self, from: Data(json.utf8)) == diagnostic)
        #expect(diagnostic.description == "error fileMissing a.html (term[0]): gone")
    }
}
