/// German, formal address ("Sie"). The voice is eSpeak NG's `gmw/de`.
///
/// Everything the kiosk says in this language is in this one file; `KioskLanguagePack.all` registers it.
extension KioskLanguagePack {
    public static let german = KioskLanguagePack(
        tag: "de", voice: "de", builtIn: Words.builtIn, screen: Words.screen, ui: Words.ui,
        display: Words.display, staff: Words.staff, comprehension: Words.comprehension, pdf: Words.pdf)
}

/// The tables of `KioskLanguagePack.german`; a word said twice is written once (`screen.back`).
private enum Words {
    /// German, formal address ("Sie"). The team is named in the accusative-safe form "das Team von …", so the
    /// templates read correctly with a named and with the default team.
    static let builtIn = BuiltInTexts(
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
            + "einverstanden sind.",
        keyInformationTitle: "Wichtige Informationen",
        keyInformationText: "Das Wichtigste zuerst: was Ihnen hilft zu entscheiden, ob Sie teilnehmen möchten.",
        optionalTitle: "Freiwillige Zusatzteile",
        optionalText:
            "Jeder dieser Punkte ist Ihre eigene Entscheidung. "
                + "Bitte beantworten Sie jeden mit Ja oder Nein. "
                + "Wie auch immer Sie antworten, Sie können an der Studie teilnehmen.",
        changeTitle: "Antworten ändern",
        changeTextTemplate:
            "Dies sind Ihre Antworten zu den freiwilligen Teilen der Einwilligung, die Sie am {date} für „{study}“ "
            + "gegeben haben. Ändern Sie, was Sie ändern möchten, und bestätigen Sie dann mit Ihrem Namen und Ihrer "
            + "Unterschrift. Wie auch immer Sie antworten, Sie bleiben in der Studie.",
        changeDocumentTitle: "Änderung der freiwilligen Angaben",
        changeDocumentTextTemplate:
            "Ich ändere meine Antworten zu den freiwilligen Teilen der Einwilligung, die ich am {date} für „{study}“ "
            + "gegeben habe (Datensatz {record}). Meine Antworten sind jetzt die unten aufgeführten; meine Einwilligung zur "
            + "Teilnahme bleibt bestehen.",
        changeSignaturePageContent:
            "Mit Ihrer Unterschrift bestätigen Sie Ihre Antworten zu den in diesem Dokument aufgeführten freiwilligen "
            + "Teilen. Ihre Einwilligung zur Teilnahme an dieser Forschungsstudie bleibt bestehen.")

