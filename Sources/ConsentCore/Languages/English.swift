/// English, ResearchKit's and C3-PRO's words (docs/C3PRO.md): the kiosk's fallback for a language it has no file for.
/// The voice is eSpeak NG's `gmw/en-US`.
///
/// Everything the kiosk says in this language is in this one file; `KioskLanguagePack.all` registers it.
extension KioskLanguagePack {
    public static let english = KioskLanguagePack(
        tag: "en", voice: "en-us", builtIn: Words.builtIn, screen: Words.screen, ui: Words.ui,
        display: Words.display, staff: Words.staff, comprehension: Words.comprehension, pdf: Words.pdf)
}

/// The tables of `KioskLanguagePack.english`; a word said twice is written once (`screen.back`).
private enum Words {
    /// Exactly ResearchKit's and C3-PRO's texts.
    static let builtIn = BuiltInTexts(
        language: "en",
        documentTitle: "Consent",
        signaturePageTitle: "Consent",
        signaturePageContent:
            "By agreeing you confirm that you read the consent and that you wish to take part in this research study.",
        defaultTeamName: "the research team",
        namedTeamTemplate: "The {team}",
        sectionTitles: [
            .overview: "Welcome", .dataGathering: "Data Gathering", .privacy: "Privacy", .dataUse: "Data Use",
            .timeCommitment: "Time Commitment", .studySurvey: "Study Survey", .studyTasks: "Study Tasks",
            .withdrawing: "Withdrawing",
        ],
        learnMoreTitles: [
            .overview: "Learn more about the study first",
            .dataGathering: "Learn more about how data is gathered",
            .privacy: "Learn more about how your privacy and identity are protected",
            .dataUse: "Learn more about how data is used",
            .timeCommitment: "Learn more about the study's impact on your time",
            .studySurvey: "Learn more about the study survey",
            .studyTasks: "Learn more about the tasks involved",
            .withdrawing: "Learn more about withdrawing",
            .custom: "Learn more",
        ],
        learnMore: "Learn More",
        eligibilityTitle: "Eligibility",
        letsCheckMessage: "Let's see if you may take part in this study",
        letsCheckBody: "Answer each question below, then tap \u{201C}Confirm Answers\u{201D}.",
        startEligibility: "Start Eligibility",
        eligibleTitle: "You are eligible to join the study",
        eligibleMessage: "Tap \u{201C}{button}\u{201D} to begin the consent process.",
        startConsent: "Start Consent",
        ineligibleMessage:
            "Thank you for your interest!\nUnfortunately, you are not eligible to join this study at this time.",
        sharingTitle: "Sharing Options",
        sharingTextTemplate:
            "{team} will receive your study data from your participation in this study.\n\n"
            + "Sharing your coded study data more broadly (without information such as your name) may benefit this "
            + "and future research.",
        shareWidelyTemplate: "Share my data with {team} and qualified researchers worldwide",
        shareTeamOnlyTemplate: "Only share my data with {team}",
        sharingLearnMore: "Learn more about data sharing",
        sharingProvisionTemplate: "Share coded study data with {team} and qualified researchers worldwide",
        reviewTitle: "Review",
        reviewInstruction: "Review the form below, and tap Agree if you're ready to continue.",
        agree: "Agree",
        disagree: "Disagree",
        nameFormTitle: "Consent",
        givenNameLabel: "First Name",
        familyNameLabel: "Last Name",
        namePlaceholder: "Required",
        signatureTitle: "Signature",
        signatureInstruction: "Please sign using your finger on the line below.",
        signaturePlaceholder: "Sign Here",
        passcodeTitle: "Passcode",
        passcodeText:
            "You will now be asked to create a passcode.\n\n"
            + "This protects your data from unauthorized access should you hand your phone to a friend.",
        participantRole: "Participant",
        printedNameCaptionTemplate: "{role}'s Name (printed)",
        signatureCaptionTemplate: "{role}'s Signature",
        dateCaption: "Date",
        representativeRole: "Legally Authorized Representative",
        witnessRole: "Witness",
        signerTitle: "Who Is Signing?",
        signerParticipantChoice: "I am the participant and I sign for myself",
        signerRepresentativeChoice:
            "I am the participant's legally authorized representative and I sign on their behalf",
        participantNameTitle: "Participant's Name",
        representativeTitle: "Legally Authorized Representative",
        relationshipLabel: "Relationship to the participant",
        representativeSignatureInstruction:
            "As the participant's legally authorized representative, please sign using your finger on the line below.",
        witnessTitle: "Witness",
        witnessText: "A witness confirms that they saw the consent being signed.",
        witnessSignatureTitle: "Witness Signature",
        witnessSignatureInstruction: "Witness, please sign using your finger on the line below.",
        relationshipParent: "Parent",
        relationshipGuardian: "Legal guardian (court-appointed)",
        relationshipSpouse: "Spouse",
        relationshipDomesticPartner: "Domestic partner",
        relationshipChild: "Adult child",
        relationshipHealthcarePowerOfAttorney: "Healthcare power of attorney",
        relationshipPowerOfAttorney: "Power of attorney",
        withdrawalTitle: "Withdraw Consent",
        withdrawalTextTemplate:
            "You are withdrawing the consent you gave to \u{201C}{study}\u{201D} on {date}. "
            + "You may tell us why; you do not have to. Then give your name and sign to confirm.",
        withdrawalReasonLabel: "Reason (optional)",
        withdrawalDocumentTitle: "Withdrawal of Consent",
        withdrawalDocumentTextTemplate:
            "I withdraw the consent I gave to \u{201C}{study}\u{201D} on {date} (record {record}).",
        withdrawalReasonHeading: "Reason given",
        withdrawalSignaturePageContent:
            "By signing you confirm that you withdraw your consent to take part in this research study.",
        changesTitle: "What Changed",
        changesText:
            "The consent for this study has changed since you last signed it. These sections are new, removed or "
            + "edited; please read the consent again and sign it if you agree.",
        changesUnknownText:
            "The consent for this study has changed since you last signed it. Please read the consent again and sign "
            + "it if you agree.",
        changesSinceTextTemplate:
            "The consent for this study has changed since you signed it on {date}. These sections are new, removed or "
            + "edited; please read the consent again and sign it if you agree.",
        changesSinceUnknownTextTemplate:
            "The consent for this study has changed since you signed it on {date}. Please read the consent again and "
            + "sign it if you agree.",
        keyInformationTitle: "Key information",
        keyInformationText: "Start here: the most important facts to help you decide whether to take part.",
        optionalTitle: "Optional parts",
        optionalText:
            "Each of these is your own choice. "
                + "Please answer Yes or No to each one. "
                + "Whatever you answer, you can still take part in the study.",
        changeTitle: "Change Your Answers",
        changeTextTemplate:
            "These are your answers to the optional parts of the consent you gave to \u{201C}{study}\u{201D} on {date}. "
            + "Change the ones you want to change, then give your name and sign to confirm. "
            + "You stay in the study whatever you answer.",
        changeDocumentTitle: "Change of Optional Choices",
        changeDocumentTextTemplate:
            "I change my answers to the optional parts of the consent I gave to \u{201C}{study}\u{201D} on {date} "
            + "(record {record}). My answers are now those listed below; my consent to take part stays as it was.",
        changeSignaturePageContent:
            "By signing you confirm your answers to the optional parts listed in this document. "
            + "Your consent to take part in this research study stays as it was.")

