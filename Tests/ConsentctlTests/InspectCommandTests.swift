import Foundation
import Testing

@Suite struct InspectCommandTests {
    @Test func bundledStudyAsJSON() throws {
        let result = try CommandRunner.run("consentctl", ["inspect", "--json"])
        #expect(result.status == 0, "\(result.stderr)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        #expect(Set(object.keys).isSuperset(of: ["sections", "eligibility", "team", "version", "warnings"]))
        let sections = try #require(object["sections"] as? [[String: Any]])
        #expect(sections.map { $0["type"] as? String } == [
            "Overview", "DataGathering", "Privacy", "TimeCommitment", "Custom", "StudyTasks", "Withdrawing", "OnlyInDocument",
        ])
        #expect(sections.map { $0["title"] as? String } == [
            "Welcome to Heartbeat & Sleep", "Data Gathering", "Protecting Your Privacy", "Time Commitment",
            "The Wrist Sensor", "Study Tasks", "Withdrawing", "Compensation and Contacts",
        ])
        #expect(sections.map { $0["visual"] as? Bool } == [true, true, true, true, true, true, true, false])
        // Every section has HTML, so every one is in the document (the sample is lint-clean).
        #expect(sections.map { $0["inDocument"] as? Bool } == [true, true, true, true, true, true, true, true])
        let eligibility = try #require(object["eligibility"] as? [[String: Any]])
        #expect(eligibility.map { $0["mustBeMet"] as? Bool } == [true, true, false, true])
        #expect(eligibility.first?["question"] as? String == "Are you 18 years of age or older?")
        #expect(object["team"] as? String == "The Heartbeat & Sleep Study Team")
        #expect((object["version"] as? String)?.count == 64)
        #expect((object["warnings"] as? [String]) == [])
        let comprehension = try #require(object["comprehension"] as? [String: Any])
        let questions = comprehension["questions"] as? [[String: Any]]
        #expect(questions?.map { $0["answer"] as? Int } == [1, 1, 0])
        #expect(questions?.map { $0["section"] as? Int } == [3, 4, 6])
        #expect(comprehension["onRepeatedMiss"] as? String == "continue" && comprehension["attempts"] as? Int == 2)
    }

    @Test func specSampleContractFileWithItsWarnings() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("inspect-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let fixtures = CommandRunner.packageRoot.appendingPathComponent("Tests/ConsentCoreTests/Fixtures/spec-sample")
        for name in ["contract.json", "options.json"] {
            try FileManager.default.copyItem(at: fixtures.appendingPathComponent(name), to: folder.appendingPathComponent(name))
        }
        // Without sleepwell_datagathering.html the DataGathering section leaves the document, with a warning.
        let result = try CommandRunner.run("consentctl", ["inspect", folder.path, "--json"])
        #expect(result.status == 0, "\(result.stderr)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        let sections = try #require(object["sections"] as? [[String: Any]])
        #expect(sections.map { $0["inDocument"] as? Bool } == [true, false, true, true, true, true])
        #expect(object["team"] as? String == "The SleepWell Study Team")
        let warnings = try #require(object["warnings"] as? [String])
        #expect(warnings.count == 1 && warnings[0].contains("sleepwell_datagathering.html"))
    }

    @Test func textOutputNamesEverything() throws {
        let result = try CommandRunner.run("consentctl", ["inspect"])
        #expect(result.status == 0)
        for needle in ["Sections:", "[OnlyInDocument] Compensation and Contacts", "eligible answer: No", "Sharing team: The Heartbeat",
                       "Comprehension check (2 attempt(s) per question, then continue):",
                       "1. How long does the study last? (right answer: Four weeks; about section term[3])"] {
            #expect(result.stdout.contains(needle), "\(needle)")
        }
    }

    @Test(arguments: [
        ("{ not json", "not valid JSON"),
        (#"{"resourceType":"Patient"}"#, "expected resourceType \"Contract\""),
        (#"{"resourceType":"Contract","term":[]}"#, "does not have any terms"),
    ])
    func invalidStudyExitsNonZeroNamingTheFile(contract: String, message: String) throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("inspect-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try Data(contract.utf8).write(to: folder.appendingPathComponent("contract.json"))
        let result = try CommandRunner.run("consentctl", ["inspect", folder.path, "--json"])
        #expect(result.status != 0)
        #expect(result.stderr.contains("contract.json"), "\(result.stderr)")
        #expect(result.stderr.contains(message), "\(result.stderr)")
        #expect(result.stdout.isEmpty)
    }

    @Test func missingStudyExitsNonZero() throws {
        let result = try CommandRunner.run("consentctl", ["inspect", "/nonexistent/study"])
        #expect(result.status != 0)
        #expect(result.stderr.contains("/nonexistent/study"))
    }
}
