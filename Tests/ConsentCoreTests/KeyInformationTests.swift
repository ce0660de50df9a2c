import ConsentCore
import Foundation
import SampleStudy
import Testing

/// Key information (docs/C3PRO.md, section 3b): the Contract extension that names the page a consent begins with,
/// what lint says about it, its step between eligibility and the scenes, and the start of the review document.
@Suite struct KeyInformationTests {
    typealias C = ContractJSON

    static let page = "<ul><li><strong>Purpose:</strong> sleep.</li><li>Four weeks.</li></ul>"

    static func keyExtension(_ name: String?) -> JSONValue {
        var item: [String: JSONValue] = ["url": .string(KeyInformation.extensionURL)]
        if let name { item["valueString"] = .string(name) }
        return .object(item)
    }

    /// A study of two scenes and a section only in the document, with `extensions` on its Contract and `files` in
    /// its folder.
    static func study(
        extensions: [JSONValue] = [keyExtension("key")], files: [String: String] = ["key.html": page],
        terms: [JSONValue]? = nil, options: JSONValue = ["askForSharing": false]
    ) throws -> TemporaryStudy {
        var contract = C.contract(
            terms: terms ?? [
                C.term("Overview", ext: [C.html("<p>Welcome.</p>")]),
                C.term("Privacy", ext: [C.html("<p>Coded.</p>")]),
                C.term("OnlyInDocument", ext: [C.entry("title", "Contacts"), C.html("<p>Call us.</p>")]),
            ])
        if !extensions.isEmpty { contract.set("extension", .array(extensions)) }
        return try TemporaryStudy(contract: contract, files: files, options: options)
    }

    static func eligible(_ study: Study) throws -> ConsentSession {
        var session = ConsentSession(id: "f", study: study, now: .zero)
        try session.apply(.answerEligibility([]), now: .seconds(1))
        return session
    }

    // MARK: Reading

    @Test func theExtensionNamesAPageFoundLikeASectionsHTMLFile() throws {
        let study = try Self.study(files: ["HTMLContent/key.html": Self.page]).load()
        let key = try #require(study.document.keyInformation)
        #expect(key.htmlContentFile == "key")
        #expect(key.htmlContent == Self.page)
        #expect(study.diagnostics.isEmpty)
        // The page is one of the files the version covers.
        #expect(study.files.contains("HTMLContent/key.html"))
    }

    @Test func aMissingPageIsAnErrorAndTheConsentRunsWithoutIt() throws {
        let folder = try Self.study(files: [:])
        let study = try folder.load()
        #expect(study.document.keyInformation == nil)
        let error = try #require(study.diagnostics.first)
        #expect(error.severity == .error && error.code == .fileMissing && error.file == "key.html")
        #expect(error.location == "extension[0]")
        var session = try Self.eligible(study)
        try session.apply(.next(.eligibility), now: .seconds(2))
        #expect(session.step == .visual)
        // Lint lists the error, and not also the warning for a study without the extension.
        let lint = try #require(StudyLint.check(folder.folder).first)
        #expect(lint.diagnostics.map(\.code) == [.fileMissing])
    }

    @Test func anExtensionWithoutANameOrAnEmptyPageOrASecondOneIsAnError() throws {
        let unnamed = try Self.study(extensions: [Self.keyExtension(nil)]).load()
        #expect(unnamed.document.keyInformation == nil)
        #expect(unnamed.diagnostics.map(\.code) == [.keyInformationInvalid])
        #expect(unnamed.diagnostics.first?.severity == .error)

        let empty = try Self.study(files: ["key.html": " \n"]).load()
        #expect(empty.document.keyInformation == nil)
        #expect(empty.diagnostics.map(\.code) == [.keyInformationInvalid])

        let twice = try Self.study(
            extensions: [Self.keyExtension("key"), Self.keyExtension("other")],
            files: ["key.html": Self.page, "other.html": "<p>Other.</p>"]
        ).load()
        #expect(twice.document.keyInformation?.htmlContentFile == "key")
        #expect(twice.diagnostics.map(\.code) == [.keyInformationInvalid])
        #expect(twice.diagnostics.first?.location == "extension[1]")
    }

    @Test func lintWarnsOfAConsentWithoutKeyInformationNamingTheRule() throws {
        let folder = try Self.study(extensions: [], files: [:])
        let study = try folder.load()
        // Loading reports nothing: a study without the extension loads and runs as it always did.
        #expect(study.diagnostics.isEmpty)
        let results = StudyLint.check(folder.folder)
        let warning = try #require(results.first?.diagnostics.first)
        #expect(results.first?.diagnostics.count == 1)
        #expect(warning.severity == .warning && warning.code == .keyInformationMissing)
        #expect(warning.message.contains("45 CFR 46.116(a)(5)(i)"))
        #expect(warning.message.contains(KeyInformation.extensionURL))
        #expect(warning.file == "contract.json")
        // With the extension, lint is quiet about it.
        #expect(StudyLint.check(try Self.study().folder).first?.diagnostics.isEmpty == true)
    }

