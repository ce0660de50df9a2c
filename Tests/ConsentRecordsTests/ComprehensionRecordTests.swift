import ConsentCore
import ConsentRecords
import ConsentSigning
import Crypto
import Foundation
import SampleStudy
import Testing

/// The comprehension check in the signed record: the QuestionnaireResponse file and Bundle entry, the manifest's
/// summary, the PDF's "Understanding" section, and verification that catches a changed answer.
@Suite struct ComprehensionRecordTests {
    /// A sample-study consent whose first question was missed once, then answered right.
    static func outcome(_ study: Study) throws -> ConsentOutcome {
        var s = ConsentSession(id: "f", study: study, now: .zero)
        try s.apply(.answerEligibility([true, true, false, true]), now: .seconds(1))
        try s.apply(.next(.eligibility), now: .seconds(1))
        try s.apply(.next(.keyInformation), now: .seconds(1))
        while s.step == .visual { try s.apply(.next(.visual), now: .seconds(1)) }
        try s.apply(.chooseSharing(shareWidely: true), now: .seconds(1))
        try s.apply(.answerOptional(["future-research": true, "contact-other-studies": false]), now: .seconds(1))
        try s.apply(.agree, now: .seconds(2))
        try s.apply(.answerComprehension(question: 0, choice: 0), now: .seconds(3))
        try s.apply(.next(.comprehension), now: .seconds(4))
        for question in s.comprehension.questions {
            try s.apply(.answerComprehension(question: question.index, choice: question.answer), now: .seconds(5))
        }
        try s.apply(.setName(given: "Ada", family: "Lovelace"), now: .seconds(6))
        try s.apply(.submitSignature(ConsentSessionStrokes.strokes), now: .seconds(7))
        return try s.outcome()
    }

    static func compose(_ study: Study) throws -> ComposedRecord {
        let composer = ConsentRecordComposer(
            signer: ConsentSigner(kiosk: KioskIdentity(id: "kiosk-test", signingKey: Curve25519.Signing.PrivateKey())))
        return try composer.compose(outcome: try outcome(study), study: study, signedAt: ConsentRecordComposerTests.signedAt)
    }

