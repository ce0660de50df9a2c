/// French, formal address ("vous"). The voice is eSpeak NG's `roa/fr`.
///
/// Everything the kiosk says in this language is in this one file; `KioskLanguagePack.all` registers it.
extension KioskLanguagePack {
    public static let french = KioskLanguagePack(
        tag: "fr", voice: "fr", builtIn: Words.builtIn, screen: Words.screen, ui: Words.ui,
        display: Words.display, staff: Words.staff, comprehension: Words.comprehension, pdf: Words.pdf)
}

/// The tables of `KioskLanguagePack.french`; a word said twice is written once (`screen.back`).
private enum Words {
    /// French, formal address ("vous").
    static let builtIn = BuiltInTexts(
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
            + "relire le formulaire et le signer si vous êtes d’accord.",
        keyInformationTitle: "Informations clés",
        keyInformationText: "L’essentiel d’abord : ce qui vous aide à décider si vous souhaitez participer.",
        optionalTitle: "Volets facultatifs",
        optionalText:
            "Chacun de ces points est votre choix. "
                + "Veuillez répondre Oui ou Non à chacun. "
                + "Quelle que soit votre réponse, vous pouvez participer à l’étude.",
        changeTitle: "Modifier vos réponses",
        changeTextTemplate:
            "Voici vos réponses aux parties facultatives du consentement que vous avez donné le {date} pour « {study} ». "
            + "Modifiez celles que vous souhaitez changer, puis indiquez votre nom et signez pour confirmer. "
            + "Quelles que soient vos réponses, vous restez dans l’étude.",
        changeDocumentTitle: "Modification des choix facultatifs",
        changeDocumentTextTemplate:
            "Je modifie mes réponses aux parties facultatives du consentement que j’ai donné le {date} pour « {study} » "
            + "(dossier {record}). Mes réponses sont désormais celles indiquées ci-dessous ; mon consentement à participer reste inchangé.",
        changeSignaturePageContent:
            "En signant, vous confirmez vos réponses aux parties facultatives indiquées dans ce document. "
            + "Votre consentement à participer à cette étude de recherche reste inchangé.")

    static let screen = ScreenTexts(
        language: "fr",
        next: "Suivant",
        back: "Retour",
        yes: "Oui",
        no: "Non",
        confirmAnswers: "Confirmer les réponses",
        declineConsent: "Ne pas participer",
        declineWithdrawal: "Conserver mon consentement",
        cancel: "Annuler",
        changeName: "Modifier le nom",
        changeParticipantName: "Modifier le nom du participant",
        changeRepresentativeName: "Modifier le nom du représentant",
        changeWitnessName: "Modifier le nom du témoin",
        signOnPad: "Signer sur la tablette",
        clearSignature: "Effacer",
        confirmSignature: "Valider la signature",
        setPasscode: "Définir le code",
        finish: "Terminer",
        printCopy: "Imprimer ma copie",
        printBlank: "Imprimer le formulaire à emporter",
        askStaff: "Appeler le personnel",
        staffCalled: "Un membre du personnel a été appelé et arrive. Vous pouvez continuer à lire en attendant.",
        pause: "Je veux y réfléchir",
        confirmWithdrawal: "Retirer mon consentement",
        doneTitle: "Prêt à terminer",
        doneMessageTemplate: "Votre consentement est complet. Touchez « {button} » pour l’enregistrer.",
        withdrawalDoneMessageTemplate: "Votre retrait est complet. Touchez « {button} » pour l’enregistrer.",
        changeDoneMessageTemplate: "Vos choix modifiés sont complets. Touchez « {button} » pour les enregistrer.",
        completedTitle: "Merci",
        completedMessage:
            "Votre consentement a été enregistré. Veuillez indiquer au personnel de l’étude que vous avez terminé.",
        withdrawalCompletedMessage:
            "Votre retrait a été enregistré. Veuillez indiquer au personnel de l’étude que vous avez terminé.",
        changeCompletedMessage:
            "Vos choix modifiés ont été enregistrés. Veuillez indiquer au personnel de l’étude que vous avez terminé.",
        declinedTitle: "Pas de participation",
        declinedMessage: "Vous avez choisi de ne pas participer. Rien de ce que vous avez saisi n’a été conservé.",
        withdrawalDeclinedTitle: "Consentement maintenu",
        withdrawalDeclinedMessage:
            "Votre consentement n’a pas été retiré. Rien de ce que vous avez saisi n’a été conservé.",
        cancelledTitle: "Annulé",
        cancelledMessage: "Cette session a été annulée. Rien de ce que vous avez saisi n’a été conservé.",
        expiredTitle: "Session terminée",
        expiredMessage:
            "Cette session s’est terminée faute d’activité. Rien de ce que vous avez saisi n’a été conservé. "
            + "Veuillez recommencer.",
        pausedTitle: "Prenez votre temps",
        pausedMessage: "Vos réponses jusqu’ici restent sous clé sur ce kiosque, votre nom non. Avec le code ci-dessus, vous reprenez là où vous vous êtes arrêté.",
        pausedCodeLabel: "Votre code",
        pausedUntilTemplate: "Le code est valable jusqu’au {date}. Sur le premier écran du kiosque, choisissez « J’ai un code » et saisissez-le.",
        pausedSlip: "Un ticket avec le code est en cours d’impression : prenez-le dans l’imprimante.",
        resumedContinued: "Bon retour. Vous reprenez là où vous vous étiez arrêté.",
        resumedStartedOver: "Le formulaire de consentement a changé depuis votre arrêt : il reprend donc depuis le début avec la nouvelle version.")