    static let screen = ScreenTexts(
        language: "en",
        next: "Next",
        back: "Back",
        yes: "Yes",
        no: "No",
        confirmAnswers: "Confirm Answers",
        declineConsent: "Do Not Take Part",
        declineWithdrawal: "Keep My Consent",
        cancel: "Cancel",
        changeName: "Change Name",
        changeParticipantName: "Change Participant's Name",
        changeRepresentativeName: "Change Representative's Name",
        changeWitnessName: "Change Witness's Name",
        signOnPad: "Sign on the Pad",
        clearSignature: "Clear",
        confirmSignature: "Confirm Signature",
        setPasscode: "Set Passcode",
        finish: "Finish",
        printCopy: "Print my copy",
        printBlank: "Print the form to take home",
        askStaff: "Ask a Staff Member",
        staffCalled: "A member of staff has been called and is on the way. You can go on reading while you wait.",
        pause: "I Want to Think About It",
        confirmWithdrawal: "Withdraw Consent",
        doneTitle: "Ready to Finish",
        doneMessageTemplate: "Your consent is complete. Tap \u{201C}{button}\u{201D} to save it.",
        withdrawalDoneMessageTemplate: "Your withdrawal is complete. Tap \u{201C}{button}\u{201D} to save it.",
        changeDoneMessageTemplate: "Your changed choices are complete. Tap \u{201C}{button}\u{201D} to save them.",
        completedTitle: "Thank You",
        completedMessage: "Your consent has been saved. Please let the study staff know that you are done.",
        withdrawalCompletedMessage:
            "Your withdrawal has been saved. Please let the study staff know that you are done.",
        changeCompletedMessage:
            "Your changed choices have been saved. Please let the study staff know that you are done.",
        declinedTitle: "Not Taking Part",
        declinedMessage: "You chose not to take part. Nothing you entered has been kept.",
        withdrawalDeclinedTitle: "Consent Kept",
        withdrawalDeclinedMessage: "Your consent was not withdrawn. Nothing you entered has been kept.",
        cancelledTitle: "Cancelled",
        cancelledMessage: "This session was cancelled. Nothing you entered has been kept.",
        expiredTitle: "Session Ended",
        expiredMessage:
            "This session ended because nothing happened for a while. Nothing you entered has been kept. "
            + "Please start again.",
        pausedTitle: "Take Your Time",
        pausedMessage: "Your answers so far are kept, locked, on this kiosk; your name is not. With the code above you go on where you stopped.",
        pausedCodeLabel: "Your code",
        pausedUntilTemplate: "The code works until {date}. On the kiosk's first screen, choose “I Have a Code” and type it.",
        pausedSlip: "A slip with the code is printing: take it from the printer.",
        resumedContinued: "Welcome back. You go on where you stopped.",
        resumedStartedOver: "The consent form has changed since you stopped, so it starts again from the beginning with the new version.")

