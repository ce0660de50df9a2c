/// Spanish, formal address ("usted"), in the neutral register of a clinic's consent forms. The team is named as
/// "el equipo de …", so the templates read correctly with a named and with the default team. The voice is eSpeak
/// NG's `roa/es`.
///
/// Everything the kiosk says in this language is in this one file; `KioskLanguagePack.all` registers it.
extension KioskLanguagePack {
    public static let spanish = KioskLanguagePack(
        tag: "es", voice: "es", builtIn: Words.builtIn, screen: Words.screen, ui: Words.ui,
        display: Words.display, staff: Words.staff, comprehension: Words.comprehension, pdf: Words.pdf)
}

/// The tables of `KioskLanguagePack.spanish`; a word said twice is written once (`screen.back`).
private enum Words {
    static let builtIn = BuiltInTexts(
        language: "es",
        documentTitle: "Formulario de consentimiento",
        signaturePageTitle: "Consentimiento",
        signaturePageContent:
            "Al aceptar, usted confirma que ha leído el formulario de consentimiento y que desea participar en este "
            + "estudio de investigación.",
        defaultTeamName: "el equipo de investigación",
        namedTeamTemplate: "el equipo de {team}",
        sectionTitles: [
            .overview: "Bienvenida", .dataGathering: "Recogida de datos", .privacy: "Privacidad",
            .dataUse: "Uso de los datos", .timeCommitment: "Tiempo necesario", .studySurvey: "Cuestionario",
            .studyTasks: "Tareas del estudio", .withdrawing: "Retirada",
        ],
        learnMoreTitles: [
            .overview: "Más información sobre el estudio",
            .dataGathering: "Más información sobre cómo se recogen los datos",
            .privacy: "Más información sobre cómo se protegen su privacidad y su identidad",
            .dataUse: "Más información sobre cómo se usan los datos",
            .timeCommitment: "Más información sobre el tiempo que requiere el estudio",
            .studySurvey: "Más información sobre el cuestionario",
            .studyTasks: "Más información sobre las tareas del estudio",
            .withdrawing: "Más información sobre cómo retirarse del estudio",
            .custom: "Más información",
        ],
        learnMore: "Más información",
        eligibilityTitle: "Requisitos de participación",
        letsCheckMessage: "Veamos si puede participar en este estudio",
        letsCheckBody: "Responda a cada pregunta y después toque «Confirmar respuestas».",
        startEligibility: "Comenzar la comprobación",
        eligibleTitle: "Puede participar en el estudio",
        eligibleMessage: "Toque «{button}» para comenzar el consentimiento.",
        startConsent: "Comenzar el consentimiento",
        ineligibleMessage:
            "¡Gracias por su interés!\nLamentablemente, en este momento no puede participar en este estudio.",
        sharingTitle: "Uso compartido de los datos",
        sharingTextTemplate:
            "Los datos de su participación en este estudio los recibirá {team}.\n\n"
            + "Compartir más ampliamente sus datos codificados del estudio (sin información como su nombre) puede "
            + "beneficiar a esta investigación y a investigaciones futuras.",
        shareWidelyTemplate: "Compartir mis datos con {team} y con investigadores cualificados de todo el mundo",
        shareTeamOnlyTemplate: "Compartir mis datos solo con {team}",
        sharingLearnMore: "Más información sobre el uso compartido de los datos",
        sharingProvisionTemplate:
            "Compartir los datos codificados del estudio con {team} y con investigadores cualificados de todo el mundo",
        reviewTitle: "Revisión",
        reviewInstruction: "Lea el formulario y toque «Acepto» si desea continuar.",
        agree: "Acepto",
        disagree: "No acepto",
        nameFormTitle: "Consentimiento",
        givenNameLabel: "Nombre",
        familyNameLabel: "Apellidos",
        namePlaceholder: "Obligatorio",
        signatureTitle: "Firma",
        signatureInstruction: "Firme con el dedo sobre la línea de abajo.",
        signaturePlaceholder: "Firme aquí",
        passcodeTitle: "Código",
        passcodeText:
            "A continuación se le pedirá que cree un código.\n\n"
            + "Protege sus datos de accesos no autorizados si deja su teléfono a otra persona.",
        participantRole: "Participante",
        printedNameCaptionTemplate: "Nombre en letra de imprenta ({role})",
        signatureCaptionTemplate: "Firma ({role})",
        dateCaption: "Fecha",
        representativeRole: "Representante legal",
        witnessRole: "Testigo",
        signerTitle: "¿Quién firma?",
        signerParticipantChoice: "Soy la persona participante y firmo en mi propio nombre",
        signerRepresentativeChoice: "Soy el representante legal del participante y firmo en su nombre",
        participantNameTitle: "Nombre del participante",
        representativeTitle: "Representante legal",
        relationshipLabel: "Relación con el participante",
        representativeSignatureInstruction:
            "Como representante legal del participante, firme con el dedo sobre la línea de abajo.",
        witnessTitle: "Testigo",
        witnessText: "Un testigo confirma que ha presenciado la firma del consentimiento.",
        witnessSignatureTitle: "Firma del testigo",
        witnessSignatureInstruction: "Testigo: firme con el dedo sobre la línea de abajo.",
        relationshipParent: "Padre o madre",
        relationshipGuardian: "Tutor legal (designado judicialmente)",
        relationshipSpouse: "Cónyuge",
        relationshipDomesticPartner: "Pareja de hecho",
        relationshipChild: "Hijo o hija mayor de edad",
        relationshipHealthcarePowerOfAttorney: "Representante para decisiones sanitarias",
        relationshipPowerOfAttorney: "Apoderado",
        withdrawalTitle: "Retirar el consentimiento",
        withdrawalTextTemplate:
            "Va a retirar el consentimiento que dio el {date} para «{study}». "
            + "Puede indicarnos el motivo, pero no está obligado a hacerlo. Después escriba su nombre y firme para "
            + "confirmarlo.",
        withdrawalReasonLabel: "Motivo (opcional)",
        withdrawalDocumentTitle: "Retirada del consentimiento",
        withdrawalDocumentTextTemplate:
            "Retiro el consentimiento que di el {date} para «{study}» (registro {record}).",
        withdrawalReasonHeading: "Motivo indicado",
        withdrawalSignaturePageContent:
            "Con su firma, usted confirma que retira su consentimiento para participar en este estudio de "
            + "investigación.",
        changesTitle: "Qué ha cambiado",
        changesText:
            "El formulario de consentimiento de este estudio ha cambiado desde la última vez que lo firmó. Estas "
            + "secciones son nuevas, se han eliminado o se han modificado; lea de nuevo el formulario y fírmelo si "
            + "está de acuerdo.",
        changesUnknownText:
            "El formulario de consentimiento de este estudio ha cambiado desde la última vez que lo firmó. Lea de "
            + "nuevo el formulario y fírmelo si está de acuerdo.",
        changesSinceTextTemplate:
            "El formulario de consentimiento de este estudio ha cambiado desde que lo firmó el {date}. Estas "
            + "secciones son nuevas, se han eliminado o se han modificado; lea de nuevo el formulario y fírmelo si "
            + "está de acuerdo.",
        changesSinceUnknownTextTemplate:
            "El formulario de consentimiento de este estudio ha cambiado desde que lo firmó el {date}. Lea de nuevo "
            + "el formulario y fírmelo si está de acuerdo.",
        keyInformationTitle: "Información clave",
        keyInformationText: "Lo más importante primero: lo que le ayuda a decidir si desea participar.",
        optionalTitle: "Partes opcionales",
        optionalText:
            "Cada una de estas partes es su decisión. "
                + "Responda Sí o No a cada una. "
                + "Responda lo que responda, puede participar en el estudio.",
        changeTitle: "Cambiar sus respuestas",
        changeTextTemplate:
            "Estas son sus respuestas a las partes opcionales del consentimiento que dio el {date} para «{study}». "
            + "Cambie las que desee cambiar y después escriba su nombre y firme para confirmarlo. "
            + "Responda lo que responda, sigue en el estudio.",
        changeDocumentTitle: "Cambio de las opciones voluntarias",
        changeDocumentTextTemplate:
            "Cambio mis respuestas a las partes opcionales del consentimiento que di el {date} para «{study}» "
            + "(registro {record}). Mis respuestas son ahora las que se indican abajo; mi consentimiento para participar sigue igual.",
        changeSignaturePageContent:
            "Con su firma, usted confirma sus respuestas a las partes opcionales indicadas en este documento. "
            + "Su consentimiento para participar en este estudio de investigación sigue igual.")