    @Test func aTranslationHasItsOwnPageAndIsWarnedOfWhenItsContractHasNone() throws {
        let folder = try Self.study(files: ["key.html": Self.page, "de/key.html": "<p>Wichtig.</p>"])
        var german = C.contract(terms: [
            C.term("Overview", ext: [C.html("<p>Willkommen.</p>")]), C.term("Privacy", ext: [C.html("<p>Kodiert.</p>")]),
            C.term("OnlyInDocument", ext: [C.entry("title", "Kontakt"), C.html("<p>Rufen Sie an.</p>")]),
        ])
        german.set("language", "de")
        german.set("extension", [Self.keyExtension("key")])
        try folder.write("de/contract.json", data: german.serialized())
        var french = C.contract(terms: [C.term("Overview", ext: [C.html("<p>Bienvenue.</p>")])])
        french.set("language", "fr")
        try folder.write("fr/contract.json", data: french.serialized())

        let study = try folder.load()
        #expect(study.inLanguage("de")?.document.keyInformation?.htmlContent == "<p>Wichtig.</p>")
        #expect(study.inLanguage("fr")?.document.keyInformation == nil)
        let lint = StudyLint.check(folder.folder)
        #expect(lint.map(\.language) == ["en", "de", "fr"])
        #expect(lint[0].diagnostics.isEmpty && lint[1].diagnostics.isEmpty)
        #expect(lint[2].diagnostics.map(\.code) == [.keyInformationMissing])
        #expect(lint[2].diagnostics.first?.file == "fr/contract.json")
    }

    // MARK: The flow

