import ConsentCore
import Foundation
import SampleStudy
import Testing

/// Study folders with translations (`de/`, `fr/`) and the built-in texts per language.
@Suite struct LanguageTests {
    typealias C = ContractJSON

    static func contract(language: String? = nil, title: String = "Privacy", page: String? = nil) -> JSONValue {
        var ext: [JSONValue] = [C.entry("title", title)]
        if let page { ext.append(C.entry("htmlContentFile", page)) } else { ext.append(C.html("<p>\(title)</p>")) }
        var contract = C.contract(
            terms: [C.term("Privacy", ext: ext), C.term("DataUse", ext: [C.html("<p>use</p>")])],
            contained: [["resourceType": "Organization", "id": "org", "name": "Sleep Lab"]], authority: "#org")
        if let language { contract.set("language", .string(language)) }
        return contract
    }

    static func serialized(_ json: JSONValue) throws -> String {
        String(decoding: try json.serialized(), as: UTF8.self)
    }

    // MARK: The bundled sample study

    @Test func sampleStudyHasEnglishGermanAndFrench() throws {
        let folder = try #require(SampleStudy.folder)
        let study = try Study.load(from: folder)
        #expect(study.language == "en" && study.defaultLanguage == "en")
        #expect(study.languages.map(\.tag) == ["en", "de", "es", "fr"])
        #expect(study.languages.map(\.name) == ["English", "Deutsch", "Español", "Français"])
        #expect(study.languages.map(\.isDefault) == [true, false, false, false])
        #expect(Set(study.languages.map(\.version)).count == 4)
        #expect(!study.files.contains { $0.hasPrefix("de/") || $0.hasPrefix("fr/") || $0.hasPrefix("es/") },
                "English does not hash translations")