    static let screen = ScreenTexts(
        language: "es",
        next: "Siguiente",
        back: "Atrás",
        yes: "Sí",
        no: "No",
        confirmAnswers: "Confirmar respuestas",
        declineConsent: "No deseo participar",
        declineWithdrawal: "Mantener mi consentimiento",
        cancel: "Cancelar",
        changeName: "Cambiar el nombre",
        changeParticipantName: "Cambiar el nombre del participante",
        changeRepresentativeName: "Cambiar el nombre del representante",
        changeWitnessName: "Cambiar el nombre del testigo",
        signOnPad: "Firmar en la tableta",
        clearSignature: "Borrar",
        confirmSignature: "Confirmar la firma",
        setPasscode: "Establecer el código",
        finish: "Finalizar",
        printCopy: "Imprimir mi copia",
        printBlank: "Imprimir el formulario para llevar",
        askStaff: "Llamar al personal",
        staffCalled: "Se ha llamado a un miembro del personal y está en camino. Puede seguir leyendo mientras espera.",
        pause: "Quiero pensarlo",
        confirmWithdrawal: "Retirar el consentimiento",
        doneTitle: "Listo para finalizar",
        doneMessageTemplate: "Su consentimiento está completo. Toque «{button}» para guardarlo.",
        withdrawalDoneMessageTemplate: "Su retirada está completa. Toque «{button}» para guardarla.",
        changeDoneMessageTemplate: "Sus opciones modificadas están completas. Toque «{button}» para guardarlas.",
        completedTitle: "Muchas gracias",
        completedMessage: "Su consentimiento se ha guardado. Avise al personal del estudio de que ha terminado.",
        withdrawalCompletedMessage: "Su retirada se ha guardado. Avise al personal del estudio de que ha terminado.",
        changeCompletedMessage: "Sus opciones modificadas se han guardado. Avise al personal del estudio de que ha terminado.",
        declinedTitle: "No participa",
        declinedMessage: "Ha decidido no participar. No se ha conservado nada de lo que escribió.",
        withdrawalDeclinedTitle: "Consentimiento mantenido",
        withdrawalDeclinedMessage: "Su consentimiento no se ha retirado. No se ha conservado nada de lo que escribió.",
        cancelledTitle: "Cancelado",
        cancelledMessage: "Esta sesión se ha cancelado. No se ha conservado nada de lo que escribió.",
        expiredTitle: "Sesión finalizada",
        expiredMessage:
            "Esta sesión ha finalizado porque no hubo actividad durante un tiempo. No se ha conservado nada de lo que "
            + "escribió. Vuelva a empezar.",
        pausedTitle: "Tómese su tiempo",
        pausedMessage: "Sus respuestas hasta ahora se guardan bajo llave en este quiosco; su nombre no. Con el código de arriba sigue donde lo dejó.",
        pausedCodeLabel: "Su código",
        pausedUntilTemplate: "El código es válido hasta el {date}. En la primera pantalla del quiosco, elija «Tengo un código» y escríbalo.",
        pausedSlip: "Se está imprimiendo una hoja con el código: recójala en la impresora.",
        resumedContinued: "Bienvenido de nuevo. Sigue donde lo dejó.",
        resumedStartedOver: "El formulario de consentimiento ha cambiado desde que lo dejó, así que empieza de nuevo con la nueva versión.")

