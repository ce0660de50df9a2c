import ConsentCore
import Foundation

/// The comprehension check in a record: the R4 `QuestionnaireResponse` (its own file and an entry of the Bundle)
/// and the manifest's summary (`RecordManifest.comprehension`), both made from the flow's `ComprehensionOutcome`.
///
/// Each question is a group item (R4's qrs-1 allows an item an answer or sub-items, not both) holding the answers
/// given, in order, as codings of the choice's 0-based index with its text, and whether the last one was right.
enum ComprehensionRecord {
    /// The code system of a choice: its 0-based index among the question's choices.
    static let choiceSystem = "urn:consent-kiosk:comprehension-choice"

    static func questionnaireResponse(
        _ outcome: ComprehensionOutcome, recordID: String, patientReference: String, signedAt: Date, language: String
    ) -> JSONValue {
        let texts = ComprehensionTexts(language: language)
        var items: [JSONValue] = outcome.results.map { (result: ComprehensionResult) -> JSONValue in
            let question = result.question
            let linkID = "comprehension-\(question.index + 1)"
            let answers: [JSONValue] = result.attempts.map { (choice: Int) -> JSONValue in
                let display = question.choices.indices.contains(choice) ? question.choices[choice] : ""
                return ["valueCoding": ["system": .string(choiceSystem), "code": .string("\(choice)"), "display": .string(display)]]
            }
            let verdict = result.understood
                ? texts.understood(attempt: result.attempts.count) : texts.missed(attempts: result.attempts.count)
            return [
                "linkId": .string(linkID), "text": .string(question.question),
                "item": [
                    ["linkId": .string("\(linkID).answers"), "text": .string(texts.answersGiven), "answer": .array(answers)],
                    ["linkId": .string("\(linkID).understood"), "text": .string(verdict),
                     "answer": [["valueBoolean": .bool(result.understood)]]],
                ],
            ]
        }
        if outcome.flaggedForStaff {
            items.append(["linkId": "comprehension.flaggedForStaff", "text": .string(texts.flaggedNote), "answer": [["valueBoolean": true]]])
        }
        return [
            "resourceType": "QuestionnaireResponse",
            "language": .string(language),
            "identifier": ["system": .string(FHIRCodes.recordIdentifierSystem), "value": .string(recordID)],
            "status": "completed",
            "subject": ["reference": .string(patientReference)],
            "authored": .string(FHIRTime.instant(signedAt)),
            "item": .array(items),
        ]
    }

    static func summary(_ outcome: ComprehensionOutcome) -> RecordManifest.Comprehension {
        RecordManifest.Comprehension(
            file: RecordFileName.questionnaireResponse, attemptsAllowed: outcome.policy.attempts,
            onRepeatedMiss: outcome.policy.onRepeatedMiss.rawValue, flaggedForStaff: outcome.flaggedForStaff,
            questions: outcome.results.map {
                .init(
                    section: $0.question.termIndex, keyInformation: $0.question.subject == .keyInformation ? true : nil,
                    correct: $0.question.answer, attempts: $0.attempts, understood: $0.understood)
            })
    }
}

extension RecordManifest {
    /// The comprehension check's answers and attempts (the flow's `ComprehensionOutcome`); the questions' texts
    /// are in `file` (the QuestionnaireResponse) and the study version.
    public struct Comprehension: Sendable, Hashable, Codable {
        public struct Question: Sendable, Hashable, Codable {
            /// The term the question is about (0-based index in `Contract.term`); nil when it is about the key
            /// information (`keyInformation` true).
            public var section: Int?
            public var keyInformation: Bool?
            /// The correct choice (0-based).
            public var correct: Int
            /// Every choice given, in order (0-based).
            public var attempts: [Int]
            public var understood: Bool
        }

        public var file: String
        public var attemptsAllowed: Int
        /// `continue` or `stop` (options.json `comprehension.onRepeatedMiss`).
        public var onRepeatedMiss: String
        /// A question was missed on every attempt: the staff should go over the consent with the participant.
        public var flaggedForStaff: Bool
        public var questions: [Question]
    }
}