    /// German, formal address ("Sie"), as `BuiltInTexts.german`.
    static let screen = ScreenTexts(
        language: "de",
        next: "Weiter",
        back: "Zurück",
        yes: "Ja",
        no: "Nein",
        confirmAnswers: "Antworten bestätigen",
        declineConsent: "Nicht teilnehmen",
        declineWithdrawal: "Einwilligung behalten",
        cancel: "Abbrechen",
        changeName: "Namen ändern",
        changeParticipantName: "Namen der teilnehmenden Person ändern",
        changeRepresentativeName: "Namen der Vertretung ändern",
        changeWitnessName: "Namen der Zeugin / des Zeugen ändern",
        signOnPad: "Auf dem Unterschriftenpad unterschreiben",
        clearSignature: "Löschen",
        confirmSignature: "Unterschrift bestätigen",
        setPasscode: "Code festlegen",
        finish: "Abschließen",
        printCopy: "Meine Kopie drucken",
        printBlank: "Formular zum Mitnehmen drucken",
        askStaff: "Personal rufen",
        staffCalled: "Eine Mitarbeiterin oder ein Mitarbeiter wurde gerufen und ist unterwegs. Sie können weiterlesen, während Sie warten.",
        pause: "Ich möchte es mir überlegen",
        confirmWithdrawal: "Einwilligung widerrufen",
        doneTitle: "Bereit zum Abschließen",
        doneMessageTemplate: "Ihre Einwilligung ist vollständig. Tippen Sie auf „{button}“, um sie zu speichern.",
        withdrawalDoneMessageTemplate: "Ihr Widerruf ist vollständig. Tippen Sie auf „{button}“, um ihn zu speichern.",
        changeDoneMessageTemplate: "Ihre geänderten Entscheidungen sind vollständig. Tippen Sie auf „{button}“, um sie zu speichern.",
        completedTitle: "Vielen Dank",
        completedMessage:
            "Ihre Einwilligung wurde gespeichert. Bitte sagen Sie dem Studienpersonal, dass Sie fertig sind.",
        withdrawalCompletedMessage:
            "Ihr Widerruf wurde gespeichert. Bitte sagen Sie dem Studienpersonal, dass Sie fertig sind.",
        changeCompletedMessage:
            "Ihre geänderten Entscheidungen wurden gespeichert. Bitte sagen Sie dem Studienpersonal, dass Sie fertig sind.",
        declinedTitle: "Keine Teilnahme",
        declinedMessage: "Sie haben sich gegen eine Teilnahme entschieden. Ihre Eingaben wurden nicht gespeichert.",
        withdrawalDeclinedTitle: "Einwilligung bleibt bestehen",
        withdrawalDeclinedMessage: "Ihre Einwilligung wurde nicht widerrufen. Ihre Eingaben wurden nicht gespeichert.",
        cancelledTitle: "Abgebrochen",
        cancelledMessage: "Dieser Vorgang wurde abgebrochen. Ihre Eingaben wurden nicht gespeichert.",
        expiredTitle: "Vorgang beendet",
        expiredMessage:
            "Dieser Vorgang wurde beendet, weil eine Weile nichts geschah. Ihre Eingaben wurden nicht gespeichert. "
            + "Bitte beginnen Sie erneut.",
        pausedTitle: "Nehmen Sie sich Zeit",
        pausedMessage: "Ihre bisherigen Antworten bleiben verschlossen auf diesem Kiosk, Ihr Name nicht. Mit dem Code oben machen Sie dort weiter, wo Sie aufgehört haben.",
        pausedCodeLabel: "Ihr Code",
        pausedUntilTemplate: "Der Code gilt bis {date}. Wählen Sie auf der ersten Seite des Kiosks „Ich habe einen Code“ und geben Sie ihn ein.",
        pausedSlip: "Ein Zettel mit dem Code wird gedruckt: Bitte nehmen Sie ihn aus dem Drucker.",
        resumedContinued: "Willkommen zurück. Sie machen dort weiter, wo Sie aufgehört haben.",
        resumedStartedOver: "Die Einwilligungserklärung wurde geändert, seit Sie aufgehört haben. Sie beginnt deshalb mit der neuen Fassung von vorn.")

