import Foundation
import Testing

/// `consentctl lint` on copies of the bundled sample study, each with one defect a coordinator could make.
@Suite struct LintCommandTests {
    /// The sample study copied to a temporary folder, to break in one way; removed when the test is done with it.
    final class StudyCopy {
        let folder: URL

        /// Without the sample's approval.json unless `keepingApproval`: a copy that is changed no longer matches it.
        init(keepingApproval: Bool = false) throws {
            folder = FileManager.default.temporaryDirectory.appendingPathComponent("lint-\(UUID().uuidString)")
            let sample = CommandRunner.packageRoot.appendingPathComponent("Sources/SampleStudy/sample")
            try FileManager.default.copyItem(at: sample, to: folder)
            if !keepingApproval { try? FileManager.default.removeItem(at: folder.appendingPathComponent("approval.json")) }
        }

        deinit { try? FileManager.default.removeItem(at: folder) }

        func url(_ path: String) -> URL { folder.appendingPathComponent(path) }

        func remove(_ path: String) throws { try FileManager.default.removeItem(at: url(path)) }

        /// Edits a JSON object file of the study.
        func editJSON(_ path: String, _ change: (inout [String: Any]) throws -> Void) throws {
            var object = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: url(path))) as? [String: Any])
            try change(&object)
            try JSONSerialization.data(withJSONObject: object, options: [.prettyPrinted]).write(to: url(path))
        }

        func editContract(_ change: (inout [String: Any]) throws -> Void) throws { try editJSON("contract.json", change) }
    }

    struct Diagnostic {
        var severity: String
        var code: String
        var file: String?
        var location: String?
        var message: String
    }

    struct Outcome {
        var status: Int32
        var languages: [String: [Diagnostic]]
        var errors: Int
        var warnings: Int
        var text: String

        /// The default language's diagnostics.
        var diagnostics: [Diagnostic] { languages["en"] ?? [] }
    }

    /// Runs `lint --json` and `lint` (text) and checks they agree on the exit status.
    func lint(_ study: URL?) throws -> Outcome {
        let arguments = ["lint"] + (study.map { [$0.path] } ?? [])
        let json = try CommandRunner.run("consentctl", arguments + ["--json"])
        let text = try CommandRunner.run("consentctl", arguments)
        #expect(json.status == text.status)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any], "\(json.stderr)")
        var languages: [String: [Diagnostic]] = [:]
        for language in try #require(object["languages"] as? [[String: Any]]) {
            let name = try #require(language["language"] as? String)
            languages[name] = try #require(language["diagnostics"] as? [[String: Any]]).map {
                Diagnostic(
                    severity: $0["severity"] as? String ?? "", code: $0["code"] as? String ?? "", file: $0["file"] as? String,
                    location: $0["location"] as? String, message: $0["message"] as? String ?? "")
            }
        }
        return Outcome(
            status: json.status, languages: languages, errors: object["errors"] as? Int ?? -1,
            warnings: object["warnings"] as? Int ?? -1, text: text.stdout)
    }

    static let errorStatus: Int32 = 3

    @Test func bundledSampleIsLintClean() throws {
        let copy = try StudyCopy(keepingApproval: true)
        defer { withExtendedLifetime(copy) {} }  // ARC may end it after its last use, before the loop lints it
        for study in [nil, copy.folder] {
            let outcome = try lint(study)
            #expect(outcome.status == 0)
            #expect(outcome.errors == 0)
            #expect(outcome.warnings == 0)
            // No warning in any language: what a coordinator copies as a template is clean.
            #expect(Set(outcome.languages.keys) == ["en", "de", "es", "fr"])
            for (language, diagnostics) in outcome.languages {
                #expect(diagnostics.isEmpty, "\(language): \(diagnostics.map(\.message))")
            }
            #expect(outcome.text.contains("0 error(s), 0 warning(s): ready to go live"), "\(outcome.text)")
        }
    }

    /// Without the key information extension the study still lints without errors (it runs as before), with
    /// one warning naming the rule in the language that lacks it.
    @Test func aConsentWithoutKeyInformationIsAWarningNamingTheRule() throws {
        let study = try StudyCopy()
        try study.editContract { contract in
            let extensions = try #require(contract["extension"] as? [[String: Any]])
            contract["extension"] = extensions.filter { $0["url"] as? String != "urn:consent-kiosk:key-information" }
        }
        let outcome = try lint(study.folder)
        #expect(outcome.status == 0)
        #expect(outcome.errors == 0)
        let warning = try #require(outcome.languages["en"]?.first { $0.code == "keyInformationMissing" })
        #expect(warning.severity == "warning")
        #expect(warning.file == "contract.json")
        #expect(warning.message.contains("45 CFR 46.116(a)(5)(i)"), "\(warning.message)")
        #expect(outcome.text.contains("45 CFR 46.116(a)(5)(i)"), "\(outcome.text)")
        // The translations' Contracts still have theirs.
        for language in ["de", "es", "fr"] {
            #expect(outcome.languages[language]?.contains { $0.code == "keyInformationMissing" } == false, "\(language)")
        }
    }

    @Test func aMissingKeyInformationPageIsAnError() throws {
        let study = try StudyCopy()
        try FileManager.default.removeItem(at: study.folder.appendingPathComponent("fr/key-information.html"))
        try FileManager.default.removeItem(at: study.folder.appendingPathComponent("key-information.html"))
        let outcome = try lint(study.folder)
        #expect(outcome.status == Self.errorStatus)
        for language in ["en", "fr"] {
            let missing = try #require(outcome.languages[language]?.first { $0.code == "fileMissing" }, "\(language)")
            #expect(missing.severity == "error")
            #expect(missing.file == "key-information.html")
            #expect(missing.message.contains("key information"), "\(missing.message)")
        }
        // German keeps its own page.
        #expect(outcome.languages["de"]?.contains { $0.code == "fileMissing" } == false)
    }

    /// Optional elements (docs/C3PRO.md, section 3c): an id out of shape and one used twice are errors naming the
    /// element, which is left out; a translation whose elements differ in ids or codes is an error; a missing
    /// "Learn more" page is an error.
    @Test func optionalElementsOutOfShapeUsedTwiceOrUntranslatedAreErrors() throws {
        let study = try StudyCopy()
        func isElement(_ item: [String: Any]) -> Bool { item["url"] as? String == "urn:consent-kiosk:optional-element" }
        func withID(_ item: [String: Any], _ id: String) -> [String: Any] {
            var item = item
            item["extension"] = (item["extension"] as? [[String: Any]] ?? []).map { entry in
                var entry = entry
                if entry["url"] as? String == "id" { entry["valueString"] = id }
                return entry
            }
            return item
        }
        try study.editContract { contract in
            var extensions = try #require(contract["extension"] as? [[String: Any]])
            let elements = extensions.filter(isElement)
            #expect(elements.count == 2)
            // A second element with the first one's id, and one whose id is not [a-z0-9-]{1,40}.
            extensions += [withID(elements[1], "future-research"), withID(elements[1], "Contact Again")]
            contract["extension"] = extensions
        }
        // The German Contract's second element answers another code.
        try study.editJSON("de/contract.json") { contract in
            var extensions = try #require(contract["extension"] as? [[String: Any]])
            let last = try #require(extensions.lastIndex(where: isElement))
            var entries = try #require(extensions[last]["extension"] as? [[String: Any]])
            for index in entries.indices where entries[index]["url"] as? String == "code" {
                entries[index]["valueCoding"] = ["system": "https://example.org/heartbeat-sleep/optional-elements", "code": "other"]
            }
            extensions[last]["extension"] = entries
            contract["extension"] = extensions
        }
        try FileManager.default.removeItem(at: study.folder.appendingPathComponent("es/future-research.html"))
        try FileManager.default.removeItem(at: study.folder.appendingPathComponent("future-research.html"))
        let outcome = try lint(study.folder)
        #expect(outcome.status == Self.errorStatus)
        let invalid = try #require(outcome.languages["en"]?.filter { $0.code == "optionalElementInvalid" })
        #expect(invalid.count == 2)
        #expect(invalid.allSatisfy { $0.severity == "error" && $0.file == "contract.json" })
        #expect(invalid.contains { $0.message.contains("\"future-research\" is used by an earlier element") })
        #expect(invalid.contains { $0.message.contains("[a-z0-9-]{1,40}") })
        let untranslated = try #require(outcome.languages["de"]?.first { $0.code == "optionalElementUntranslated" })
        #expect(untranslated.severity == "error" && untranslated.file == "de/contract.json")
        for language in ["en", "es"] {
            let missing = try #require(
                outcome.languages[language]?.first { $0.code == "fileMissing" && $0.file == "future-research.html" }, "\(language)")
            #expect(missing.severity == "error")
            #expect(missing.message.contains("optional element \"future-research\""), "\(missing.message)")
        }
        #expect(outcome.languages["fr"]?.contains { $0.severity == "error" } == false)
    }

    @Test func skippedTermIsAWarningWithC3Reason() throws {
        let study = try StudyCopy()
        try study.editContract { contract in
            var terms = try #require(contract["term"] as? [Any])
            terms.append(["type": ["coding": [["system": "http://researchkit.org/docs/Constants/ORKConsentSectionType", "code": "Lunch"]]]])
            contract["term"] = terms
        }
        let outcome = try lint(study.folder)
        #expect(outcome.status == 0)
        let skipped = try #require(outcome.diagnostics.first { $0.code == "termSkipped" })
        #expect(skipped.severity == "warning")
        #expect(skipped.location == "term[8]")
        #expect(skipped.file == "contract.json")
        #expect(skipped.message.contains("Unknown consent section type \u{201C}Lunch\u{201D}"))
        // What to change: the known types, by name.
        for known in ["Overview", "DataGathering", "Privacy", "DataUse", "TimeCommitment", "StudySurvey", "StudyTasks", "Withdrawing", "Custom", "OnlyInDocument"] {
            #expect(skipped.message.contains(known), "\(skipped.message)")
        }
        #expect(outcome.text.contains("known types"), "\(outcome.text)")
    }

    /// ResearchKit's documentation URL (with `.html`) as the system: lint names it and the system to use.
    @Test func skippedTermWithTheHTMLSystemNamesTheSystemToUse() throws {
        let study = try StudyCopy()
        let system = "http://researchkit.org/docs/Constants/ORKConsentSectionType"
        try study.editContract { contract in
            var terms = try #require(contract["term"] as? [Any])
            terms.append(["type": ["coding": [["system": system + ".html", "code": "Privacy"]]]])
            contract["term"] = terms
        }
        let outcome = try lint(study.folder)
        let skipped = try #require(outcome.diagnostics.first { $0.code == "termSkipped" })
        #expect(skipped.location == "term[8]")
        #expect(skipped.message.contains("\"\(system).html\""), "\(skipped.message)")
        #expect(skipped.message.contains("change it to \"\(system)\""), "\(skipped.message)")
        #expect(outcome.text.contains("change it to \"\(system)\""), "\(outcome.text)")
    }

    @Test func skippedEligibilityCharacteristicIsAWarning() throws {
        let study = try StudyCopy()
        try study.editContract { contract in
            var contained = try #require(contract["contained"] as? [[String: Any]])
            let index = try #require(contained.firstIndex { $0["resourceType"] as? String == "Group" })
            var characteristics = try #require(contained[index]["characteristic"] as? [[String: Any]])
            characteristics[1]["exclude"] = nil
            contained[index]["characteristic"] = characteristics
            contract["contained"] = contained
        }
        let outcome = try lint(study.folder)
        #expect(outcome.status == 0)
        let skipped = try #require(outcome.diagnostics.first { $0.code == "characteristicSkipped" })
        #expect(skipped.severity == "warning")
        #expect(skipped.location == "subject[0] Group.characteristic[1]")
        #expect(skipped.message.contains("no boolean exclude"))
    }

    @Test func missingSectionHTMLFileIsAnErrorNamingIt() throws {
        let study = try StudyCopy()
        try study.remove("HTMLContent/privacy.html")
        let outcome = try lint(study.folder)
        #expect(outcome.status == Self.errorStatus)
        let missing = try #require(outcome.diagnostics.first { $0.code == "fileMissing" })
        #expect(missing.severity == "error")
        #expect(missing.file == "privacy.html")
        #expect(missing.location == "term[2]")
        // Reported as missing, not again as a section without HTML.
        #expect(!outcome.diagnostics.contains { $0.code == "sectionWithoutHTML" && $0.location == "term[2]" })
        #expect(outcome.text.contains("ERROR fileMissing privacy.html [term[2]]"), "\(outcome.text)")
        #expect(outcome.text.contains("fix the errors before going live"))
    }

    @Test func missingSharingDocumentIsAnErrorAndTheContractIsStillChecked() throws {
        let study = try StudyCopy()
        try study.remove("Consent_sharing.html")
        // A finding of the Contract's own (the sample has none): a term with an unknown type.
        try study.editContract { contract in
            var terms = try #require(contract["term"] as? [Any])
            terms.append(["type": ["coding": [["code": "Lunch"]]]])
            contract["term"] = terms
        }
        let outcome = try lint(study.folder)
        #expect(outcome.status == Self.errorStatus)
        let missing = try #require(outcome.diagnostics.first { $0.code == "sharingDocumentMissing" })
        #expect(missing.severity == "error")
        #expect(missing.file == "Consent_sharing.html")
        // The load stopped, but the Contract's own finding is still there.
        #expect(outcome.diagnostics.contains { $0.code == "termSkipped" })
    }

    @Test(arguments: [
        ("{ not json", "not valid JSON"),
        (#"{"resourceType":"Patient"}"#, "expected resourceType \"Contract\""),
        (#"{"resourceType":"Contract","term":[]}"#, "does not have any terms"),
    ])
    func malformedContractIsAnErrorNamingTheFile(contract: String, message: String) throws {
        let study = try StudyCopy()
        try Data(contract.utf8).write(to: study.url("contract.json"))
        let outcome = try lint(study.folder)
        #expect(outcome.status == Self.errorStatus)
        #expect(outcome.diagnostics.count == 1)
        let broken = try #require(outcome.diagnostics.first)
        #expect(broken.code == "contractUnreadable")
        #expect(broken.file == "contract.json")
        #expect(broken.message.contains(message), "\(broken.message)")
    }

    @Test func missingContractIsAnError() throws {
        let study = try StudyCopy()
        try study.remove("contract.json")
        let outcome = try lint(study.folder)
        #expect(outcome.status == Self.errorStatus)
        #expect(outcome.diagnostics.map(\.code) == ["contractUnreadable"])
        #expect(outcome.diagnostics.first?.file == "contract.json")
    }

    @Test func missingReviewDocumentIsAnError() throws {
        let study = try StudyCopy()
        try study.editJSON("options.json") { $0["reviewConsentDocument"] = "full_consent" }
        let outcome = try lint(study.folder)
        #expect(outcome.status == Self.errorStatus)
        let missing = try #require(outcome.diagnostics.first { $0.code == "fileMissing" })
        #expect(missing.file == "full_consent.html")
        #expect(missing.location == "options.reviewConsentDocument")
    }

    @Test func missingImageInAnHTMLPageIsAnError() throws {
        let study = try StudyCopy()
        let page = study.url("HTMLContent/privacy.html")
        var html = try String(contentsOf: page, encoding: .utf8)
        html += #"<p><img src="images/vault.png" alt="A vault"></p><img src='data:image/png;base64,AAAA'>"#
        try html.write(to: page, atomically: true, encoding: .utf8)
        let outcome = try lint(study.folder)
        #expect(outcome.status == Self.errorStatus)
        let missing = outcome.diagnostics.filter { $0.code == "fileMissing" }
        #expect(missing.count == 1)  // the data URI is no file of the study
        #expect(missing.first?.file == "images/vault.png")
        #expect(missing.first?.location?.hasPrefix("term[2]") == true)

        // Once the image is there, the study is ready again.
        try FileManager.default.createDirectory(at: study.url("images"), withIntermediateDirectories: true)
        try Data([0x89, 0x50, 0x4E, 0x47]).write(to: study.url("images/vault.png"))
        #expect(try lint(study.folder).status == 0)
    }

    @Test func everyLanguageSubFolderIsLinted() throws {
        let study = try StudyCopy()
        // A page a translation lacks is taken from the default language: a warning, not an error.
        try study.remove("de/HTMLContent/datagathering.html")
        var outcome = try lint(study.folder)
        #expect(outcome.status == 0)
        let untranslated = try #require(outcome.languages["de"]?.first { $0.code == "untranslated" })
        #expect(untranslated.file == "de/HTMLContent/datagathering.html")
        #expect(outcome.languages["fr"]?.contains { $0.code == "untranslated" } == false)

        // A broken translation is that language's error; the others are still linted.
        try Data("{".utf8).write(to: study.url("de/contract.json"))
        outcome = try lint(study.folder)
        #expect(outcome.status == Self.errorStatus)
        #expect(outcome.languages["en"]?.contains { $0.severity == "error" } == false)
        #expect(outcome.languages["fr"]?.contains { $0.severity == "error" } == false)
        let broken = try #require(outcome.languages["de"]?.first { $0.severity == "error" })
        #expect(broken.code == "contractUnreadable")
        #expect(broken.file == "de/contract.json")
        #expect(outcome.text.contains("Language de ("), "\(outcome.text)")
    }

    @Test func inspectListsTheSameDiagnostics() throws {
        let study = try StudyCopy()
        try study.remove("HTMLContent/privacy.html")
        let inspect = try CommandRunner.run("consentctl", ["inspect", study.folder.path, "--json"])
        #expect(inspect.status == 0)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(inspect.stdout.utf8)) as? [String: Any])
        let fromInspect = try #require(object["diagnostics"] as? [[String: Any]]).compactMap { $0["code"] as? String }
        #expect(fromInspect == (try lint(study.folder)).diagnostics.map(\.code))
    }

    @Test func helpDocumentsTheExitStatus() throws {
        let help = try CommandRunner.run("consentctl", ["lint", "--help"])
        #expect(help.stdout.contains("3 at least one error"), "\(help.stdout)")
    }
}

extension LintCommandTests {
    /// The comprehension questions (docs/C3PRO.md, section 3a): a wrong answer index, a section that does not
    /// exist, and a translation without its questions are errors that name where to look.
    @Test func badComprehensionQuestionsAndAMissingTranslationAreErrors() throws {
        let copy = try StudyCopy()
        defer { withExtendedLifetime(copy) {} }
        try copy.editContract { contract in
            // extension[0] is the key information; the questions follow it.
            var questions = try #require(contract["extension"] as? [[String: Any]])
            var entries = try #require(questions[1]["extension"] as? [[String: Any]])
            for index in entries.indices where entries[index]["url"] as? String == "answer" { entries[index]["valueInteger"] = 3 }
            questions[1]["extension"] = entries
            entries = try #require(questions[2]["extension"] as? [[String: Any]])
            for index in entries.indices where entries[index]["url"] as? String == "section" { entries[index]["valueInteger"] = 42 }
            questions[2]["extension"] = entries
            contract["extension"] = questions
        }
        try copy.editJSON("fr/contract.json") { $0["extension"] = nil }
        let outcome = try lint(copy.folder)
        #expect(outcome.status == Self.errorStatus)
        let invalid = outcome.diagnostics.filter { $0.code == "comprehensionInvalid" }
        #expect(invalid.map(\.location) == ["extension[1]", "extension[2]"])
        #expect(invalid.allSatisfy { $0.severity == "error" && $0.file == "contract.json" })
        #expect(invalid.first?.message.contains("its answer 3 is not the index of one of its 3 choices") == true)
        #expect(invalid.last?.message.contains("its section 42 names no section") == true)
        let french = try #require(outcome.languages["fr"]).filter { $0.code == "comprehensionUntranslated" }
        #expect(french.count == 1 && french.first?.file == "fr/contract.json")
        #expect(french.first?.message.contains("fr: the comprehension questions are not translated") == true)
        #expect(outcome.text.contains("comprehensionInvalid") && outcome.text.contains("comprehensionUntranslated"))
        // German keeps its three questions; the English ones left out make them differ in number.
        #expect(outcome.languages["de"]?.contains { $0.code == "comprehensionUntranslated" } == true)
    }
}
