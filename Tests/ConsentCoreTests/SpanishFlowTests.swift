import ConsentCore
import Foundation
import SampleStudy
import Testing

/// The sample study's Spanish consent through the core, from the start to the end screen: the kiosk's words from
/// `Languages/Spanish.swift`, the study's from its `es/` translation, nothing left in English.
@Suite struct SpanishFlowTests {
    static let strokes = SignatureStrokes(strokes: [[StrokePoint(x: 0.1, y: 0.5, t: 0, p: 0.4), StrokePoint(x: 0.6, y: 0.4, t: 120, p: 0.5)]])

    static func study() throws -> Study {
        let folder = try #require(SampleStudy.folder)
        return try #require(try Study.load(from: folder).inLanguage("es"))
    }

    @Test func theSampleStudyHasASpanishTranslationThatLoadsCleanly() throws {
        let study = try Self.study()
        #expect(study.language == "es" && study.warnings.isEmpty, "\(study.warnings)")
        #expect(study.texts == BuiltInTexts(language: "es") && study.texts.language == "es")
        #expect(study.title == "Estudio Heartbeat & Sleep")
        #expect(study.document.teamName == "el equipo de Heartbeat & Sleep")
        #expect(study.document.sections[1].title == "Recogida de datos", "the default title, in Spanish")
        #expect(study.document.sections[2].htmlContent?.contains("código de estudio") == true)
        #expect(study.eligibilityMessages.letsCheckMessage == "Veamos si puede participar en Heartbeat & Sleep")
        #expect(study.eligibilityMessages.ineligibleMessage == BuiltInTexts(language: "es").ineligibleMessage)
        #expect(study.options.reasonForConsent == BuiltInTexts(language: "es").signaturePageContent)
        #expect(study.sharingHTML?.contains("comité de ética") == true)
        #expect(study.files.filter { $0.hasPrefix("es/") }.count == 11)
    }

    @Test func aSpanishConsentIsSpanishOnEveryScreen() throws {
        let study = try Self.study()
        var s = ConsentSession(id: "f-es", study: study, now: .zero)
        #expect(s.viewModel.language == "es")
        #expect(s.viewModel.title == "Requisitos de participación")
        #expect(s.viewModel.eligibility?.questions.first == "¿Tiene 18 años o más?")
        #expect(s.viewModel.eligibility?.message == "Responda a cada pregunta y después toque «Confirmar respuestas».")
        #expect(s.viewModel.labels["answer"] == "Confirmar respuestas")
        #expect(s.viewModel.labels["answer.yes"] == "Sí" && s.viewModel.labels["answer.no"] == "No")
        try s.apply(.answerEligibility([true, true, false, true]), now: .seconds(1))
        #expect(s.viewModel.eligibility?.button == "Comenzar el consentimiento")
        #expect(s.viewModel.eligibility?.message
            == "Toque «Comenzar el consentimiento» para leer más sobre el estudio y dar su consentimiento.")
        try s.apply(.next(.eligibility), now: .seconds(2))
        #expect(s.viewModel.title == "Información clave")
        #expect(s.viewModel.keyInformation?.html.contains("Alternativas") == true)
        try s.apply(.next(.keyInformation), now: .seconds(2))
        #expect(s.viewModel.scene?.title == "Bienvenido a Heartbeat & Sleep")
        #expect(s.viewModel.scene?.learnMoreTitle == "Más información sobre el estudio")
        #expect(s.viewModel.labels["next"] == "Siguiente" && s.viewModel.labels["back"] == "Atrás")
        for _ in 0..<study.document.visualSections.count { try s.apply(.next(.visual), now: .seconds(3)) }
        let sharing = try #require(s.viewModel.sharing)
        #expect(sharing.choices.map(\.text) == [
            "Compartir mis datos con el equipo de Heartbeat & Sleep y con investigadores cualificados de todo el mundo",
            "Compartir mis datos solo con el equipo de Heartbeat & Sleep",
        ])
        try s.apply(.chooseSharing(shareWidely: true), now: .seconds(4))
        try s.apply(.answerOptional(["future-research": true, "contact-other-studies": false]), now: .seconds(4))
        #expect(s.viewModel.review?.html?.hasPrefix("<h1>Revisión</h1>") == true)
        #expect(s.viewModel.labels["agree"] == "Acepto" && s.viewModel.labels["disagree"] == "No acepto")
        try s.apply(.agree, now: .seconds(5))
        let check = try #require(s.viewModel.comprehension)
        #expect(s.viewModel.title == "Compruebe lo que ha entendido")
        #expect(check.progress == "Pregunta 1 de 3" && check.question == "¿Cuánto dura el estudio?")
        for question in s.comprehension.questions where s.step == .comprehension {
            try s.apply(.answerComprehension(question: question.index, choice: question.answer), now: .seconds(5))
        }
        #expect(s.viewModel.labels["setName"] != nil)
        try s.apply(.setName(given: "José", family: "Núñez Peña"), now: .seconds(6))
        #expect(s.viewModel.title == "Firma")
        #expect(s.viewModel.review?.signatureInstruction == "Firme con el dedo sobre la línea de abajo.")
        try s.apply(.submitSignature(Self.strokes), now: .seconds(7))
        #expect(s.step == .done)
        #expect(s.viewModel.end?.title == "Listo para finalizar")
        #expect(s.viewModel.end?.message == "Su consentimiento está completo. Toque «Finalizar» para guardarlo.")
        #expect(try s.outcome().friendlyName == "José Núñez Peña")
    }

    /// A day in a Spanish sentence is written as Spanish writes it (ICU), and the withdrawal text names it.
    @Test func theWithdrawalTextWritesTheDayInSpanish() throws {
        let day = ParticipantDateStyle(timeZone: try #require(TimeZone(identifier: "Europe/Madrid")))
            .text(Date(timeIntervalSince1970: 1_795_780_800), language: "es")  // 2026-11-27 12:00 UTC
        #expect(day == "27 de noviembre de 2026")
        #expect(BuiltInTexts(language: "es").withdrawalText(studyTitle: "Heartbeat & Sleep", signedOn: day).hasPrefix(
            "Va a retirar el consentimiento que dio el 27 de noviembre de 2026 para «Heartbeat & Sleep»."))
    }
}