    static let ui = UITexts(
        language: "es",
        start: "Comenzar",
        languagePicker: "Idioma",
        introductionPages: "Sobre el estudio",
        existingRecord: "Retirar o renovar un consentimiento",
        existingRecordText:
            "Escriba el número de registro del consentimiento que dio (figura en su copia, o pregunte al personal). "
            + "Si estableció un código, escríbalo también.",
        recordLabel: "Número de registro",
        recordPasscodeLabel: "Código (si estableció uno)",
        withdraw: screen.confirmWithdrawal,
        reconsent: "Firmar la nueva versión",
        change: "Cambiar mis respuestas opcionales",
        back: screen.back,
        resume: "Tengo un código",
        resumeText: "Escriba el código que recibió al hacer la pausa.",
        resumeCodeLabel: "Código",
        resumeGoOn: "Continuar",
        learnMore: builtIn.learnMore,
        close: "Cerrar",
        startAgain: "Volver a empezar",
        keyShift: "Mayús",
        keySpace: "Espacio",
        keyErase: "Borrar",
        saving: "Guardando su consentimiento…",
        savingWithdrawal: "Guardando su retirada…",
        savingChange: "Guardando sus opciones modificadas…",
        reconnecting: "El servicio de consentimiento se está reiniciando. Espere, por favor…",
        interrupted: "El consentimiento se ha interrumpido. Vuelva a empezar.",
        expired: "El consentimiento se ha detenido tras un tiempo sin actividad. Vuelva a empezar.",
        copyPrinting: "Se está imprimiendo su copia…",
        copyPrinted: "Su copia está impresa. Recójala en la impresora.",
        copyFailed: "No se ha podido imprimir su copia. Pida su copia al personal.",
        printBlank: "Imprimir el formulario para llevar",
        blankPrinting:
            "El formulario se está imprimiendo. Recójalo de la impresora: no está firmado, es para que lo lea.",
        blankFailed: "No se ha podido imprimir el formulario. Pida ayuda al personal.",
        listen: "Escuchar",
        stopListening: "Detener la lectura",
        expiringTitle: "¿Necesita más tiempo?",
        expiring:
            "Para proteger su privacidad, este consentimiento se cerrará y se borrará lo que ha escrito dentro de "
            + "{seconds} segundos.",
        moreTime: "Necesito más tiempo",
        errors: UITexts.ErrorSentences(
            tryAgain: "Se ha producido un error. Inténtelo de nuevo o pregunte al personal.",
            askStaff: "El quiosco no puede hacer esto. Pregunte al personal.",
            busy: "El quiosco está ocupado. Inténtelo de nuevo dentro de un momento.",
            restarting: "El servicio de consentimiento se está reiniciando. Espere, por favor…",
            unknownLanguage: "Este idioma no está disponible.",
            notEligible: "Primero responda a todas las preguntas.",
            invalidAnswers: "Responda a todas las preguntas.",
            missingName: "Escriba el nombre y los apellidos.",
            invalidField: "Revise el texto que ha escrito.",
            invalidPasscode: "El código debe tener entre 4 y 8 cifras.",
            missingSignature: "Primero firme, por favor.",
            noCapture: "Primero firme en el recuadro, por favor.",
            copyNotPrinted: "No se ha podido imprimir su copia. Pida su copia al personal.",
            speechUnavailable: "La lectura en voz alta no está disponible en este momento. Pregunte al personal.",
            signatureTooShort: "La firma es demasiado corta. Vuelva a firmar.",
            noPad: "No hay ninguna tableta de firma preparada. Firme en la pantalla.",
            padBusy: "La tableta de firma está en uso. Firme en la pantalla.",
            flowExpired: "El consentimiento se ha detenido tras un tiempo sin actividad.",
            flowFinished: "Este consentimiento ha finalizado.",
            recordFailed: "No se ha podido guardar el consentimiento. Toque de nuevo.",
            unknownRecord: "Ningún consentimiento tiene este número de registro. Compruébelo, por favor.",
            notAConsent: "Este registro es una retirada, no un consentimiento.",
            alreadyWithdrawn: "Este consentimiento ya se ha retirado.",
            passcodeRequired: "Este consentimiento está protegido con un código. Escríbalo, por favor.",
            passcodeNotSet:
                "Este consentimiento se dio sin código. Compruebe el número de registro; si es correcto, deje el "
                + "código vacío.",
            wrongPasscode: "El código no es correcto.",
            passcodeLocked: "Demasiados códigos incorrectos. Inténtelo de nuevo dentro de 15 minutos o pregunte al personal.",
            studyUnchanged:
                "Este consentimiento corresponde a la versión actual del estudio: no hay nada nuevo que firmar.",
            alreadyAmended: "Este consentimiento ya se cambió. Use el número de registro del último cambio.",
            noOptionalElements: "Este estudio no tiene partes opcionales que cambiar.",
            studyChanged:
                "El estudio tiene una nueva versión desde este consentimiento. Firme la nueva versión en su lugar.",
            unknownResumeCode: "Este código no se conoce o ha caducado. Compruébelo o pregunte al personal."))

