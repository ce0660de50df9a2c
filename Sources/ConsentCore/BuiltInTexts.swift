/// The texts the kiosk adds to a study's own, in one language: the default section titles, the eligibility,
/// sharing, review, name and signature screens, and the signature captions (C3-PRO's `C3PRO.strings` and
/// ResearchKit's strings, which ship `en`, `de` and `fr`).
///
/// A study never has to translate these: a German study folder gets the German table. A language without a table
/// falls back to English (`BuiltInTexts(language: "it").language == "en"`). Studies still override the eligibility
/// texts through their intro config and the review confirmation through `reasonForConsent`.
///
/// Each language is one static table below with every member spelled out, so a missing translation is a compile
/// error, not an English string on a German screen. Templates take `{team}` or `{role}` as placeholders.
public struct BuiltInTexts: Sendable, Hashable {
    /// The language of the table (a tag of `supportedLanguages`), not necessarily the one asked for.
    public var language: String

    public var documentTitle: String
    public var signaturePageTitle: String
    public var signaturePageContent: String
    /// The team the sharing choice names when the Contract names no Organization.
    public var defaultTeamName: String
    /// The team named by the Contract's Organization: `{team}` is `Organization.name`.
    public var namedTeamTemplate: String
    public var sectionTitles: [ConsentSectionType: String]
    public var learnMoreTitles: [ConsentSectionType: String]
    public var learnMore: String

    public var eligibilityTitle: String
    public var letsCheckMessage: String
    public var letsCheckBody: String
    public var startEligibility: String
    public var eligibleTitle: String
    /// Names the button that leads on: `{button}` is its label (`startConsent`).
    public var eligibleMessage: String
    public var startConsent: String
    public var ineligibleMessage: String

    public var sharingTitle: String
    public var sharingTextTemplate: String
    public var shareWidelyTemplate: String
    public var shareTeamOnlyTemplate: String
    public var sharingLearnMore: String
    /// The record's wording of a "share widely" choice (the Consent's nested provision), in the consent's language.
    public var sharingProvisionTemplate: String

    public var reviewTitle: String
    public var reviewInstruction: String
    public var agree: String
    public var disagree: String
    public var nameFormTitle: String
    public var givenNameLabel: String
    public var familyNameLabel: String
    public var namePlaceholder: String
    public var signatureTitle: String
    public var signatureInstruction: String
    public var signaturePlaceholder: String

    public var passcodeTitle: String
    public var passcodeText: String

    public var participantRole: String
    public var printedNameCaptionTemplate: String
    public var signatureCaptionTemplate: String
    public var dateCaption: String

    // Witness and legally authorized representative (the review step's signer pages).
    public var representativeRole: String
    public var witnessRole: String
    public var signerTitle: String
    public var signerParticipantChoice: String
    public var signerRepresentativeChoice: String
    public var participantNameTitle: String
    public var representativeTitle: String
    public var relationshipLabel: String
    public var representativeSignatureInstruction: String
    public var witnessTitle: String
    public var witnessText: String
    public var witnessSignatureTitle: String
    public var witnessSignatureInstruction: String
    /// The displays of `RepresentativeRelationship.defaults` (v3 RoleCode PRN, GUARD, SPS, DOMPART, CHILD,
    /// HPOWATT, POWATT).
    public var relationshipParent: String
    public var relationshipGuardian: String
    public var relationshipSpouse: String
    public var relationshipDomesticPartner: String
    public var relationshipChild: String
    public var relationshipHealthcarePowerOfAttorney: String
    public var relationshipPowerOfAttorney: String

    // Withdrawal and re-consent. Templates take `{study}`, `{date}` and `{record}`.
    public var withdrawalTitle: String
    public var withdrawalTextTemplate: String
    public var withdrawalReasonLabel: String
    /// The withdrawal document's heading and body (its PDF), and the meaning of its signature.
    public var withdrawalDocumentTitle: String
    public var withdrawalDocumentTextTemplate: String
    public var withdrawalReasonHeading: String
    public var withdrawalSignaturePageContent: String
    public var changesTitle: String
    public var changesText: String
    public var changesUnknownText: String
    /// `changesText` and `changesUnknownText` naming the day of the previous signature: `{date}`, in words.
    public var changesSinceTextTemplate: String
    public var changesSinceUnknownTextTemplate: String