    /// French, formal address ("vous").
    static let ui = UITexts(
        language: "fr",
        start: "Commencer",
        languagePicker: "Langue",
        introductionPages: "À propos de l’étude",
        existingRecord: "Retirer ou renouveler un consentement",
        existingRecordText:
            "Saisissez le numéro de dossier de votre consentement (il figure sur votre copie, ou demandez au "
            + "personnel). Si vous avez défini un code d’accès, saisissez-le aussi.",
        recordLabel: "Numéro de dossier",
        recordPasscodeLabel: "Code d’accès (si vous en avez défini un)",
        withdraw: screen.confirmWithdrawal,
        reconsent: "Signer la nouvelle version",
        change: "Modifier mes réponses facultatives",
        back: screen.back,
        resume: "J’ai un code",
        resumeText: "Saisissez le code reçu lors de votre pause.",
        resumeCodeLabel: "Code de reprise",
        resumeGoOn: "Continuer",
        learnMore: builtIn.learnMore,
        close: "Fermer",
        startAgain: "Recommencer",
        keyShift: "Maj",
        keySpace: "Espace",
        keyErase: "Effacer",
        saving: "Enregistrement de votre consentement…",
        savingWithdrawal: "Enregistrement de votre retrait…",
        savingChange: "Enregistrement de vos choix modifiés…",
        reconnecting: "Le service de consentement redémarre. Veuillez patienter…",
        interrupted: "Le consentement a été interrompu. Veuillez recommencer.",
        expired: "Le consentement a été arrêté après une période d’inactivité. Veuillez recommencer.",
        copyPrinting: "Votre copie est en cours d’impression…",
        copyPrinted: "Votre copie est imprimée. Veuillez la prendre à l’imprimante.",
        copyFailed: "Votre copie n’a pas pu être imprimée. Veuillez demander votre copie au personnel.",
        printBlank: "Imprimer le formulaire à emporter",
        blankPrinting:
            "Le formulaire est en cours d’impression. Prenez-le dans l’imprimante : il n’est pas signé, il est à lire chez vous.",
        blankFailed: "Le formulaire n’a pas pu être imprimé. Veuillez demander au personnel.",
        listen: "Écouter",
        stopListening: "Arrêter la lecture",
        expiringTitle: "Avez-vous besoin de plus de temps ?",
        expiring:
            "Pour protéger votre vie privée, ce consentement sera fermé et vos saisies effacées dans {seconds} secondes.",
        moreTime: "J’ai besoin de plus de temps",
        errors: UITexts.ErrorSentences(
            tryAgain: "Un problème est survenu. Veuillez réessayer ou demander au personnel.",
            askStaff: "Le kiosque ne peut pas faire cela. Veuillez demander au personnel.",
            busy: "Le kiosque est occupé. Veuillez réessayer dans un instant.",
            restarting: "Le service de consentement redémarre. Veuillez patienter…",
            unknownLanguage: "Cette langue n’est pas disponible.",
            notEligible: "Veuillez d’abord répondre à toutes les questions.",
            invalidAnswers: "Veuillez répondre à toutes les questions.",
            missingName: "Veuillez saisir les deux noms.",
            invalidField: "Veuillez vérifier votre saisie.",
            invalidPasscode: "Le code doit comporter 4 à 8 chiffres.",
            missingSignature: "Veuillez d’abord signer.",
            noCapture: "Veuillez d’abord signer dans le cadre.",
            copyNotPrinted: "Votre copie n’a pas pu être imprimée. Veuillez demander votre copie au personnel.",
            speechUnavailable: "La lecture à voix haute n’est pas disponible pour le moment. Veuillez demander au personnel.",
            signatureTooShort: "La signature est trop courte. Veuillez signer à nouveau.",
            noPad: "Aucune tablette de signature n’est prête. Veuillez signer sur l’écran.",
            padBusy: "La tablette de signature est occupée. Veuillez signer sur l’écran.",
            flowExpired: "Le consentement a été arrêté après une période d’inactivité.",
            flowFinished: "Ce consentement est terminé.",
            recordFailed: "Le consentement n’a pas pu être enregistré. Veuillez toucher à nouveau.",
            unknownRecord: "Aucun consentement ne porte ce numéro de dossier. Veuillez le vérifier.",
            notAConsent: "Ce dossier est un retrait, pas un consentement.",
            alreadyWithdrawn: "Ce consentement a déjà été retiré.",
            passcodeRequired: "Ce consentement est protégé par un code d’accès. Veuillez le saisir.",
            passcodeNotSet:
                "Ce consentement a été donné sans code d’accès. Veuillez vérifier le numéro du dossier ; s’il est "
                + "correct, laissez le code d’accès vide.",
            wrongPasscode: "Le code d’accès n’est pas correct.",
            passcodeLocked:
                "Trop de codes erronés. Veuillez réessayer dans 15 minutes ou demander au personnel.",
            studyUnchanged:
                "Ce consentement porte sur la version actuelle de l’étude : il n’y a rien de nouveau à signer.",
            alreadyAmended: "Ce consentement a déjà été modifié. Veuillez utiliser le numéro de dossier de la dernière modification.",
            noOptionalElements: "Cette étude n’a pas de parties facultatives à modifier.",
            studyChanged:
                "L’étude a une nouvelle version depuis ce consentement. Veuillez plutôt signer la nouvelle version.",
            unknownResumeCode: "Ce code est inconnu ou a expiré. Veuillez le vérifier ou demander au personnel."))