    static let ui = UITexts(
        language: "en",
        start: "Begin",
        languagePicker: "Language",
        introductionPages: "About the Study",
        existingRecord: "Withdraw or Renew a Consent",
        existingRecordText:
            "Enter the record number of the consent you gave (it is on your copy, or ask staff). "
            + "If you set a passcode, enter it too.",
        recordLabel: "Record number",
        recordPasscodeLabel: "Passcode (if you set one)",
        withdraw: screen.confirmWithdrawal,
        reconsent: "Sign the New Version",
        change: "Change My Optional Answers",
        back: screen.back,
        resume: "I Have a Code",
        resumeText: "Type the code you were given when you paused.",
        resumeCodeLabel: "Code",
        resumeGoOn: "Go On",
        learnMore: builtIn.learnMore,
        close: "Close",
        startAgain: "Start Again",
        keyShift: "Shift",
        keySpace: "Space",
        keyErase: "Erase",
        saving: "Saving your consent…",
        savingWithdrawal: "Saving your withdrawal…",
        savingChange: "Saving your changed choices…",
        reconnecting: "The consent service is restarting. Please wait…",
        interrupted: "The consent was interrupted. Please start again.",
        expired: "The consent was stopped after a time without activity. Please start again.",
        copyPrinting: "Your copy is printing…",
        copyPrinted: "Your copy is printed. Please take it from the printer.",
        copyFailed: "Your copy could not be printed. Please ask staff for your copy.",
        printBlank: "Print the form to take home",
        blankPrinting: "The form is being printed. Take it from the printer: it is not signed, it is for you to read.",
        blankFailed: "The form could not be printed. Please ask a staff member.",
        listen: "Listen",
        stopListening: "Stop Reading",
        expiringTitle: "Do you need more time?",
        expiring:
            "To protect your privacy, this consent will be closed and what you entered erased in {seconds} seconds.",
        moreTime: "I need more time",
        errors: UITexts.ErrorSentences(
            tryAgain: "Something went wrong. Please try again or ask staff.",
            askStaff: "The kiosk cannot do this. Please ask staff.",
            busy: "The kiosk is busy. Please try again in a moment.",
            restarting: "The consent service is restarting. Please wait…",
            unknownLanguage: "This language is not available.",
            notEligible: "Please answer every question first.",
            invalidAnswers: "Please answer every question.",
            missingName: "Please enter both names.",
            invalidField: "Please check the text you entered.",
            invalidPasscode: "The code must be 4 to 8 digits.",
            missingSignature: "Please sign first.",
            noCapture: "Please sign in the box first.",
            copyNotPrinted: "Your copy could not be printed. Please ask staff for your copy.",
            speechUnavailable: "Reading aloud is not available right now. Please ask staff.",
            signatureTooShort: "The signature is too short. Please sign again.",
            noPad: "No signature pad is ready. Please sign on the screen.",
            padBusy: "The signature pad is in use. Please sign on the screen.",
            flowExpired: "The consent was stopped after a time without activity.",
            flowFinished: "This consent has ended.",
            recordFailed: "The consent could not be saved. Please tap again.",
            unknownRecord: "No consent has this record number. Please check it.",
            notAConsent: "This record is a withdrawal, not a consent.",
            alreadyWithdrawn: "This consent has already been withdrawn.",
            passcodeRequired: "This consent is protected by a passcode. Please enter it.",
            passcodeNotSet:
                "This consent was given without a passcode. Please check the record number; if it is right, leave "
                + "the passcode empty.",
            wrongPasscode: "The passcode is not correct.",
            passcodeLocked: "Too many wrong passcodes. Please try again in 15 minutes or ask staff.",
            studyUnchanged: "This consent is for the current version of the study: there is nothing new to sign.",
            alreadyAmended: "This consent was changed already. Please use the record number of the latest change.",
            noOptionalElements: "This study has no optional parts to change.",
            studyChanged:
                "The study has a new version since this consent. Please sign the new version instead.",
            unknownResumeCode: "This code is not known, or its time has passed. Please check it, or ask staff."))