    /// The languages with a table, English first (`KioskLanguage`).
    public static let supportedLanguages = KioskLanguage.allCases.map(\.rawValue)
    public static let fallbackLanguage = KioskLanguage.english.rawValue

    /// Whether `tag` has its own table (else it falls back to English).
    public static func hasTable(for tag: String) -> Bool {
        KioskLanguage(exactly: tag) != nil
    }

    // MARK: Templates

    public func teamName(organization name: String) -> String { fill(namedTeamTemplate, "team", name) }
    public func sharingText(team: String) -> String { fill(sharingTextTemplate, "team", team) }
    public func shareWidelyChoice(team: String) -> String { fill(shareWidelyTemplate, "team", team) }
    public func shareTeamOnlyChoice(team: String) -> String { fill(shareTeamOnlyTemplate, "team", team) }
    public func sharingProvision(team: String) -> String { fill(sharingProvisionTemplate, "team", team) }
    public func printedNameCaption(role: String) -> String { fill(printedNameCaptionTemplate, "role", role) }
    public func signatureCaption(role: String) -> String { fill(signatureCaptionTemplate, "role", role) }
    public func withdrawalText(studyTitle: String, signedOn: String) -> String {
        fill(fill(withdrawalTextTemplate, "study", studyTitle), "date", signedOn)
    }
    public func withdrawalDocumentText(studyTitle: String, signedOn: String, record: String) -> String {
        fill(fill(fill(withdrawalDocumentTextTemplate, "study", studyTitle), "date", signedOn), "record", record)
    }
    /// The re-consent's explanation: with the section lists (`detailed`) or without, naming the day the previous
    /// consent was signed when it is known (`signedOn`, a day in words).
    public func changesText(detailed: Bool, signedOn: String?) -> String {
        guard let signedOn else { return detailed ? changesText : changesUnknownText }
        return fill(detailed ? changesSinceTextTemplate : changesSinceUnknownTextTemplate, "date", signedOn)
    }

    /// The display of a default relationship code in this language; nil for a code the kiosk has no text for.
    public func relationshipDisplay(code: String) -> String? {
        switch code {
        case "PRN": relationshipParent
        case "GUARD": relationshipGuardian
        case "SPS": relationshipSpouse
        case "DOMPART": relationshipDomesticPartner
        case "CHILD": relationshipChild
        case "HPOWATT": relationshipHealthcarePowerOfAttorney
        case "POWATT": relationshipPowerOfAttorney
        default: nil
        }
    }

    public func sectionTitle(_ type: ConsentSectionType) -> String? { sectionTitles[type] }
    public func learnMoreTitle(_ type: ConsentSectionType) -> String? { learnMoreTitles[type] }

    /// The "Learn more" title of a section's scene; nil when it has no HTML to show.
    public func learnMoreTitle(for section: ConsentSection) -> String? {
        section.isInDocument ? learnMoreTitles[section.type] : nil
    }

    private func fill(_ template: String, _ name: String, _ value: String) -> String {
        template.replacingOccurrences(of: "{\(name)}", with: value)
    }
}