    @Test func theStepComesAfterEligibilityAndBeforeTheScenes() throws {
        let study = try Self.study().load()
        var session = try Self.eligible(study)
        try session.apply(.next(.eligibility), now: .seconds(2))
        #expect(session.step == .keyInformation)
        #expect(session.offer.actions == [.next, .back, .decline, .cancel, .askStaff])

        let view = session.viewModel
        #expect(view.step == .keyInformation)
        #expect(view.title == "Key information")
        #expect(view.keyInformation?.html == Self.page)
        #expect(view.keyInformation?.text == BuiltInTexts.english.keyInformationText)
        #expect(view.scene == nil && view.eligibility == nil && view.review == nil)
        #expect(StepViewModel.part(for: .keyInformation) == "keyInformation")
        #expect(view.labels == [
            "next": "Next", "back": "Back", "decline": "Do Not Take Part", "cancel": "Cancel", "askStaff": "Ask a Staff Member",
        ])

        // Another step's next is refused; its own goes on to the first scene, and back returns to it.
        #expect(throws: ConsentCoreError.self) { try session.apply(.next(.visual), now: .seconds(3)) }
        #expect(session.step == .keyInformation)
        try session.apply(.next(.keyInformation), now: .seconds(3))
        #expect(session.step == .visual && session.sceneIndex == 0)
        try session.apply(.back(.visual), now: .seconds(4))
        #expect(session.step == .keyInformation)
        try session.apply(.back(.keyInformation), now: .seconds(5))
        #expect(session.step == .eligibility)
    }

    @Test func withoutScenesItLeadsToTheReviewAndBackReturnsToIt() throws {
        let study = try Self.study(
            terms: [C.term("OnlyInDocument", ext: [C.entry("title", "All"), C.html("<p>Everything.</p>")])]
        ).load()
        var session = try Self.eligible(study)
        try session.apply(.next(.eligibility), now: .seconds(2))
        #expect(session.step == .keyInformation)
        try session.apply(.next(.keyInformation), now: .seconds(3))
        #expect(session.step == .reviewStep && session.reviewPage == .document)
        try session.apply(.back(.reviewStep), now: .seconds(4))
        #expect(session.step == .keyInformation)

        let shared = try Self.study(
            files: ["key.html": Self.page, "Consent_sharing.html": "<p>Sharing.</p>"],
            terms: [C.term("OnlyInDocument", ext: [C.entry("title", "All"), C.html("<p>Everything.</p>")])],
            options: ["askForSharing": true]
        ).load()
        var sharing = try Self.eligible(shared)
        try sharing.apply(.next(.eligibility), now: .seconds(2))
        try sharing.apply(.next(.keyInformation), now: .seconds(3))
        #expect(sharing.step == .sharing)
        try sharing.apply(.back(.sharing), now: .seconds(4))
        #expect(sharing.step == .keyInformation)
    }

    @Test func aStudyWithoutTheExtensionGoesFromEligibilityToTheScenesAsBefore() throws {
        let study = try Self.study(extensions: [], files: [:]).load()
        #expect(study.document.keyInformation == nil)
        var session = try Self.eligible(study)
        try session.apply(.next(.eligibility), now: .seconds(2))
        #expect(session.step == .visual && session.sceneIndex == 0)
        #expect(throws: ConsentCoreError.self) { try session.apply(.next(.keyInformation), now: .seconds(3)) }
        try session.apply(.back(.visual), now: .seconds(3))
        #expect(session.step == .eligibility)
        // The review document starts with its title, as it always did.
        #expect(ReviewDocument.bodyHTML(for: study).hasPrefix("<h3>Consent</h3>"))
    }

    @Test func aWithdrawalNeverShowsItAndAReconsentDoes() throws {
        let study = try Self.study().load()
        let target = WithdrawalTarget(recordID: "r-1", studyTitle: "T", signedOn: "2026-01-01")
        var withdrawal = ConsentSession(id: "w", study: study, now: .zero, purpose: .withdrawal(target))
        try withdrawal.apply(.confirmWithdrawal(reason: nil), now: .seconds(1))
        #expect(withdrawal.step == .reviewStep && withdrawal.reviewPage == .name)

        var reconsent = ConsentSession(
            id: "r", study: study, now: .zero, purpose: .reconsent(ReconsentBasis(previousRecordID: "r-0", changes: nil)))
        try reconsent.apply(.next(.changes), now: .seconds(1))
        try reconsent.apply(.answerEligibility([]), now: .seconds(2))
        try reconsent.apply(.next(.eligibility), now: .seconds(3))
        #expect(reconsent.step == .keyInformation)
    }

    // MARK: The review document

    @Test func theReviewDocumentBeginsWithItUnderItsHeadingSetApart() throws {
        let study = try Self.study().load()
        let body = ReviewDocument.bodyHTML(for: study)
        #expect(body.hasPrefix("<h3>Key information</h3>\n<div>\(Self.page)</div>\n<hr>\n<h3>Consent</h3>"))
        let html = ReviewDocument.html(for: study)
        let key = try #require(html.range(of: "Key information"))
        let first = try #require(html.range(of: "Welcome."))
        #expect(key.lowerBound < first.lowerBound)

        // A custom review document follows it too.
        let custom = try Self.study(
            files: ["key.html": "Plain words.", "full.html": "<h2>Our document</h2>"],
            options: ["askForSharing": false, "reviewConsentDocument": "full"]
        ).load()
        #expect(ReviewDocument.bodyHTML(for: custom) == "<h3>Key information</h3>\n<p>Plain words.</p>\n<hr>\n<h2>Our document</h2>")
    }

    @Test func theHeadingIsInTheConsentsLanguage() {
        #expect(BuiltInTexts(language: "en").keyInformationTitle == "Key information")
        #expect(BuiltInTexts(language: "de").keyInformationTitle == "Wichtige Informationen")
        #expect(BuiltInTexts(language: "fr").keyInformationTitle == "Informations clés")
        #expect(BuiltInTexts(language: "es").keyInformationTitle == "Información clave")
        for language in BuiltInTexts.supportedLanguages {
            #expect(!BuiltInTexts(language: language).keyInformationText.isEmpty, "\(language)")
        }
    }

    // MARK: The sample study

    @Test func theSampleStudyBeginsWithKeyInformationInEveryLanguage() throws {
        let folder = try #require(SampleStudy.folder)
        let study = try Study.load(from: folder)
        let headings = ["en": "Key information", "de": "Wichtige Informationen", "fr": "Informations clés", "es": "Información clave"]
        #expect(Set(study.languages.map(\.tag)) == Set(headings.keys))
        var pages: Set<String> = []
        for (language, heading) in headings {
            let translated = try #require(study.inLanguage(language))
            let key = try #require(translated.document.keyInformation, "\(language)")
            pages.insert(key.htmlContent)
            #expect(ReviewDocument.bodyHTML(for: translated).hasPrefix("<h3>\(heading)</h3>"), "\(language)")
            #expect(!translated.diagnostics.contains { $0.code == .untranslated }, "\(language)")
            var session = ConsentSession(id: "f", study: translated, now: .zero)
            try session.apply(.answerEligibility([true, true, false, true]), now: .seconds(1))
            try session.apply(.next(.eligibility), now: .seconds(2))
            #expect(session.step == .keyInformation, "\(language)")
            #expect(session.viewModel.title == heading)
        }
        // Each language has its own page, not the English one inherited.
        #expect(pages.count == headings.count)
        #expect(StudyLint.check(folder).allSatisfy { $0.diagnostics.isEmpty })
    }
}
