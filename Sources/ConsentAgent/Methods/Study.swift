import AgentProtocol
import ConsentCore
import HTMLSanitizer

/// `study.get {study?, language?}`.
struct StudyGetParams {
    var study: String?
    var language: String?

    init(_ params: [String: RPCValue]) throws {
        let reader = try ParamsReader(params, allowed: ["study", "language"])
        study = try reader.optionalString("study")
        language = try reader.optionalString("language")
    }
}

/// `study.asset {name, study?, language?}`.
struct StudyAssetParams {
    var name: String
    var study: String?
    var language: String?

    init(_ params: [String: RPCValue]) throws {
        let reader = try ParamsReader(params, allowed: ["name", "study", "language"])
        name = try reader.string("name")
        study = try reader.optionalString("study")
        language = try reader.optionalString("language")
    }
}

extension StudyContext {
    func study(_ id: String?) throws -> Study {
        guard let id else { return studies[0] }
        guard let study = studies.first(where: { $0.id == id }) else {
            throw AgentError(.unknownStudy, "no study has this id; study.get lists the available ones")
        }
        return study
    }

    /// The study in a language; nil picks the study's default language.
    func study(_ id: String?, language: String?) throws -> Study {
        let study = try study(id)
        guard let language else { return study }
        return try translation(of: study, language)
    }

    /// The study (any of its languages) in `language`.
    func translation(of study: Study, _ language: String) throws -> Study {
        let all = studies.first { $0.id == study.id } ?? study
        guard let translated = all.inLanguage(language) else {
            let known = all.languages.map(\.tag).joined(separator: ", ")
            throw AgentError(.unknownLanguage, "the study has no consent in this language; it has \(known)")
        }
        return translated
    }

    /// One entry of `study.get`'s `languages`.
    static func languageValue(_ language: StudyLanguage, title: String) -> RPCValue {
        [
            "tag": .string(language.tag), "name": .string(language.name), "version": .string(language.version),
            "default": .bool(language.isDefault), "title": .string(title),
        ]
    }

    /// `study.get`: the study's facts, its languages, and the UI's words in the asked language; `printBlank` says
    /// whether `copy.printBlank` can print here (the kiosk has a printer).
    func studyGet(_ params: StudyGetParams, printsBlankForms: Bool = false) throws -> RPCValue {
        let study = try study(params.study)
        // The UI's words in the asked language (a tag of the study's); the rest of the reply is unchanged.
        let language = try params.language.map { try translation(of: study, $0).language } ?? study.language
        var value: [String: RPCValue] = [
            "id": .string(study.id), "version": .string(study.version), "title": .string(study.title),
            "eligibilityQuestions": .array(study.document.eligibility.map { .string($0.question) }),
            "sections": .integer(Int64(study.document.sections.count)),
            "askForSharing": .bool(study.options.askForSharing),
            "askToCreatePasscode": .bool(study.options.askToCreatePasscode),
            "requireWitness": .bool(study.options.requireWitness),
            "allowRepresentative": .bool(study.options.allowRepresentative),
            "language": .string(study.language),
            "languages": .array(study.languages.map { Self.languageValue($0, title: study.inLanguage($0.tag)?.title ?? study.title) }),
            "texts": UITextsValue.value(UITexts(language: language)),
            "printBlank": .bool(printsBlankForms),
        ]
        // The introduction the start screen shows, in the asked language (each language has its own intro.json).
        let shown = (try? translation(of: study, language)) ?? study
        if !shown.introduction.isEmpty { value["introduction"] = Self.introductionValue(shown) }
        // The IRB approval of the asked language (staff pages warn before it expires); only when checked.
        if let policy = approvalPolicy {
            value["approval"] = policy.status(of: shown)
        }
        return ["study": .object(value), "studies": .array(studies.map { .string($0.id) })]
    }

    /// `study.get`'s `introduction`: the welcome item, the logo's asset name and the pages, their HTML sanitised as
    /// a section's is (only the study's own images, no script, no remote resource).
    static func introductionValue(_ study: Study) -> RPCValue {
        let introduction = study.introduction
        let assets = Set(study.assets.keys)
        var value: [String: RPCValue] = [
            "pages": .array(
                introduction.pages.map { page in
                    [
                        "id": .string(page.id), "title": .string(page.title),
                        "html": .string(HTMLSanitizer.sanitize(page.htmlContent, assets: assets)),
                    ]
                })
        ]
        if let title = introduction.title { value["title"] = .string(title) }
        if let subtitle = introduction.subtitle { value["subtitle"] = .string(subtitle) }
        if let logo = introduction.logo { value["logo"] = .string(logo) }
        return .object(value)
    }

    /// `study.asset`: an image the study uses, base64, never any other file (the study read its images when it
    /// loaded; no request touches the file system).
    func studyAsset(_ params: StudyAssetParams) throws -> RPCValue {
        try Self.assetValue(try study(params.study, language: params.language), params.name)
    }

    static func assetValue(_ study: Study, _ name: String) throws -> RPCValue {
        guard let asset = study.asset(named: name) else {
            throw RPCErrorObject.domain(.unknownAsset, "the study uses no image of this name; names come from view.scene.image and data-asset")
        }
        guard asset.isDeliverable else {
            throw RPCErrorObject.domain(
                .assetTooLarge, "the image is larger than a UI can be sent; the study's coordinator must shrink it",
                details: ["maximum": .integer(Int64(StudyAsset.maximumBytes)), "size": .integer(Int64(asset.size))])
        }
        return [
            "name": .string(asset.name), "mediaType": .string(asset.mediaType), "size": .integer(Int64(asset.bytes.count)),
            "data": .string(asset.bytes.base64EncodedString()),
        ]
    }
}