    /// QWERTY with ñ where a Spanish keyboard has it, then the accented letters and the opening marks of Spanish
    /// (á, é, í, ó, ú, ü, ¿, ¡) in a row of their own.
    static let display = DisplayTexts(
        language: "es",
        textSize: "Tamaño del texto",
        sizes: DisplayTexts.sizes(["Texto normal", "Texto grande", "Texto muy grande"]),
        contrast: "Alto contraste",
        keyboardLayout: "qwerty-es",
        letters: [
            ["q", "w", "e", "r", "t", "y", "u", "i", "o", "p"],
            ["a", "s", "d", "f", "g", "h", "j", "k", "l", "ñ"],
            ["z", "x", "c", "v", "b", "n", "m", "-", "'", "ç"],
            ["á", "é", "í", "ó", "ú", "ü", "¿", "¡"],
        ])

    static let staff = StaffTexts(
        language: "es",
        title: "Persona que obtiene el consentimiento",
        unlockText:
            "Entregue el quiosco al miembro del personal del estudio que obtuvo este consentimiento. Personal: "
            + "escriba su identificador y su PIN.",
        staffIdLabel: "Identificador del personal",
        pinLabel: "PIN",
        unlock: "Desbloquear",
        attestTextTemplate: "{name}, ¿cómo comprobó la identidad de la persona que firmó?",
        photoId: "Documento de identidad con fotografía comprobado",
        knownToStaff: "La conozco personalmente",
        representativeDocuments: "Documentos del representante comprobados",
        other: "Otro (descríbalo en la nota)",
        noteLabel: "Nota",
        attest: "Confirmar",
        changeIdentityCheck: "Cambiar la comprobación de identidad",
        signatureInstruction:
            "Firme para confirmar que obtuvo este consentimiento y que comprobó la identidad de la persona que firmó.",
        wrongPin: "El identificador del personal o el PIN no es correcto.",
        locked:
            "Demasiados PIN incorrectos. El desbloqueo está en pausa durante un tiempo: espere e inténtelo más tarde, "
            + "o cancele y vuelva a empezar.",
        notUnlocked: "Personal: primero desbloquee con su identificador y su PIN.",
        pdfRole: "Persona que obtiene el consentimiento",
        pdfMeaning: "Obtuve este consentimiento y comprobé la identidad de la persona que lo firmó.",
        identityCaption: "Identidad comprobada mediante:",
        staffIdCaption: "Identificador del personal:")