        let german = try #require(study.inLanguage("de"))
        #expect(german.id == study.id && german.defaultLanguage == "en")
        #expect(german.warnings.isEmpty, "\(german.warnings)")
        #expect(german.document.sections.map(\.type) == study.document.sections.map(\.type))
        #expect(german.document.title == "Einwilligungserklärung")
        #expect(german.document.teamName == "das Team von Heartbeat & Sleep")
        #expect(german.document.sections[1].title == "Datenerhebung", "the default title, in German")
        #expect(german.document.sections[2].htmlContent?.contains("Studiencode") == true)
        #expect(german.eligibilityMessages.letsCheckMessage == "Prüfen wir, ob Sie an Heartbeat & Sleep teilnehmen können")
        #expect(german.eligibilityMessages.ineligibleMessage == BuiltInTexts.german.ineligibleMessage)
        #expect(german.options.reasonForConsent == BuiltInTexts.german.signaturePageContent)
        #expect(german.sharingHTML?.contains("Ethikkommission") == true)
        // Its own files plus the top options.json, which applies to every language, the scene's image and the logo.
        #expect(german.files == [
            "consent_wrist_sensor.png", "de/Consent_sharing.html", "de/HTMLContent/datagathering.html",
            "de/HTMLContent/intro_about.html", "de/HTMLContent/intro_visits.html", "de/HTMLContent/privacy.html",
            "de/contract.json", "de/future-research.html", "de/intro.json", "de/key-information.html", "de/overview.html",
            "de/withdrawing.html", "logo_disease.png", "options.json",
        ])

        let french = try #require(study.inLanguage("FR"))
        #expect(french.language == "fr" && french.warnings.isEmpty, "\(french.warnings)")
        #expect(french.document.teamName == "l’équipe Heartbeat & Sleep")
        #expect(french.document.eligibility.first?.question == "Avez-vous 18 ans ou plus ?")
        #expect(study.inLanguage("it") == nil)
    }

    @Test func germanViewModelsUseGermanTexts() throws {
        let folder = try #require(SampleStudy.folder)
        let study = try #require(try Study.load(from: folder).inLanguage("de"))
        var session = ConsentSession(id: "f", study: study, now: .zero)
        #expect(session.viewModel.language == "de")
        #expect(session.viewModel.title == "Teilnahmevoraussetzungen")
        #expect(session.viewModel.eligibility?.message == BuiltInTexts.german.letsCheckBody)
        try session.apply(.answerEligibility([true, true, false, true]), now: .zero)
        #expect(session.viewModel.eligibility?.button == "Einwilligung beginnen")
        try session.apply(.next(.eligibility), now: .zero)
        #expect(session.viewModel.title == "Wichtige Informationen")
        try session.apply(.next(.keyInformation), now: .zero)
        #expect(session.viewModel.scene?.learnMoreTitle == "Mehr über die Studie erfahren")
        #expect(ReviewDocument.html(for: study).hasPrefix("<h1>Überprüfen</h1>"))
    }

    // MARK: Layout rules

    @Test func defaultLanguageIsTheContractsLanguage() throws {
        let english = try TemporaryStudy(contract: Self.contract()).load()
        #expect(english.language == "en" && english.translations.isEmpty)
        let german = try TemporaryStudy(contract: Self.contract(language: "de")).load()
        #expect(german.language == "de" && german.defaultLanguage == "de")
        #expect(german.document.teamName == "das Team von Sleep Lab")
        #expect(german.document.sections[1].title == "Datennutzung")
        #expect(german.warnings.isEmpty)
    }

    @Test func aLanguageWithoutATableFallsBackToEnglishWithAWarning() throws {
        let study = try TemporaryStudy(contract: Self.contract(language: "it")).load()
        #expect(study.language == "it")
        #expect(study.texts == .english)
        #expect(study.document.sections[1].title == "Data Use")
        #expect(study.warnings.contains { $0.contains("no texts in \"it\"") })
    }

    @Test func translationInheritsMissingPagesWithAWarningButNeverTheIntro() throws {
        let temp = try TemporaryStudy(
            contract: Self.contract(page: "privacy"),
            files: [
                "privacy.html": "<p>English privacy</p>",
                "intro.json": #"{"items": [], "eligibility": {"eligibleTitle": "You may join"}}"#,
                "de/contract.json": try Self.serialized(Self.contract(language: "de", title: "Datenschutz", page: "privacy")),
                "images/logo.png": "not a language folder",
                "HTMLContent/unused.html": "<p>x</p>",
            ])
        let study = try temp.load()
        #expect(study.languages.map(\.tag) == ["en", "de"])
        let german = try #require(study.inLanguage("de"))
        #expect(german.document.sections[0].htmlContent == "<p>English privacy</p>")
        #expect(german.warnings == ["de: privacy.html is not translated (no de/privacy.html); the default language's page is used"])
        #expect(german.eligibilityMessages.eligibleTitle == BuiltInTexts.german.eligibleTitle)
        #expect(german.files.contains("privacy.html"))
        #expect(german.options.askForSharing == false, "the top options apply to every language")

        // A page in the translation wins, and changes only that language's version.
        try temp.write("de/privacy.html", data: Data("<p>Deutscher Datenschutz</p>".utf8))
        let again = try temp.load()
        let germanAgain = try #require(again.inLanguage("de"))
        #expect(germanAgain.document.sections[0].htmlContent == "<p>Deutscher Datenschutz</p>")
        #expect(germanAgain.warnings.isEmpty)
        #expect(germanAgain.version != german.version)
        #expect(again.version == study.version)
    }

    @Test func translationOptionsMaySetOnlyTheReason() throws {
        let temp = try TemporaryStudy(
            contract: Self.contract(),
            files: ["de/contract.json": try Self.serialized(Self.contract(language: "de"))],
            options: ["askForSharing": false, "reasonForConsent": "I agree."])
        let study = try temp.load()
        let german = try #require(study.inLanguage("de"))
        #expect(study.options.reasonForConsent == "I agree.")
        #expect(german.options.reasonForConsent == BuiltInTexts.german.signaturePageContent)
        #expect(german.warnings.contains { $0.contains("reasonForConsent") && $0.contains("de/options.json") })

        try temp.write("de/options.json", data: Data(#"{"reasonForConsent": "Ich stimme zu."}"#.utf8))
        #expect(try temp.load().inLanguage("de")?.options.reasonForConsent == "Ich stimme zu.")

        try temp.write("de/options.json", data: Data(#"{"askForSharing": true}"#.utf8))
        expectError(.invalidConfiguration, file: "de/options.json") { try temp.load() }
    }

    // MARK: Defects name the file

    @Test func aTranslationWithoutItsContractNamesTheFile() throws {
        let temp = try TemporaryStudy(contract: Self.contract(), files: ["fr/intro.json": #"{"items": []}"#])
        expectError(.fileNotFound, file: "fr/contract.json") { try temp.load() }
    }

    @Test func aBrokenTranslationNamesTheFile() throws {
        let broken = try TemporaryStudy(contract: Self.contract(), files: ["de/contract.json": "{ not json"])
        expectError(.invalidJSON, file: "de/contract.json") { try broken.load() }

        let noTerms = try TemporaryStudy(
            contract: Self.contract(), files: ["de/contract.json": #"{"resourceType": "Contract", "term": []}"#])
        expectError(.contractHasNoTerms, file: "de/contract.json") { try noTerms.load() }

        let badIntro = try TemporaryStudy(
            contract: Self.contract(),
            files: ["de/contract.json": try Self.serialized(Self.contract()), "de/intro.json": #"{"title": "x"}"#])
        expectError(.invalidConfiguration, file: "de/intro.json") { try badIntro.load() }
    }

    /// Translations are read side by side; with several broken, the error is the first one's in tag order, every time.
    @Test func ofSeveralBrokenTranslationsTheFirstInTagOrderIsTheError() throws {
        let broken = try TemporaryStudy(contract: Self.contract(), files: [
            "fr/contract.json": "{ not json", "de/contract.json": #"{"resourceType": "Contract", "term": []}"#,
            "it/contract.json": try Self.serialized(Self.contract()),
        ])
        for _ in 0..<5 { expectError(.contractHasNoTerms, file: "de/contract.json") { try broken.load() } }
        let fine = try TemporaryStudy(contract: Self.contract(), files: [
            "fr/contract.json": try Self.serialized(Self.contract()), "de/contract.json": try Self.serialized(Self.contract()),
            "it/contract.json": try Self.serialized(Self.contract()),
        ])
        #expect(try fine.load().translations.map(\.language) == ["de", "fr", "it"])
    }

    @Test func languageDeclarationsMustAgree() throws {
        let mismatch = try TemporaryStudy(
            contract: Self.contract(), files: ["de/contract.json": try Self.serialized(Self.contract(language: "fr"))])
        expectError(.invalidConfiguration, file: "de/contract.json") { try mismatch.load() }

        let repeated = try TemporaryStudy(
            contract: Self.contract(language: "de"),
            files: ["de/contract.json": try Self.serialized(Self.contract(language: "de"))])
        expectError(.invalidConfiguration, file: "/de") { try repeated.load() }

        let notATag = try TemporaryStudy(contract: Self.contract(language: "German"))
        expectError(.invalidField, file: "contract.json") { try notATag.load() }
    }

    @Test func languageTagsAreRecognisedAsBCP47Recommends() {
        for tag in ["en", "de", "fr", "pt-BR", "es-419", "zh-Hant", "zh-Hant-TW", "gsw"] {
            #expect(StudyLanguage.isTag(tag), "\(tag)")
        }
        for name in ["HTMLContent", "images", "DE", "de_DE", "d", "english", "pt-br", "de-", ""] {
            #expect(!StudyLanguage.isTag(name), "\(name)")
        }
    }

    // MARK: Built-in texts

    @Test func tablesAreChosenByPrimarySubtagAndFallBackToEnglish() {
        #expect(BuiltInTexts(language: "de") == .german)
        #expect(BuiltInTexts(language: "de-CH") == .german)
        #expect(BuiltInTexts(language: "fr-CA") == .french)
        #expect(BuiltInTexts(language: "en-GB") == .english)
        #expect(BuiltInTexts(language: "it").language == "en")
        #expect(BuiltInTexts.hasTable(for: "fr-CA") && !BuiltInTexts.hasTable(for: "it"))
    }

    @Test func everyTableFollowsTheSameLanguageRule() {
        // One rule for every table: the same tag never gets German words on one screen and English on another.
        for (tag, language) in [("DE_at", "de"), ("fr", "fr"), ("en-US", "en"), ("it", "en"), ("", "en"), ("-de", "en")] {
            #expect(BuiltInTexts(language: tag).language == language, "\(tag)")
            #expect(ScreenTexts(language: tag).language == language, "\(tag)")
            #expect(UITexts(language: tag).language == language, "\(tag)")
            #expect(DisplayTexts(language: tag).language == language, "\(tag)")
            #expect(StaffTexts(language: tag).language == language, "\(tag)")
            #expect(ComprehensionTexts(language: tag).language == language, "\(tag)")
        }
        #expect(BuiltInTexts.supportedLanguages == ["en", "de", "fr", "es"])
    }

    @Test func englishTableIsResearchKitsText() {
        let en = BuiltInTexts.english
        #expect(en.sharingText(team: "The Lab") == "The Lab will receive your study data from your participation in "
            + "this study.\n\nSharing your coded study data more broadly (without information such as your name) may "
            + "benefit this and future research.")
        #expect(en.signatureCaption(role: "Witness") == "Witness's Signature")
        #expect(en.teamName(organization: "Lab") == "The Lab")
        for type in ConsentSectionType.allCases {
            #expect(en.sectionTitle(type) == type.defaultTitle && en.learnMoreTitle(type) == type.learnMoreTitle)
        }
        // ResearchKit's own titles, pinned here now that `defaultTitle` reads them from the English file.
        #expect(ConsentSectionType.allCases.map(\.defaultTitle) == [
            "Welcome", "Data Gathering", "Privacy", "Data Use", "Time Commitment", "Study Survey", "Study Tasks",
            "Withdrawing", nil, nil,
        ])
        #expect(ConsentSectionType.timeCommitment.learnMoreTitle == "Learn more about the study's impact on your time")
        #expect(ConsentSectionType.custom.learnMoreTitle == "Learn more" && ConsentSectionType.onlyInDocument.learnMoreTitle == nil)
    }

    @Test(arguments: [BuiltInTexts.german, BuiltInTexts.french])
    func everyTranslatedTableIsComplete(_ texts: BuiltInTexts) {
        let en = BuiltInTexts.english
        // Every section type with an English title or "Learn more" has one in this language.
        #expect(Set(texts.sectionTitles.keys) == Set(en.sectionTitles.keys))
        #expect(Set(texts.learnMoreTitles.keys) == Set(en.learnMoreTitles.keys))
        for template in [
            texts.sharingTextTemplate, texts.shareWidelyTemplate, texts.shareTeamOnlyTemplate, texts.namedTeamTemplate,
            texts.sharingProvisionTemplate,
        ] {
            #expect(template.contains("{team}"), "\(template)")
        }
        #expect(texts.printedNameCaption(role: "X").contains("X") && texts.signatureCaption(role: "X").contains("X"))
        // The screens a participant reads are translated, not English left behind.
        let pairs: [(String, String)] = [
            (texts.documentTitle, en.documentTitle), (texts.signaturePageContent, en.signaturePageContent),
            (texts.letsCheckMessage, en.letsCheckMessage), (texts.ineligibleMessage, en.ineligibleMessage),
            (texts.sharingTitle, en.sharingTitle), (texts.reviewInstruction, en.reviewInstruction),
            (texts.agree, en.agree), (texts.givenNameLabel, en.givenNameLabel),
            (texts.signatureInstruction, en.signatureInstruction), (texts.participantRole, en.participantRole),
            (texts.passcodeText, en.passcodeText), (texts.defaultTeamName, en.defaultTeamName),
        ]
        for (translated, english) in pairs { #expect(translated != english, "\(translated)") }
    }

    private func expectError(
        _ code: ConsentCoreError.Code, file: String, sourceLocation: SourceLocation = #_sourceLocation,
        _ body: () throws -> Study
    ) {
        do {
            _ = try body()
            Issue.record("expected \(code)", sourceLocation: sourceLocation)
        } catch let error as ConsentCoreError {
            #expect(error.code == code, "\(error)", sourceLocation: sourceLocation)
            #expect(error.description.contains(file), "\(error)", sourceLocation: sourceLocation)
        } catch {
            Issue.record("unexpected \(error)", sourceLocation: sourceLocation)
        }
    }
}