    /// QWERTY. English has no accented letters of its own, but names in English-speaking clinics often carry
    /// some (Zoë, Chloé, Núñez, François): the fourth row.
    static let display = DisplayTexts(
        language: "en",
        textSize: "Text size",
        sizes: DisplayTexts.sizes(["Normal text", "Large text", "Largest text"]),
        contrast: "High contrast",
        keyboardLayout: "qwerty",
        letters: [
            ["q", "w", "e", "r", "t", "y", "u", "i", "o", "p"],
            ["a", "s", "d", "f", "g", "h", "j", "k", "l", "'"],
            ["z", "x", "c", "v", "b", "n", "m", "-"],
            ["á", "é", "è", "ë", "ï", "ó", "ñ", "ç"],
        ])

    static let staff = StaffTexts(
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
        locked:
            "Too many wrong PINs. Unlocking is paused for a while: wait and try again later, or cancel and start again.",
        notUnlocked: "Staff: please unlock with your staff ID and PIN first.",
        pdfRole: "Person Obtaining Consent",
        pdfMeaning: "I obtained this consent and verified the identity of the person who signed it.",
        identityCaption: "Identity verified by:",
        staffIdCaption: "Staff ID:")

    static let comprehension = ComprehensionTexts(
        language: "en",
        title: "Check Your Understanding",
        progressTemplate: "Question {n} of {count}",
        instruction: "Choose the answer you think is right.",
        tryAgainMessage:
            "That is not quite right. Read the explanation and the part of the consent it comes from, then try again.",
        continueMessage:
            "That is not quite right. Read the explanation; a member of staff will go over this part with you before you sign.",
        stoppedMessage:
            "That is not quite right. Please ask a member of staff to go over the consent with you before you go on.",
        explanationHeading: "Explanation",
        sectionHeading: "From the consent",
        tryAgain: "Try Again",
        goOn: "Continue",
        answer: "Answer",
        recordTitle: "Understanding",
        understoodTemplate: "Answered correctly on attempt {attempt}.",
        missedTemplate: "Not answered correctly after {attempt} attempts.",
        answersGiven: "Answers given:",
        flaggedNote:
            "A question was not answered correctly: the staff were asked to go over the consent with the participant."
    )

    static let pdf = PDFBuiltInTexts(
        language: "en",
        participantMeaning: "By signing, the participant consents to take part in this research study.",
        witnessMeaning:
            "By signing, the witness attests that the participant signed this consent in the witness's presence.",
        representativeMeaning:
            "By signing, the legally authorized representative consents on the participant's behalf to take part in "
            + "this research study.",
        relationshipCaption: "Relationship to the participant:", onBehalfOfCaption: "Signing on behalf of:",
        dateAndTimeCaption: "Date and time", meaningLabel: "Meaning of this signature:",
        pageFooterTemplate: "Page {page} of {count}", versionFooterTemplate: "Study version {version}",
        subject: "Research consent", unsignedSubject: "Research consent (unsigned preview)",
        readingOnlyMark: "NOT SIGNED: FOR READING ONLY",
        readingCopySubject: "Research consent (not signed, for reading only)",
        approvalTemplate: "IRB approval {reference}", dateStyle: .iso)
}