    static let comprehension = ComprehensionTexts(
        language: "es",
        title: "Compruebe lo que ha entendido",
        progressTemplate: "Pregunta {n} de {count}",
        instruction: "Elija la respuesta que considere correcta.",
        tryAgainMessage:
            "No es del todo correcto. Lea la explicación y la parte del consentimiento de la que procede, y vuelva a "
            + "intentarlo.",
        continueMessage:
            "No es del todo correcto. Lea la explicación; un miembro del personal repasará esta parte con usted antes "
            + "de que firme.",
        stoppedMessage:
            "No es del todo correcto. Pida a un miembro del personal que repase el consentimiento con usted antes de "
            + "continuar.",
        explanationHeading: "Explicación",
        sectionHeading: "Del consentimiento",
        tryAgain: "Intentarlo de nuevo",
        goOn: "Continuar",
        answer: "Responder",
        recordTitle: "Comprensión",
        understoodTemplate: "Respondida correctamente en el intento {attempt}.",
        missedTemplate: "No respondida correctamente tras {attempt} intentos.",
        answersGiven: "Respuestas dadas:",
        flaggedNote:
            "Una pregunta no se respondió correctamente: se pidió al personal que repasara el consentimiento con el "
            + "participante.")

    static let pdf = PDFBuiltInTexts(
        language: "es",
        participantMeaning: "Con su firma, el participante da su consentimiento para participar en este estudio de investigación.",
        witnessMeaning: "Con su firma, el testigo declara que el participante firmó este consentimiento en su presencia.",
        representativeMeaning:
            "Con su firma, el representante legal da su consentimiento, en nombre del participante, para que este "
            + "participe en este estudio de investigación.",
        relationshipCaption: "Relación con el participante:", onBehalfOfCaption: "Firma en nombre de:",
        dateAndTimeCaption: "Fecha y hora", meaningLabel: "Significado de esta firma:",
        pageFooterTemplate: "Página {page} de {count}", versionFooterTemplate: "Versión del estudio {version}",
        subject: "Consentimiento para la investigación",
        unsignedSubject: "Consentimiento para la investigación (vista previa sin firmar)",
        readingOnlyMark: "SIN FIRMAR: SOLO PARA LEER",
        readingCopySubject: "Consentimiento para la investigación (sin firmar, solo para leer)",
        approvalTemplate: "Aprobación del comité de ética {reference}", dateStyle: .dayMonthYearSlashes)
}