    /// German, formal address ("Sie"), as `BuiltInTexts.german`.
    static let ui = UITexts(
        language: "de",
        start: "Beginnen",
        languagePicker: "Sprache",
        introductionPages: "Über die Studie",
        existingRecord: "Einwilligung widerrufen oder erneuern",
        existingRecordText:
            "Geben Sie die Datensatznummer Ihrer Einwilligung ein (sie steht auf Ihrer Kopie, oder fragen Sie das "
            + "Personal). Wenn Sie einen Code festgelegt haben, geben Sie ihn ebenfalls ein.",
        recordLabel: "Datensatznummer",
        recordPasscodeLabel: "Code (falls festgelegt)",
        withdraw: screen.confirmWithdrawal,
        reconsent: "Neue Fassung unterschreiben",
        change: "Freiwillige Antworten ändern",
        back: screen.back,
        resume: "Ich habe einen Code",
        resumeText: "Geben Sie den Code ein, den Sie beim Unterbrechen erhalten haben.",
        resumeCodeLabel: "Zugangscode",
        resumeGoOn: "Weiter",
        learnMore: builtIn.learnMore,
        close: "Schließen",
        startAgain: "Neu beginnen",
        keyShift: "Umschalt",
        keySpace: "Leerzeichen",
        keyErase: "Löschen",
        saving: "Ihre Einwilligung wird gespeichert…",
        savingWithdrawal: "Ihr Widerruf wird gespeichert…",
        savingChange: "Ihre geänderten Entscheidungen werden gespeichert…",
        reconnecting: "Der Einwilligungsdienst startet neu. Bitte warten…",
        interrupted: "Die Einwilligung wurde unterbrochen. Bitte beginnen Sie neu.",
        expired: "Die Einwilligung wurde nach längerer Inaktivität beendet. Bitte beginnen Sie neu.",
        copyPrinting: "Ihre Kopie wird gedruckt…",
        copyPrinted: "Ihre Kopie ist gedruckt. Bitte nehmen Sie sie am Drucker.",
        copyFailed: "Ihre Kopie konnte nicht gedruckt werden. Bitte fragen Sie das Personal nach Ihrer Kopie.",
        printBlank: "Formular zum Mitnehmen drucken",
        blankPrinting:
            "Das Formular wird gedruckt. Nehmen Sie es aus dem Drucker: Es ist nicht unterschrieben, es ist zum Lesen für Sie.",
        blankFailed: "Das Formular konnte nicht gedruckt werden. Bitte fragen Sie das Personal.",
        listen: "Vorlesen",
        stopListening: "Vorlesen beenden",
        expiringTitle: "Brauchen Sie mehr Zeit?",
        expiring:
            "Zum Schutz Ihrer Privatsphäre wird diese Einwilligung in {seconds} Sekunden geschlossen und Ihre Eingaben "
            + "werden gelöscht.",
        moreTime: "Ich brauche mehr Zeit",
        errors: UITexts.ErrorSentences(
            tryAgain: "Etwas ist schiefgegangen. Bitte versuchen Sie es erneut oder fragen Sie das Personal.",
            askStaff: "Der Kiosk kann das nicht. Bitte wenden Sie sich an das Personal.",
            busy: "Der Kiosk ist beschäftigt. Bitte versuchen Sie es gleich noch einmal.",
            restarting: "Der Einwilligungsdienst startet neu. Bitte warten…",
            unknownLanguage: "Diese Sprache ist nicht verfügbar.",
            notEligible: "Bitte beantworten Sie zuerst alle Fragen.",
            invalidAnswers: "Bitte beantworten Sie alle Fragen.",
            missingName: "Bitte geben Sie beide Namen ein.",
            invalidField: "Bitte prüfen Sie Ihre Eingabe.",
            invalidPasscode: "Der Code muss 4 bis 8 Ziffern haben.",
            missingSignature: "Bitte unterschreiben Sie zuerst.",
            noCapture: "Bitte unterschreiben Sie zuerst im Feld.",
            copyNotPrinted: "Ihre Kopie konnte nicht gedruckt werden. Bitte fragen Sie das Personal nach Ihrer Kopie.",
            speechUnavailable: "Vorlesen ist gerade nicht möglich. Bitte fragen Sie das Personal.",
            signatureTooShort: "Die Unterschrift ist zu kurz. Bitte unterschreiben Sie erneut.",
            noPad: "Kein Unterschriftenpad ist bereit. Bitte unterschreiben Sie auf dem Bildschirm.",
            padBusy: "Das Unterschriftenpad ist belegt. Bitte unterschreiben Sie auf dem Bildschirm.",
            flowExpired: "Die Einwilligung wurde nach längerer Inaktivität beendet.",
            flowFinished: "Diese Einwilligung ist beendet.",
            recordFailed: "Die Einwilligung konnte nicht gespeichert werden. Bitte tippen Sie erneut.",
            unknownRecord: "Zu dieser Datensatznummer gibt es keine Einwilligung. Bitte prüfen Sie die Nummer.",
            notAConsent: "Dieser Datensatz ist ein Widerruf, keine Einwilligung.",
            alreadyWithdrawn: "Diese Einwilligung wurde bereits widerrufen.",
            passcodeRequired: "Diese Einwilligung ist durch einen Code geschützt. Bitte geben Sie ihn ein.",
            passcodeNotSet:
                "Diese Einwilligung wurde ohne Code gegeben. Bitte prüfen Sie die Nummer des Datensatzes; wenn sie "
                + "stimmt, lassen Sie den Code leer.",
            wrongPasscode: "Der Code ist nicht richtig.",
            passcodeLocked:
                "Zu viele falsche Codes. Bitte versuchen Sie es in 15 Minuten erneut oder fragen Sie das Personal.",
            studyUnchanged: "Diese Einwilligung gilt für die aktuelle Fassung der Studie: Es gibt nichts Neues zu unterschreiben.",
            alreadyAmended: "Diese Einwilligung wurde bereits geändert. Bitte verwenden Sie die Datensatznummer der letzten Änderung.",
            noOptionalElements: "Diese Studie hat keine freiwilligen Teile, die sich ändern lassen.",
            studyChanged:
                "Seit dieser Einwilligung gibt es eine neue Fassung der Studie. Bitte unterschreiben Sie stattdessen die neue Fassung.",
            unknownResumeCode: "Dieser Code ist unbekannt oder abgelaufen. Bitte prüfen Sie ihn oder wenden Sie sich an das Personal."))