extension BuiltInTexts: LanguageTable {
    /// English: exactly ResearchKit's and C3-PRO's texts (`ConsentTexts`, `ConsentSectionType`).
    public static let english = BuiltInTexts(
        language: "en",
        documentTitle: ConsentTexts.documentTitle,
        signaturePageTitle: ConsentTexts.signaturePageTitle,
        signaturePageContent: ConsentTexts.signaturePageContent,
        defaultTeamName: ConsentTexts.defaultTeamName,
        namedTeamTemplate: "The {team}",
        sectionTitles: Dictionary(
            uniqueKeysWithValues: ConsentSectionType.allCases.compactMap { t in t.defaultTitle.map { (t, $0) } }),
        learnMoreTitles: Dictionary(
            uniqueKeysWithValues: ConsentSectionType.allCases.compactMap { t in t.learnMoreTitle.map { (t, $0) } }),
        learnMore: ConsentTexts.learnMore,
        eligibilityTitle: ConsentTexts.eligibilityTitle,
        letsCheckMessage: ConsentTexts.letsCheckMessage,
        letsCheckBody: ConsentTexts.letsCheckBody,
        startEligibility: ConsentTexts.startEligibility,
        eligibleTitle: ConsentTexts.eligibleTitle,
        eligibleMessage: ConsentTexts.eligibleMessage,
        startConsent: ConsentTexts.startConsent,
        ineligibleMessage: ConsentTexts.ineligibleMessage,
        sharingTitle: ConsentTexts.sharingTitle,
        sharingTextTemplate: ConsentTexts.sharingText(team: "{team}"),
        shareWidelyTemplate: ConsentTexts.shareWidelyChoice(team: "{team}"),
        shareTeamOnlyTemplate: ConsentTexts.shareTeamOnlyChoice(team: "{team}"),
        sharingLearnMore: ConsentTexts.sharingLearnMore,
        sharingProvisionTemplate: "Share coded study data with {team} and qualified researchers worldwide",
        reviewTitle: ConsentTexts.reviewTitle,
        reviewInstruction: ConsentTexts.reviewInstruction,
        agree: ConsentTexts.agree,
        disagree: ConsentTexts.disagree,
        nameFormTitle: ConsentTexts.nameFormTitle,
        givenNameLabel: ConsentTexts.givenNameLabel,
        familyNameLabel: ConsentTexts.familyNameLabel,
        namePlaceholder: ConsentTexts.namePlaceholder,
        signatureTitle: ConsentTexts.signatureTitle,
        signatureInstruction: ConsentTexts.signatureInstruction,
        signaturePlaceholder: ConsentTexts.signaturePlaceholder,
        passcodeTitle: ConsentTexts.passcodeTitle,
        passcodeText: ConsentTexts.passcodeText,
        participantRole: ConsentTexts.participantRole,
        printedNameCaptionTemplate: ConsentTexts.printedNameCaption(role: "{role}"),
        signatureCaptionTemplate: ConsentTexts.signatureCaption(role: "{role}"),
        dateCaption: ConsentTexts.dateCaption,
        representativeRole: ConsentTexts.representativeRole,
        witnessRole: ConsentTexts.witnessRole,
        signerTitle: ConsentTexts.signerTitle,
        signerParticipantChoice: ConsentTexts.signerParticipantChoice,
        signerRepresentativeChoice: ConsentTexts.signerRepresentativeChoice,
        participantNameTitle: ConsentTexts.participantNameTitle,
        representativeTitle: ConsentTexts.representativeTitle,
        relationshipLabel: ConsentTexts.relationshipLabel,
        representativeSignatureInstruction: ConsentTexts.representativeSignatureInstruction,
        witnessTitle: ConsentTexts.witnessTitle,
        witnessText: ConsentTexts.witnessText,
        witnessSignatureTitle: ConsentTexts.witnessSignatureTitle,
        witnessSignatureInstruction: ConsentTexts.witnessSignatureInstruction,
        relationshipParent: ConsentTexts.relationshipParent,
        relationshipGuardian: ConsentTexts.relationshipGuardian,
        relationshipSpouse: ConsentTexts.relationshipSpouse,
        relationshipDomesticPartner: ConsentTexts.relationshipDomesticPartner,
        relationshipChild: ConsentTexts.relationshipChild,
        relationshipHealthcarePowerOfAttorney: ConsentTexts.relationshipHealthcarePowerOfAttorney,
        relationshipPowerOfAttorney: ConsentTexts.relationshipPowerOfAttorney,
        withdrawalTitle: ConsentTexts.withdrawalTitle,
        withdrawalTextTemplate: ConsentTexts.withdrawalText(studyTitle: "{study}", signedOn: "{date}"),
        withdrawalReasonLabel: ConsentTexts.withdrawalReasonLabel,
        withdrawalDocumentTitle: ConsentTexts.withdrawalDocumentTitle,
        withdrawalDocumentTextTemplate: ConsentTexts.withdrawalDocumentText(
            studyTitle: "{study}", signedOn: "{date}", record: "{record}"),
        withdrawalReasonHeading: ConsentTexts.withdrawalReasonHeading,
        withdrawalSignaturePageContent: ConsentTexts.withdrawalSignaturePageContent,
        changesTitle: ConsentTexts.changesTitle,
        changesText: ConsentTexts.changesText,
        changesUnknownText: ConsentTexts.changesUnknownText,
        changesSinceTextTemplate: ConsentTexts.changesSinceText,
        changesSinceUnknownTextTemplate: ConsentTexts.changesSinceUnknownText)

