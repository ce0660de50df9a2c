import ConsentCore
import Foundation
import Testing

/// Study files as C3-PRO reads them: with Apple's JSONSerialization, which lets a comma close an object or an array.
@Suite struct C3ProJSONTests {
    typealias C = ContractJSON

    /// The shape of the intro C3-PRO's demo app ships (`StudyIntro.json`): a welcome item, a video item and HTML
    /// items, each HTML item closed after a comma.
    static let demoStyleIntro = """
        {
          "title": "My Research App",
          "logo": "logo_study",
          "items": [
            {
              "type": "welcome",
              "title": "Welcome to the study",
              "subtitle": "A research study on sleep",
              "video": "intro-video"
            },
            {
              "type": "video",
              "video": "intro-video"
            },
            {
              "title": "About this Study",
              "filename": "intro_about",
            },
            {
              "title": "Who is Eligible to Participate",
              "filename": "intro_eligibility",
            }
          ]
        }
        """

    @Test func anIntroWithTrailingCommasLoadsWithAWarningNamingFileAndLine() throws {
        let study = try TemporaryStudy(contract: C.contract(terms: [C.term("Overview")]))
        try study.write(Study.introFileName, data: Data(Self.demoStyleIntro.utf8))
        let loaded = try study.load()
        let lenient = loaded.diagnostics.filter { $0.code == .lenientJSON }
        #expect(lenient.map(\.location) == ["line 17, column 32", "line 21, column 38"])
        #expect(lenient.allSatisfy { $0.severity == .warning && $0.file == Study.introFileName })
        #expect(lenient.first?.message.contains("a comma after the last member of an object") == true)
        // The file is part of the version like any other it used.
        #expect(loaded.files.contains(Study.introFileName))
        // The lint of the folder lists it too.
        let lint = StudyLint.check(study.folder)
        #expect(lint.first?.diagnostics.contains { $0.code == .lenientJSON && $0.location == "line 17, column 32" } == true)
    }

    @Test func everyStudyJSONFileIsReadAsC3ProReadsIt() throws {
        let contract = try String(decoding: C.contract(terms: [C.term("Overview", text: "Hello")]).serialized(pretty: true), as: UTF8.self)
        // `…]\n}` becomes `…],\n}`: a comma after the Contract's last member.
        let lenientContract = try #require(contract.range(of: "\n}", options: .backwards)).lowerBound
        let study = try TemporaryStudy(
            contract: C.contract(terms: [C.term("Overview")]), options: nil)
        try study.write(Study.contractFileName, data: Data((contract[..<lenientContract] + ",\n}").utf8))
        try study.write(Study.optionsFileName, data: Data(#"{"askForSharing": false, "askToCreatePasscode": true,}"#.utf8))
        try study.write("de/\(Study.contractFileName)", data: Data(#"""
            {"resourceType": "Contract", "language": "de",
             "term": [{"type": {"coding": [{"system": "\#(C.system)", "code": "Overview",},]}, "text": "Hallo",},],}
            """#.utf8))
        let loaded = try study.load()
        #expect(loaded.document.sections.first?.summary == "Hello")
        #expect(loaded.options.askToCreatePasscode)
        #expect(Set(loaded.diagnostics.filter { $0.code == .lenientJSON }.compactMap(\.file)) == ["contract.json", "options.json"])
        let german = try #require(loaded.inLanguage("de"))
        #expect(german.document.sections.first?.summary == "Hallo")
        #expect(german.diagnostics.filter { $0.code == .lenientJSON && $0.file == "de/contract.json" }.count == 5)
    }

    @Test func whatJSONSerializationRefusesIsStillAnErrorNamingLineAndColumn() throws {
        let study = try TemporaryStudy(contract: C.contract(terms: [C.term("Overview")]))
        try study.write(Study.introFileName, data: Data("{\n  \"items\": [,]\n}".utf8))
        do {
            _ = try study.load()
            Issue.record("expected an error")
        } catch let error as ConsentCoreError {
            #expect(error.code == .invalidJSON)
            #expect(error.message.contains("at line 2, column 13"), "\(error.message)")
        }
    }
}
