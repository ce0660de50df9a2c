import ConsentCore
import ConsentPDF
import ConsentRecords
import ConsentSigning
import Crypto
import Foundation
import SampleStudy
import Testing

/// The signer pages and signer blocks speak the flow's language: a German consent signed by a representative with
/// a witness shows the German texts in every view model and prints them in the PDF.
@Suite struct GermanSignersTests {
    static let witnessStrokes = SignatureStrokes(strokes: [
        [StrokePoint(x: 0.2, y: 0.2, t: 0, p: nil), StrokePoint(x: 0.8, y: 0.3, t: 90, p: nil)]
    ])

    /// The PDF's text in reading order (no -layout: the signer blocks' captions stay whole).
    static func text(ofPDF pdf: Data) throws -> String {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("signers-\(UUID().uuidString).pdf")
        try pdf.write(to: url)
        defer { try? FileManager.default.removeItem(at: url) }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/pdftotext")
        process.arguments = [url.path, "-"]
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return String(decoding: data, as: UTF8.self)
    }

    @Test func germanFlowWithRepresentativeAndWitnessIsGermanInViewsAndPDF() throws {
        let sample = try Study.load(from: try #require(SampleStudy.folder))
        var study = try #require(sample.inLanguage("de"))
        study.options.requireWitness = true
        study.options.allowRepresentative = true
        study.options.askToCreatePasscode = false
        let de = BuiltInTexts.german
        let english = BuiltInTexts.english

        var s = ConsentSession(id: "f", study: study, now: .zero)
        try s.apply(.answerEligibility([true, true, false, true]), now: .seconds(1))
        try s.apply(.next(.eligibility), now: .seconds(2))
        #expect(s.viewModel.title == "Wichtige Informationen")
        try s.apply(.next(.keyInformation), now: .seconds(2))
        for _ in 0..<s.study.document.visualSections.count { try s.apply(.next(.visual), now: .seconds(3)) }
        try s.apply(.chooseSharing(shareWidely: true), now: .seconds(4))
        try s.apply(.answerOptional(["future-research": true, "contact-other-studies": false]), now: .seconds(4))
        try s.apply(.agree, now: .seconds(5))
        for question in s.comprehension.questions {
            try s.apply(.answerComprehension(question: question.index, choice: question.answer), now: .seconds(5))
        }

        // Who signs.
        #expect(s.reviewPage == .signer)
        #expect(s.viewModel.language == "de" && s.viewModel.title == "Wer unterschreibt?")
        #expect(s.viewModel.review?.signerChoices?.map(\.text) == [
            "Ich bin die teilnehmende Person und unterschreibe für mich selbst",
            "Ich bin die gesetzliche Vertretung der teilnehmenden Person und unterschreibe in ihrem Namen",
        ])
        try s.apply(.chooseSigner(.representative), now: .seconds(6))
        #expect(s.viewModel.title == "Name der teilnehmenden Person")
        #expect(s.viewModel.review?.givenNameLabel == de.givenNameLabel)
        try s.apply(.setName(given: "Jürgen", family: "Weiß"), now: .seconds(7))