    /// German, formal address ("Sie"). The team is named in the accusative-safe form "das Team von …", so the
    /// templates read correctly with a named and with the default team.
    public static let german = BuiltInTexts(
        language: "de",
        documentTitle: "Einwilligungserklärung",
        signaturePageTitle: "Einwilligungserklärung",
        signaturePageContent:
            "Mit Ihrer Zustimmung bestätigen Sie, dass Sie die Einwilligungserklärung gelesen haben und an dieser "
            + "Forschungsstudie teilnehmen möchten.",
        defaultTeamName: "das Forschungsteam",
        namedTeamTemplate: "das Team von {team}",
        sectionTitles: [
            .overview: "Willkommen", .dataGathering: "Datenerhebung", .privacy: "Datenschutz",
            .dataUse: "Datennutzung", .timeCommitment: "Zeitaufwand", .studySurvey: "Befragung",
            .studyTasks: "Aufgaben in der Studie", .withdrawing: "Rücktritt",
        ],
        learnMoreTitles: [
            .overview: "Mehr über die Studie erfahren",
            .dataGathering: "Mehr darüber, wie Daten erhoben werden",
            .privacy: "Mehr darüber, wie Ihre Privatsphäre und Identität geschützt werden",
            .dataUse: "Mehr darüber, wie Daten genutzt werden",
            .timeCommitment: "Mehr über den Zeitaufwand der Studie",
            .studySurvey: "Mehr über die Befragung",
            .studyTasks: "Mehr über die Aufgaben in der Studie",
            .withdrawing: "Mehr über den Rücktritt von der Studie",
            .custom: "Mehr erfahren",
        ],
        learnMore: "Mehr erfahren",
        eligibilityTitle: "Teilnahmevoraussetzungen",
        letsCheckMessage: "Prüfen wir, ob Sie an dieser Studie teilnehmen können",
        letsCheckBody: "Beantworten Sie jede Frage unten und tippen Sie dann auf „Antworten bestätigen“.",
        startEligibility: "Prüfung beginnen",
        eligibleTitle: "Sie können an der Studie teilnehmen",
        eligibleMessage: "Tippen Sie auf „{button}“, um mit der Einwilligung zu beginnen.",
        startConsent: "Einwilligung beginnen",
        ineligibleMessage:
            "Vielen Dank für Ihr Interesse!\nLeider können Sie zurzeit nicht an dieser Studie teilnehmen.",
        sharingTitle: "Weitergabe von Daten",
        sharingTextTemplate:
            "Die Studiendaten aus Ihrer Teilnahme an dieser Studie erhält {team}.\n\n"
            + "Wenn Sie Ihre codierten Studiendaten (ohne Angaben wie Ihren Namen) breiter weitergeben, kann das "
            + "dieser und künftiger Forschung nützen.",
        shareWidelyTemplate: "Meine Daten an {team} und an qualifizierte Forschende weltweit weitergeben",
        shareTeamOnlyTemplate: "Meine Daten nur an {team} weitergeben",
        sharingLearnMore: "Mehr über die Weitergabe von Daten",
        sharingProvisionTemplate: "Codierte Studiendaten an {team} und an qualifizierte Forschende weltweit weitergeben",
        reviewTitle: "Überprüfen",
        reviewInstruction:
            "Lesen Sie das Dokument unten und tippen Sie auf „Zustimmen“, wenn Sie fortfahren möchten.",
        agree: "Zustimmen",
        disagree: "Ablehnen",
        nameFormTitle: "Einwilligungserklärung",
        givenNameLabel: "Vorname",
        familyNameLabel: "Nachname",
        namePlaceholder: "Erforderlich",
        signatureTitle: "Unterschrift",
        signatureInstruction: "Bitte unterschreiben Sie mit dem Finger auf der Linie unten.",
        signaturePlaceholder: "Hier unterschreiben",
        passcodeTitle: "Code",
        passcodeText:
            "Sie werden nun gebeten, einen Code festzulegen.\n\n"
            + "Er schützt Ihre Daten vor unbefugtem Zugriff, falls Sie Ihr Telefon einer anderen Person überlassen.",
        participantRole: "Teilnehmer/in",
        printedNameCaptionTemplate: "Name in Druckschrift ({role})",
        signatureCaptionTemplate: "Unterschrift ({role})",
        dateCaption: "Datum",
        representativeRole: "Gesetzliche Vertretung",
        witnessRole: "Zeuge/Zeugin",
        signerTitle: "Wer unterschreibt?",
        signerParticipantChoice: "Ich bin die teilnehmende Person und unterschreibe für mich selbst",
        signerRepresentativeChoice:
            "Ich bin die gesetzliche Vertretung der teilnehmenden Person und unterschreibe in ihrem Namen",
        participantNameTitle: "Name der teilnehmenden Person",
        representativeTitle: "Gesetzliche Vertretung",
        relationshipLabel: "Beziehung zur teilnehmenden Person",
        representativeSignatureInstruction:
            "Bitte unterschreiben Sie als gesetzliche Vertretung der teilnehmenden Person mit dem Finger auf der "
            + "Linie unten.",
        witnessTitle: "Zeuge/Zeugin",
        witnessText: "Ein Zeuge/eine Zeugin bestätigt, die Unterzeichnung der Einwilligung gesehen zu haben.",
        witnessSignatureTitle: "Unterschrift des Zeugen/der Zeugin",
        witnessSignatureInstruction: "Zeuge/Zeugin: Bitte unterschreiben Sie mit dem Finger auf der Linie unten.",
        relationshipParent: "Elternteil",
        relationshipGuardian: "Gesetzliche Betreuung/Vormund (gerichtlich bestellt)",
        relationshipSpouse: "Ehepartner/in",
        relationshipDomesticPartner: "Lebenspartner/in",
        relationshipChild: "Volljähriges Kind",
        relationshipHealthcarePowerOfAttorney: "Gesundheitsvollmacht",
        relationshipPowerOfAttorney: "Vorsorgevollmacht",
        withdrawalTitle: "Einwilligung widerrufen",
        withdrawalTextTemplate:
            "Sie widerrufen die Einwilligung, die Sie am {date} für „{study}“ gegeben haben. "
            + "Sie können uns den Grund nennen, müssen es aber nicht. Geben Sie dann zur Bestätigung Ihren Namen "
            + "an und unterschreiben Sie.",
        withdrawalReasonLabel: "Grund (freiwillig)",
        withdrawalDocumentTitle: "Widerruf der Einwilligung",
        withdrawalDocumentTextTemplate:
            "Ich widerrufe die Einwilligung, die ich am {date} für „{study}“ gegeben habe (Datensatz {record}).",
        withdrawalReasonHeading: "Angegebener Grund",
        withdrawalSignaturePageContent:
            "Mit Ihrer Unterschrift bestätigen Sie, dass Sie Ihre Einwilligung zur Teilnahme an dieser "
            + "Forschungsstudie widerrufen.",
        changesTitle: "Was sich geändert hat",
        changesText:
            "Die Einwilligungserklärung zu dieser Studie hat sich geändert, seit Sie sie zuletzt unterschrieben "
            + "haben. Diese Abschnitte sind neu, entfallen oder geändert; bitte lesen Sie die Einwilligungserklärung "
            + "erneut und unterschreiben Sie sie, wenn Sie einverstanden sind.",
        changesUnknownText:
            "Die Einwilligungserklärung zu dieser Studie hat sich geändert, seit Sie sie zuletzt unterschrieben "
            + "haben. Bitte lesen Sie die Einwilligungserklärung erneut und unterschreiben Sie sie, wenn Sie "
            + "einverstanden sind.",
        changesSinceTextTemplate:
            "Die Einwilligungserklärung zu dieser Studie hat sich geändert, seit Sie sie am {date} unterschrieben "
            + "haben. Diese Abschnitte sind neu, entfallen oder geändert; bitte lesen Sie die Einwilligungserklärung "
            + "erneut und unterschreiben Sie sie, wenn Sie einverstanden sind.",
        changesSinceUnknownTextTemplate:
            "Die Einwilligungserklärung zu dieser Studie hat sich geändert, seit Sie sie am {date} unterschrieben "
            + "haben. Bitte lesen Sie die Einwilligungserklärung erneut und unterschreiben Sie sie, wenn Sie "
            + "einverstanden sind.")