    /// QWERTZ, with ä, ö, ü and ß where a German keyboard has them.
    static let display = DisplayTexts(
        language: "de",
        textSize: "Schriftgröße",
        sizes: DisplayTexts.sizes(["Normale Schrift", "Große Schrift", "Sehr große Schrift"]),
        contrast: "Hoher Kontrast",
        keyboardLayout: "qwertz",
        letters: [
            ["q", "w", "e", "r", "t", "z", "u", "i", "o", "p", "ü"],
            ["a", "s", "d", "f", "g", "h", "j", "k", "l", "ö", "ä"],
            ["y", "x", "c", "v", "b", "n", "m", "ß", "-", "'"],
        ])

    /// German, formal address ("Sie"), as `ScreenTexts.german`.
    static let staff = StaffTexts(
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

    static let comprehension = ComprehensionTexts(
        language: "de",
        title: "Haben Sie alles verstanden?",
        progressTemplate: "Frage {n} von {count}",
        instruction: "Wählen Sie die Antwort, die Sie für richtig halten.",
        tryAgainMessage: "Das stimmt nicht ganz. Lesen Sie die Erklärung und den Teil der Einwilligung, aus dem sie stammt, und versuchen Sie es dann noch einmal.",
        continueMessage: "Das stimmt nicht ganz. Lesen Sie die Erklärung; eine Mitarbeiterin oder ein Mitarbeiter bespricht diesen Teil mit Ihnen, bevor Sie unterschreiben.",
        stoppedMessage: "Das stimmt nicht ganz. Bitten Sie eine Mitarbeiterin oder einen Mitarbeiter, die Einwilligung mit Ihnen durchzugehen, bevor Sie fortfahren.",
        explanationHeading: "Erklärung",
        sectionHeading: "Aus der Einwilligung",
        tryAgain: "Noch einmal versuchen",
        goOn: "Weiter",
        answer: "Antworten",
        recordTitle: "Verständnis",
        understoodTemplate: "Im {attempt}. Versuch richtig beantwortet.",
        missedTemplate: "Nach {attempt} Versuchen nicht richtig beantwortet.",
        answersGiven: "Gegebene Antworten:",
        flaggedNote: "Eine Frage wurde nicht richtig beantwortet: Das Studienteam wurde gebeten, die Einwilligung mit der teilnehmenden Person durchzugehen."
    )

    static let pdf = PDFBuiltInTexts(
        language: "de",
        participantMeaning: "Mit der Unterschrift willigt die teilnehmende Person in die Teilnahme an dieser Forschungsstudie ein.",
        witnessMeaning:
            "Mit der Unterschrift bestätigt der Zeuge/die Zeugin, dass die teilnehmende Person diese Einwilligung in "
            + "seiner/ihrer Anwesenheit unterschrieben hat.",
        representativeMeaning:
            "Mit der Unterschrift willigt die gesetzliche Vertretung im Namen der teilnehmenden Person in die "
            + "Teilnahme an dieser Forschungsstudie ein.",
        relationshipCaption: "Beziehung zur teilnehmenden Person:", onBehalfOfCaption: "Unterschreibt im Namen von:",
        dateAndTimeCaption: "Datum und Uhrzeit", meaningLabel: "Bedeutung dieser Unterschrift:",
        pageFooterTemplate: "Seite {page} von {count}", versionFooterTemplate: "Studienversion {version}",
        subject: "Einwilligung in die Forschungsteilnahme",
        unsignedSubject: "Einwilligung in die Forschungsteilnahme (nicht unterschriebene Vorschau)",
        readingOnlyMark: "NICHT UNTERSCHRIEBEN: NUR ZUM LESEN",
        readingCopySubject: "Einwilligung in die Forschungsteilnahme (nicht unterschrieben, nur zum Lesen)",
        approvalTemplate: "Ethikvotum {reference}", dateStyle: .dayMonthYearDots)
}