        // The representative, with the relationships in German and their v3 RoleCode codes unchanged.
        #expect(s.reviewPage == .representative)
        #expect(s.viewModel.title == "Gesetzliche Vertretung")
        let page = try #require(s.viewModel.review)
        #expect(page.relationshipLabel == "Beziehung zur teilnehmenden Person")
        let relationships = try #require(page.relationships)
        #expect(relationships.map(\.code) == RepresentativeRelationship.defaults.map(\.code))
        #expect(relationships.first { $0.code == "PRN" }?.display == "Elternteil")
        #expect(relationships.first { $0.code == "GUARD" }?.display == "Gesetzliche Betreuung/Vormund (gerichtlich bestellt)")
        #expect(relationships.first { $0.code == "POWATT" }?.display == "Vorsorgevollmacht")
        try s.apply(.setSignerName(.representative, given: "Anna", family: "Weiß", relationship: "PRN"), now: .seconds(8))
        #expect(s.viewModel.review?.signatureInstruction
            == "Bitte unterschreiben Sie als gesetzliche Vertretung der teilnehmenden Person mit dem Finger auf der Linie unten.")
        try s.apply(.submitSignature(ConsentRecordComposerTests.strokes), now: .seconds(9))

        // The witness.
        #expect(s.reviewPage == .witness)
        #expect(s.viewModel.title == "Zeuge/Zeugin")
        #expect(s.viewModel.review?.text == "Ein Zeuge/eine Zeugin bestätigt, die Unterzeichnung der Einwilligung gesehen zu haben.")
        try s.apply(.setSignerName(.witness, given: "Grete", family: "Schulz", relationship: nil), now: .seconds(10))
        #expect(s.viewModel.title == "Unterschrift des Zeugen/der Zeugin")
        #expect(s.viewModel.review?.signatureInstruction
            == "Zeuge/Zeugin: Bitte unterschreiben Sie mit dem Finger auf der Linie unten.")
        try s.apply(.submitSignature(Self.witnessStrokes), now: .seconds(11))
        #expect(s.step == .done)

        // The record's relationship is the one shown; the PDF prints German captions for every signer.
        let outcome = try s.outcome()
        #expect(outcome.representative?.relationship.display == "Elternteil")
        #expect(outcome.representative?.relationship.code == "PRN")
        let composer = ConsentRecordComposer(
            signer: ConsentSigner(kiosk: KioskIdentity(id: "kiosk-test", signingKey: Curve25519.Signing.PrivateKey())))
        let pdf = try #require(
            composer.compose(outcome: outcome, study: study, signedAt: ConsentRecordComposerTests.signedAt)
                .record.file("consent.pdf"))
        let text = try Self.text(ofPDF: pdf).replacing(/\s+/, with: " ")
        for expected in [
            "Beziehung zur teilnehmenden Person: Elternteil", "Unterschreibt im Namen von: Jürgen Weiß",
            de.signatureCaption(role: "Gesetzliche Vertretung"), de.signatureCaption(role: "Zeuge/Zeugin"),
            "Anna Weiß", "Grete Schulz",
        ] {
            #expect(text.contains(expected), "missing \(expected)")
        }
        for unexpected in [
            "Relationship to the participant", "Signing on behalf of", english.representativeRole, english.witnessRole,
            PDFBuiltInTexts.english.witnessMeaning, PDFBuiltInTexts.english.representativeMeaning,
        ] {
            #expect(!text.contains(unexpected), "English \(unexpected)")
        }
    }

    @Test func everyTableTranslatesTheSignerAndWithdrawalTexts() {
        // French keeps "Parent" and "Signature" as English spells them; every other signer text differs.
        for texts in [BuiltInTexts.german, .french] {
            let english = BuiltInTexts.english
            #expect(texts.signerTitle != english.signerTitle)
            #expect(texts.witnessSignatureInstruction != english.witnessSignatureInstruction)
            #expect(texts.withdrawalTitle != english.withdrawalTitle)
            #expect(texts.changesText != english.changesText)
            let withdrawal = texts.withdrawalText(studyTitle: "Heartbeat", signedOn: "2026-09-01")
            #expect(withdrawal.contains("Heartbeat") && withdrawal.contains("2026-09-01") && !withdrawal.contains("{"))
            let document = texts.withdrawalDocumentText(studyTitle: "Heartbeat", signedOn: "2026-09-01", record: "r-1")
            #expect(document.contains("r-1") && !document.contains("{"))
        }
        #expect(BuiltInTexts.french.relationshipDisplay(code: "GUARD") == "Tuteur légal (désigné par le tribunal)")
        #expect(BuiltInTexts.german.relationshipDisplay(code: "XYZ") == nil)
        #expect(PDFBuiltInTexts.french.onBehalfOfCaption == "Signe au nom de :")
        // English is unchanged: the words ResearchKit's consent would say.
        #expect(BuiltInTexts.english.withdrawalText(studyTitle: "S", signedOn: "D")
            == "You are withdrawing the consent you gave to \u{201C}S\u{201D} on D. "
            + "You may tell us why; you do not have to. Then give your name and sign to confirm.")
    }
}