    /// AZERTY, then the accented letters of French (é and è where they fit, the others in a row of their own).
    static let display = DisplayTexts(
        language: "fr",
        textSize: "Taille du texte",
        sizes: DisplayTexts.sizes(["Texte normal", "Grand texte", "Très grand texte"]),
        contrast: "Contraste élevé",
        keyboardLayout: "azerty",
        letters: [
            ["a", "z", "e", "r", "t", "y", "u", "i", "o", "p"],
            ["q", "s", "d", "f", "g", "h", "j", "k", "l", "m"],
            ["w", "x", "c", "v", "b", "n", "'", "-", "é", "è"],
            ["à", "â", "ç", "ê", "ë", "î", "ï", "ô", "ù", "û", "ü", "œ"],
        ])

    static let staff = StaffTexts(
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

    static let comprehension = ComprehensionTexts(
        language: "fr",
        title: "Avez-vous bien compris ?",
        progressTemplate: "Question {n} sur {count}",
        instruction: "Choisissez la réponse qui vous semble juste.",
        tryAgainMessage: "Ce n’est pas tout à fait juste. Lisez l’explication et la partie du consentement dont elle provient, puis réessayez.",
        continueMessage: "Ce n’est pas tout à fait juste. Lisez l’explication ; un membre du personnel reverra cette partie avec vous avant que vous signiez.",
        stoppedMessage: "Ce n’est pas tout à fait juste. Veuillez demander à un membre du personnel de revoir le consentement avec vous avant de continuer.",
        explanationHeading: "Explication",
        sectionHeading: "Extrait du consentement",
        tryAgain: "Réessayer",
        goOn: "Continuer",
        answer: "Répondre",
        recordTitle: "Compréhension",
        understoodTemplate: "Bonne réponse à la tentative {attempt}.",
        missedTemplate: "Pas de bonne réponse après {attempt} tentatives.",
        answersGiven: "Réponses données :",
        flaggedNote: "Une question n’a pas reçu de bonne réponse : le personnel a été invité à revoir le consentement avec la personne participante."
    )

    static let pdf = PDFBuiltInTexts(
        language: "fr",
        participantMeaning: "Par sa signature, la personne participante consent à prendre part à cette étude de recherche.",
        witnessMeaning:
            "Par sa signature, le témoin atteste que la personne participante a signé ce consentement en sa présence.",
        representativeMeaning:
            "Par sa signature, le représentant légal consent, au nom de la personne participante, à sa participation "
            + "à cette étude de recherche.",
        relationshipCaption: "Lien avec le participant :", onBehalfOfCaption: "Signe au nom de :",
        dateAndTimeCaption: "Date et heure", meaningLabel: "Signification de cette signature :",
        pageFooterTemplate: "Page {page} sur {count}", versionFooterTemplate: "Version de l’étude {version}",
        subject: "Consentement à la recherche", unsignedSubject: "Consentement à la recherche (aperçu non signé)",
        readingOnlyMark: "NON SIGNÉ : POUR LECTURE SEULEMENT",
        readingCopySubject: "Consentement à la recherche (non signé, pour lecture seulement)",
        approvalTemplate: "Approbation du comité d’éthique {reference}", dateStyle: .dayMonthYearSlashes)
}