    @Test func theRecordHoldsTheAnswersAndAttemptsInTheQuestionnaireResponseBundleAndManifest() throws {
        let study = try Study.load(from: try #require(SampleStudy.folder))
        let record = try Self.compose(study).record
        let summary = try #require(record.manifest.comprehension)
        #expect(summary.questions.map(\.attempts) == [[0, 1], [1], [0]])
        #expect(summary.questions.map(\.correct) == [1, 1, 0] && summary.questions.map(\.section) == [3, 4, 6])
        #expect(summary.questions.allSatisfy(\.understood) && !summary.flaggedForStaff)
        #expect(summary.attemptsAllowed == 2 && summary.onRepeatedMiss == "continue")
        #expect(summary.file == "questionnaire-response.json")
        #expect(record.manifest.files.contains { $0.name == "questionnaire-response.json" })

        let response = try JSONValue.parse(try #require(record.file("questionnaire-response.json")))
        #expect(response["resourceType"] == "QuestionnaireResponse" && response["status"] == "completed")
        let first = try #require(response["item"]?[0])
        #expect(first["text"]?.stringValue == "How long does the study last?")
        let answers = try #require(first["item"]?[0]?["answer"]?.arrayValue)
        #expect(answers.map { $0["valueCoding"]?["code"]?.stringValue } == ["0", "1"])
        #expect(answers.map { $0["valueCoding"]?["display"]?.stringValue } == ["One night", "Four weeks"])
        #expect(first["item"]?[1]?["answer"]?[0]?["valueBoolean"] == true)
        #expect(first["item"]?[1]?["text"]?.stringValue == "Answered correctly on attempt 2.")
        #expect(response["item"]?.arrayValue?.count == 3)  // not flagged: no staff item

        let entries = try #require(record.bundle["entry"]?.arrayValue)
        let inBundle = try #require(entries.first { $0["resource"]?["resourceType"] == "QuestionnaireResponse" })
        #expect(inBundle["request"]?["method"] == "POST" && inBundle["resource"]?["item"] == response["item"])
        #expect(inBundle["resource"]?["subject"]?["reference"] == response["subject"]?["reference"])
    }

    @Test func thePDFHasAShortUnderstandingSection() throws {
        let sample = try Study.load(from: try #require(SampleStudy.folder))
        let study = try #require(sample.inLanguage("fr"))
        let composed = try Self.compose(study)
        let text = try GermanSignersTests.text(ofPDF: composed.pdf).replacing(/\s+/, with: " ")
        let texts = ComprehensionTexts.french
        for expected in [
            texts.recordTitle, "1. Combien de temps dure l’étude ?", texts.understood(attempt: 2), texts.understood(attempt: 1),
            "\u{201C}Une nuit\u{201D}, \u{201C}Quatre semaines\u{201D}",
        ] {
            #expect(text.contains(expected), "missing \(expected)")
        }
        // On the signature page, before the signature page's own title.
        let understanding = try #require(text.range(of: texts.recordTitle))
        let signaturePage = try #require(text.range(of: study.document.signaturePageTitle, range: understanding.upperBound..<text.endIndex))
        #expect(understanding.upperBound <= signaturePage.lowerBound)
    }

    @Test func verificationPassesAndCatchesAChangedAnswer() throws {
        let study = try Study.load(from: try #require(SampleStudy.folder))
        let record = try Self.compose(study).record
        var files = Dictionary(uniqueKeysWithValues: record.files.map { ($0.name, $0.contents) })
        #expect(RecordVerifier.verify(.inMemory(files)).isIntact)
        let original = try #require(files["questionnaire-response.json"])
        // The first wrong answer made to look right: its display becomes the correct choice's.
        let tampered = String(decoding: original, as: UTF8.self).replacingOccurrences(of: "One night", with: "Four weeks")
        #expect(Data(tampered.utf8) != original)
        files["questionnaire-response.json"] = Data(tampered.utf8)
        let report = RecordVerifier.verify(.inMemory(files))
        #expect(!report.isIntact)
        #expect(report.findings.contains { $0.file == "questionnaire-response.json" }, "\(report.findings)")
    }

    @Test func aStudyWithoutQuestionsWritesNoQuestionnaireResponse() throws {
        var study = try Study.load(from: try #require(SampleStudy.folder))
        study.document.comprehension = []
        var s = ConsentSession(id: "f", study: study, now: .zero)
        try s.apply(.answerEligibility([true, true, false, true]), now: .seconds(1))
        try s.apply(.next(.eligibility), now: .seconds(1))
        try s.apply(.next(.keyInformation), now: .seconds(1))
        while s.step == .visual { try s.apply(.next(.visual), now: .seconds(1)) }
        try s.apply(.chooseSharing(shareWidely: true), now: .seconds(1))
        try s.apply(.answerOptional(["future-research": true, "contact-other-studies": false]), now: .seconds(1))
        try s.apply(.agree, now: .seconds(2))
        #expect(s.reviewPage == .name)
        try s.apply(.setName(given: "Ada", family: "Lovelace"), now: .seconds(6))
        try s.apply(.submitSignature(ConsentSessionStrokes.strokes), now: .seconds(7))
        let composer = ConsentRecordComposer(
            signer: ConsentSigner(kiosk: KioskIdentity(id: "kiosk-test", signingKey: Curve25519.Signing.PrivateKey())))
        let record = try composer.compose(outcome: try s.outcome(), study: study, signedAt: ConsentRecordComposerTests.signedAt).record
        #expect(record.file("questionnaire-response.json") == nil && record.manifest.comprehension == nil)
        #expect(record.bundle["entry"]?.arrayValue?.contains { $0["resource"]?["resourceType"] == "QuestionnaireResponse" } == false)
    }
}

enum ConsentSessionStrokes {
    static let strokes = SignatureStrokes(strokes: [
        [StrokePoint(x: 0.1, y: 0.5, t: 0, p: 0.4), StrokePoint(x: 0.6, y: 0.4, t: 120, p: 0.5)]
    ])
}