    /// French, formal address ("vous").
    public static let french = BuiltInTexts(
        language: "fr",
        documentTitle: "Formulaire de consentement",
        signaturePageTitle: "Consentement",
        signaturePageContent:
            "En acceptant, vous confirmez avoir lu le formulaire de consentement et souhaiter participer à cette "
            + "étude de recherche.",
        defaultTeamName: "l’équipe de recherche",
        namedTeamTemplate: "l’équipe {team}",
        sectionTitles: [
            .overview: "Bienvenue", .dataGathering: "Collecte des données", .privacy: "Confidentialité",
            .dataUse: "Utilisation des données", .timeCommitment: "Temps requis", .studySurvey: "Questionnaire",
            .studyTasks: "Tâches de l’étude", .withdrawing: "Retrait",
        ],
        learnMoreTitles: [
            .overview: "En savoir plus sur l’étude",
            .dataGathering: "En savoir plus sur la collecte des données",
            .privacy: "En savoir plus sur la protection de votre vie privée et de votre identité",
            .dataUse: "En savoir plus sur l’utilisation des données",
            .timeCommitment: "En savoir plus sur le temps que demande l’étude",
            .studySurvey: "En savoir plus sur le questionnaire",
            .studyTasks: "En savoir plus sur les tâches demandées",
            .withdrawing: "En savoir plus sur le retrait de l’étude",
            .custom: "En savoir plus",
        ],
        learnMore: "En savoir plus",
        eligibilityTitle: "Admissibilité",
        letsCheckMessage: "Vérifions si vous pouvez participer à cette étude",
        letsCheckBody: "Répondez à chaque question ci-dessous, puis touchez « Confirmer les réponses ».",
        startEligibility: "Commencer la vérification",
        eligibleTitle: "Vous pouvez participer à l’étude",
        eligibleMessage: "Touchez « {button} » pour commencer le consentement.",
        startConsent: "Commencer le consentement",
        ineligibleMessage:
            "Merci de votre intérêt !\nMalheureusement, vous ne pouvez pas participer à cette étude pour le moment.",
        sharingTitle: "Partage des données",
        sharingTextTemplate:
            "Les données de votre participation à cette étude seront transmises à {team}.\n\n"
            + "Partager plus largement vos données d’étude codées (sans informations telles que votre nom) peut être "
            + "utile à cette recherche et aux recherches futures.",
        shareWidelyTemplate: "Partager mes données avec {team} et des chercheurs qualifiés du monde entier",
        shareTeamOnlyTemplate: "Partager mes données uniquement avec {team}",
        sharingLearnMore: "En savoir plus sur le partage des données",
        sharingProvisionTemplate:
            "Partager les données d’étude codées avec {team} et des chercheurs qualifiés du monde entier",
        reviewTitle: "Relecture",
        reviewInstruction:
            "Relisez le formulaire ci-dessous et touchez « J’accepte » si vous êtes prêt(e) à continuer.",
        agree: "J’accepte",
        disagree: "Je refuse",
        nameFormTitle: "Consentement",
        givenNameLabel: "Prénom",
        familyNameLabel: "Nom",
        namePlaceholder: "Obligatoire",
        signatureTitle: "Signature",
        signatureInstruction: "Veuillez signer avec le doigt sur la ligne ci-dessous.",
        signaturePlaceholder: "Signez ici",
        passcodeTitle: "Code d’accès",
        passcodeText:
            "Vous allez maintenant créer un code d’accès.\n\n"
            + "Il protège vos données contre tout accès non autorisé si vous confiez votre téléphone à une autre "
            + "personne.",
        participantRole: "Participant(e)",
        printedNameCaptionTemplate: "Nom en lettres capitales ({role})",
        signatureCaptionTemplate: "Signature ({role})",
        dateCaption: "Date",
        representativeRole: "Représentant légal",
        witnessRole: "Témoin",
        signerTitle: "Qui signe ?",
        signerParticipantChoice: "Je suis le participant et je signe pour moi-même",
        signerRepresentativeChoice: "Je suis le représentant légal du participant et je signe en son nom",
        participantNameTitle: "Nom du participant",
        representativeTitle: "Représentant légal",
        relationshipLabel: "Lien avec le participant",
        representativeSignatureInstruction:
            "En tant que représentant légal du participant, veuillez signer avec votre doigt sur la ligne ci-dessous.",
        witnessTitle: "Témoin",
        witnessText: "Un témoin confirme avoir vu la signature du consentement.",
        witnessSignatureTitle: "Signature du témoin",
        witnessSignatureInstruction: "Témoin : veuillez signer avec votre doigt sur la ligne ci-dessous.",
        relationshipParent: "Parent",
        relationshipGuardian: "Tuteur légal (désigné par le tribunal)",
        relationshipSpouse: "Conjoint(e)",
        relationshipDomesticPartner: "Partenaire",
        relationshipChild: "Enfant majeur",
        relationshipHealthcarePowerOfAttorney: "Mandataire de santé",
        relationshipPowerOfAttorney: "Procuration",
        withdrawalTitle: "Retirer le consentement",
        withdrawalTextTemplate:
            "Vous retirez le consentement que vous avez donné le {date} pour « {study} ». "
            + "Vous pouvez nous indiquer pourquoi, sans y être obligé(e). Indiquez ensuite votre nom et signez "
            + "pour confirmer.",
        withdrawalReasonLabel: "Motif (facultatif)",
        withdrawalDocumentTitle: "Retrait du consentement",
        withdrawalDocumentTextTemplate:
            "Je retire le consentement que j’ai donné le {date} pour « {study} » (dossier {record}).",
        withdrawalReasonHeading: "Motif indiqué",
        withdrawalSignaturePageContent:
            "En signant, vous confirmez retirer votre consentement à participer à cette étude de recherche.",
        changesTitle: "Ce qui a changé",
        changesText:
            "Le formulaire de consentement de cette étude a changé depuis votre dernière signature. Ces sections "
            + "sont nouvelles, supprimées ou modifiées ; veuillez relire le formulaire et le signer si vous êtes "
            + "d’accord.",
        changesUnknownText:
            "Le formulaire de consentement de cette étude a changé depuis votre dernière signature. Veuillez relire "
            + "le formulaire et le signer si vous êtes d’accord.",
        changesSinceTextTemplate:
            "Le formulaire de consentement de cette étude a changé depuis que vous l’avez signé le {date}. Ces "
            + "sections sont nouvelles, supprimées ou modifiées ; veuillez relire le formulaire et le signer si vous "
            + "êtes d’accord.",
        changesSinceUnknownTextTemplate:
            "Le formulaire de consentement de cette étude a changé depuis que vous l’avez signé le {date}. Veuillez "
            + "relire le formulaire et le signer si vous êtes d’accord.")
}
