/// The words of the `staff` step (the person obtaining consent), its error sentences and its block in the consent
/// PDF, in one language. One static table per language with every member spelled out, so a missing translation
/// is a compile error; a language without a table falls back to English, as `ScreenTexts` does.
public struct StaffTexts: Sendable, Hashable {
    public var language: String

    public var title: String
    /// The unlock page: hand the kiosk to the staff member, who types their id and PIN.
    public var unlockText: String
    public var staffIdLabel: String
    public var pinLabel: String
    public var unlock: String
    /// The attest page's question; `{name}` is the unlocked staff member's name.
    public var attestTextTemplate: String
    public var photoId: String
    public var knownToStaff: String
    public var representativeDocuments: String
    public var other: String
    public var noteLabel: String
    public var attest: String
    public var changeIdentityCheck: String
    public var signatureInstruction: String

    // Error sentences (`study.get`'s `texts.errors`).
    public var wrongPin: String
    public var locked: String
    public var notUnlocked: String

    // The consent PDF's block.
    public var pdfRole: String
    public var pdfMeaning: String
    public var identityCaption: String
    public var staffIdCaption: String

    public func attestText(name: String) -> String { attestTextTemplate.replacingOccurrences(of: "{name}", with: name) }

    /// The text of a verification method, as the attest page offers it and the PDF prints it.
    public func text(for method: IdentityVerification) -> String {
        switch method {
        case .photoId: photoId
        case .knownToStaff: knownToStaff
        case .representativeDocuments: representativeDocuments
        case .other: other
        }
    }
}

extension StaffTexts: LanguageTable {
    public static let english = StaffTexts(
        language: "en",
        title: "Person Obtaining Consent",
        unlockText:
            "Please hand the kiosk to the study staff member who obtained this consent. Staff: enter your staff ID and PIN.",
        staffIdLabel: "Staff ID",
        pinLabel: "PIN",
        unlock: "Unlock",
        attestTextTemplate: "{name}, how did you verify the identity of the person who signed?",
        photoId: "Photo ID checked",
        knownToStaff: "Known to me personally",
        representativeDocuments: "Representative's documents checked",
        other: "Other (describe in the note)",
        noteLabel: "Note",
        attest: "Confirm",
        changeIdentityCheck: "Change Identity Check",
        signatureInstruction:
            "Sign to confirm that you obtained this consent and verified the identity of the person who signed.",
        wrongPin: "The staff ID or PIN is not correct.",
        locked: "Too many wrong PINs. Unlocking is paused for a while: wait and try again later, or cancel and start again.",
        notUnlocked: "Staff: please unlock with your staff ID and PIN first.",
        pdfRole: "Person Obtaining Consent",
        pdfMeaning: "I obtained this consent and verified the identity of the person who signed it.",
        identityCaption: "Identity verified by:",
        staffIdCaption: "Staff ID:")

    /// German, formal address ("Sie"), as `ScreenTexts.german`.
    public static let german = StaffTexts(
        language: "de",
        title: "Aufklärende Person",
        unlockText:
            "Bitte geben Sie das Gerät an die Person des Studienteams, die Sie aufgeklärt hat. Studienpersonal: Bitte Personal-ID und PIN eingeben.",
        staffIdLabel: "Personal-ID",
        pinLabel: "PIN",
        unlock: "Entsperren",
        attestTextTemplate: "{name}, wie haben Sie die Identität der unterzeichnenden Person geprüft?",
        photoId: "Lichtbildausweis geprüft",
        knownToStaff: "Mir persönlich bekannt",
        representativeDocuments: "Dokumente der Vertretung geprüft",
        other: "Anders (in der Notiz beschreiben)",
        noteLabel: "Notiz",
        attest: "Bestätigen",
        changeIdentityCheck: "Identitätsprüfung ändern",
        signatureInstruction:
            "Unterschreiben Sie, um zu bestätigen, dass Sie diese Einwilligung eingeholt und die Identität der unterzeichnenden Person geprüft haben.",
        wrongPin: "Die Personal-ID oder die PIN ist nicht richtig.",
        locked: "Zu viele falsche PINs. Das Entsperren ist eine Weile ausgesetzt: später erneut versuchen oder abbrechen und neu beginnen.",
        notUnlocked: "Studienpersonal: Bitte zuerst mit Personal-ID und PIN entsperren.",
        pdfRole: "Aufklärende Person",
        pdfMeaning: "Ich habe diese Einwilligung eingeholt und die Identität der unterzeichnenden Person geprüft.",
        identityCaption: "Identität geprüft durch:",
        staffIdCaption: "Personal-ID:")

    public static let french = StaffTexts(
        language: "fr",
        title: "Personne recueillant le consentement",
        unlockText:
            "Veuillez remettre la borne au membre de l’équipe qui a recueilli ce consentement. Personnel : saisissez votre identifiant et votre code PIN.",
        staffIdLabel: "Identifiant du personnel",
        pinLabel: "Code PIN",
        unlock: "Déverrouiller",
        attestTextTemplate: "{name}, comment avez-vous vérifié l’identité de la personne qui a signé ?",
        photoId: "Pièce d’identité avec photo vérifiée",
        knownToStaff: "Personne que je connais personnellement",
        representativeDocuments: "Documents du représentant vérifiés",
        other: "Autre (à décrire dans la note)",
        noteLabel: "Note",
        attest: "Confirmer",
        changeIdentityCheck: "Modifier la vérification d’identité",
        signatureInstruction:
            "Signez pour confirmer que vous avez recueilli ce consentement et vérifié l’identité de la personne qui a signé.",
        wrongPin: "L’identifiant ou le code PIN n’est pas correct.",
        locked: "Trop de codes PIN erronés. Le déverrouillage est suspendu pour un moment : réessayez plus tard, ou annulez et recommencez.",
        notUnlocked: "Personnel : veuillez d’abord déverrouiller avec votre identifiant et votre code PIN.",
        pdfRole: "Personne recueillant le consentement",
        pdfMeaning: "J’ai recueilli ce consentement et vérifié l’identité de la personne qui l’a signé.",
        identityCaption: "Identité vérifiée par :",
        staffIdCaption: "Identifiant du personnel :")
}
