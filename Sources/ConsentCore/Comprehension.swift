/// One question a study asks to check that the participant understood its consent (docs/C3PRO.md, section 3a):
/// a Contract extension of this project, since C3-PRO has no quiz. Texts are in the Contract's language; each
/// translation's Contract carries its own, with the same correct choice and section.
public struct ComprehensionQuestion: Sendable, Hashable {
    /// What a question is about, shown again after a wrong answer: a section, or the key information the consent
    /// begins with (`KeyInformation`).
    public enum Subject: Sendable, Hashable {
        /// The 0-based index in `Contract.term` of a section with HTML.
        case term(Int)
        /// `{"url": "section", "valueString": "keyInformation"}`.
        case keyInformation

        /// The `valueString` that names the key information.
        public static let keyInformationName = "keyInformation"
    }

    /// The Contract extension that holds one question (`Contract.extension[]`).
    public static let extensionURL = "urn:consent-kiosk:comprehension-question"

    /// The position among the study's valid questions (0-based).
    public var index: Int
    public var question: String
    /// The choices, in the order shown; at least two.
    public var choices: [String]
    /// The index of the correct choice (0-based).
    public var answer: Int
    /// Shown after a wrong answer, with the section again.
    public var explanation: String
    /// What the question is about: a term (0-based index in `Contract.term`) whose section has HTML, or the key
    /// information.
    public var subject: Subject

    public init(index: Int, question: String, choices: [String], answer: Int, explanation: String, subject: Subject) {
        self.index = index
        self.question = question
        self.choices = choices
        self.answer = answer
        self.explanation = explanation
        self.subject = subject
    }

    /// The term the question is about; nil for the key information.
    public var termIndex: Int? {
        if case .term(let index) = subject { return index }
        return nil
    }
}

/// What the flow does when a question was missed `attempts` times (options.json `comprehension`).
public struct ComprehensionPolicy: Sendable, Hashable {
    public enum OnRepeatedMiss: String, Sendable, Hashable, Codable {
        /// Go on to the next question; the record is flagged for the staff to go over the consent again.
        case `continue`
        /// Stop before the name and signature: the screen asks the participant to call a member of staff.
        case stop
    }

    /// How many answers a participant may give to one question (the first and the retries); 1 to 5.
    public var attempts = 2
    public var onRepeatedMiss = OnRepeatedMiss.continue

    public init(attempts: Int = 2, onRepeatedMiss: OnRepeatedMiss = .continue) {
        self.attempts = attempts
        self.onRepeatedMiss = onRepeatedMiss
    }

    public static let attemptRange = 1...5

    /// Reads `{"attempts": 2, "onRepeatedMiss": "continue"}`.
    ///
    /// - Throws: `.invalidConfiguration` naming the member for anything else.
    static func from(json value: JSONValue, file: String) throws -> ComprehensionPolicy {
        let example = "{\"attempts\": 2, \"onRepeatedMiss\": \"continue\"}"
        guard let members = value.objectValue else {
            throw ConsentCoreError(.invalidConfiguration, "option \"comprehension\" must be an object such as \(example)", file: file)
        }
        if let unknown = members.keys.sorted().first(where: { !["attempts", "onRepeatedMiss"].contains($0) }) {
            throw ConsentCoreError(
                .invalidConfiguration,
                "option \"comprehension\" has the unknown member \"\(unknown)\"; it takes attempts and onRepeatedMiss", file: file)
        }
        var policy = ComprehensionPolicy()
        if let attempts = members["attempts"] {
            guard case .integer(let n) = attempts, attemptRange.contains(Int(clamping: n)) else {
                throw ConsentCoreError(
                    .invalidConfiguration,
                    "comprehension.attempts must be a whole number from \(attemptRange.lowerBound) to \(attemptRange.upperBound)",
                    file: file)
            }
            policy.attempts = Int(n)
        }
        if let miss = members["onRepeatedMiss"] {
            guard let text = miss.stringValue, let parsed = OnRepeatedMiss(rawValue: text) else {
                throw ConsentCoreError(
                    .invalidConfiguration, "comprehension.onRepeatedMiss must be \"continue\" or \"stop\"", file: file)
            }
            policy.onRepeatedMiss = parsed
        }
        return policy
    }
}

/// What one question of the check collected: every choice given, in order, and whether the last one was right.
public struct ComprehensionResult: Sendable, Hashable {
    public var question: ComprehensionQuestion
    /// The chosen indices, in the order given (0-based).
    public var attempts: [Int]

    public init(question: ComprehensionQuestion, attempts: [Int]) {
        self.question = question
        self.attempts = attempts
    }

    /// Whether the participant ended on the correct choice.
    public var understood: Bool { attempts.last == question.answer }
}

/// The comprehension check of a finished flow, as the record keeps it.
public struct ComprehensionOutcome: Sendable, Hashable {
    public var results: [ComprehensionResult]
    public var policy: ComprehensionPolicy

    public init(results: [ComprehensionResult], policy: ComprehensionPolicy) {
        self.results = results
        self.policy = policy
    }

    /// Set when a question was missed on every attempt and the study lets the flow continue: the staff should go
    /// over the consent with the participant.
    public var flaggedForStaff: Bool { results.contains { !$0.understood } }
}

/// Reads the questions of a Contract (`ContractConverter`).
enum ComprehensionReader {
    /// The valid questions, in extension order, and a diagnostic for each one left out.
    static func questions(
        in contract: JSONValue, sections: [ConsentSection], hasKeyInformation: Bool = false, contractName: String
    ) -> (questions: [ComprehensionQuestion], diagnostics: [StudyDiagnostic]) {
        var questions: [ComprehensionQuestion] = []
        var diagnostics: [StudyDiagnostic] = []
        let extensions = contract["extension"]?.arrayValue ?? []
        var position = 0
        for (index, item) in extensions.enumerated() where item["url"]?.stringValue == ComprehensionQuestion.extensionURL {
            defer { position += 1 }
            let location = "extension[\(index)]"
            func invalid(_ message: String) {
                diagnostics.append(
                    .error(
                        .comprehensionInvalid, file: contractName, location: location,
                        "comprehension question \(position + 1) is left out: \(message)"))
            }
            var question: String?
            var choices: [String] = []
            var answer: Int?
            var explanation: String?
            var subject: ComprehensionQuestion.Subject?
            var problem: String?
            for entry in item["extension"]?.arrayValue ?? [] {
                let url = entry["url"]?.stringValue ?? ""
                switch url {
                case "question", "choice", "explanation":
                    guard let text = entry["valueString"]?.stringValue, !text.allSatisfy(\.isWhitespace) else {
                        problem = problem ?? "its \"\(url)\" needs a non-empty valueString"
                        continue
                    }
                    if url == "question" { question = text } else if url == "choice" { choices.append(text) } else { explanation = text }
                case "section" where entry["valueString"] != nil:
                    guard entry["valueString"]?.stringValue == ComprehensionQuestion.Subject.keyInformationName else {
                        problem = problem ?? "its \"section\" valueString may only be \"keyInformation\" (else a valueInteger: the term)"
                        continue
                    }
                    subject = .keyInformation
                case "answer", "section":
                    guard case .integer(let n)? = entry["valueInteger"], n >= 0, n <= Int64(Int32.max) else {
                        problem = problem ?? "its \"\(url)\" needs a valueInteger of 0 or more (0-based)"
                        continue
                    }
                    if url == "answer" { answer = Int(n) } else { subject = .term(Int(n)) }
                default:
                    problem = problem ?? "unknown member \"\(url)\" (it takes question, choice, answer, explanation, section)"
                }
            }
            if let problem { invalid(problem); continue }
            guard let question else { invalid("it has no \"question\""); continue }
            guard choices.count >= 2 else { invalid("it needs at least two \"choice\" entries, found \(choices.count)"); continue }
            guard let answer else { invalid("it has no \"answer\" (the 0-based index of the correct choice)"); continue }
            guard answer < choices.count else {
                invalid("its answer \(answer) is not the index of one of its \(choices.count) choices (0 to \(choices.count - 1))")
                continue
            }
            guard let explanation else { invalid("it has no \"explanation\" (shown after a wrong answer)"); continue }
            switch subject {
            case nil:
                invalid("it has no \"section\" (the 0-based index of the term it is about, or \"keyInformation\")")
                continue
            case .keyInformation:
                guard hasKeyInformation else {
                    invalid("it is about the key information, which the study does not have (\(KeyInformation.extensionURL))")
                    continue
                }
            case .term(let term):
                guard let section = sections.first(where: { $0.termIndex == term }) else {
                    invalid("its section \(term) names no section (term[\(term)] does not exist or was skipped)")
                    continue
                }
                guard section.isInDocument else {
                    invalid("its section \(term) has no HTML, so there is no text to show again after a wrong answer")
                    continue
                }
            }
            guard let subject else { continue }
            questions.append(
                ComprehensionQuestion(
                    index: questions.count, question: question, choices: choices, answer: answer, explanation: explanation,
                    subject: subject))
        }
        return (questions, diagnostics)
    }

    /// What a translation's questions must share with the default language's: their number, and each one's number
    /// of choices, correct choice and section. Only the texts differ.
    static func translationDiagnostics(
        _ translated: [ComprehensionQuestion], of base: [ComprehensionQuestion], language: String, contractFile: String
    ) -> [StudyDiagnostic] {
        guard !base.isEmpty || !translated.isEmpty else { return [] }
        if translated.isEmpty {
            return [
                .error(
                    .comprehensionUntranslated, file: contractFile, location: "extension",
                    "\(language): the comprehension questions are not translated (add the \(base.count) "
                        + "\(ComprehensionQuestion.extensionURL) extensions to \(contractFile)); this language's flow has no check")
            ]
        }
        guard translated.count == base.count else {
            return [
                .error(
                    .comprehensionUntranslated, file: contractFile, location: "extension",
                    "\(language): \(translated.count) comprehension questions, but the default language has \(base.count); "
                        + "every language asks the same questions")
            ]
        }
        var diagnostics: [StudyDiagnostic] = []
        for (ours, theirs) in zip(translated, base)
        where ours.choices.count != theirs.choices.count || ours.answer != theirs.answer || ours.subject != theirs.subject {
            diagnostics.append(
                .error(
                    .comprehensionUntranslated, file: contractFile, location: "extension",
                    "\(language): comprehension question \(ours.index + 1) differs from the default language's in its "
                        + "number of choices, its answer or its section; a translation changes only the texts"))
        }
        return diagnostics
    }
}

/// Where a flow is in its comprehension check: the question asked, every answer given so far, and whether the
/// screen shows the question, the explanation after a miss, or the request to call the staff.
///
/// A pure value the session drives (`ConsentSession`); it never leaves the check by itself, it says when it is
/// complete.
public struct ComprehensionProgress: Sendable, Hashable {
    public enum Phase: String, Sendable, Hashable, Codable {
        /// The question and its choices.
        case question
        /// After a wrong answer: the explanation and the section again; `next` asks again (or goes on, once the
        /// attempts are used up and the study continues).
        case explanation
        /// The attempts are used up and the study stops: the participant is asked to call a member of staff.
        case stopped
    }

    public let questions: [ComprehensionQuestion]
    public let policy: ComprehensionPolicy
    /// The question asked (an index into `questions`); `questions.count` once the check is complete.
    public private(set) var index = 0
    /// The choices given to each question, in order.
    public private(set) var attempts: [[Int]]
    public private(set) var phase = Phase.question

    public init(questions: [ComprehensionQuestion], policy: ComprehensionPolicy) {
        self.questions = questions
        self.policy = policy
        self.attempts = Array(repeating: [], count: questions.count)
    }

    /// Whether every question was answered correctly or missed on every attempt (and the study continues).
    public var isComplete: Bool { index >= questions.count }

    /// The question on screen; nil once the check is complete.
    public var current: ComprehensionQuestion? { questions.indices.contains(index) ? questions[index] : nil }

    /// How many answers the current question still takes after those given.
    public var attemptsLeft: Int { max(0, policy.attempts - (attempts.indices.contains(index) ? attempts[index].count : 0)) }

    /// Records a choice for the question on screen.
    ///
    /// - Throws: `.stepMismatch` when the screen shows no question or another one than `question` (a stale
    ///   tap), `.invalidField` for a choice the question does not have.
    mutating func answer(question: Int, choice: Int) throws {
        guard phase == .question, let current else {
            throw ConsentCoreError(
                .stepMismatch,
                phase == .stopped
                    ? "the comprehension check has stopped; a member of staff goes on from here"
                    : "the comprehension screen shows the explanation; go on with next to be asked again")
        }
        guard question == current.index else {
            throw ConsentCoreError(.stepMismatch, "the flow asks comprehension question \(current.index), not \(question)")
        }
        guard current.choices.indices.contains(choice) else {
            throw ConsentCoreError(
                .invalidField, "choice must be the 0-based index of one of the \(current.choices.count) choices")
        }
        attempts[index].append(choice)
        if choice == current.answer {
            advance()
        } else if attemptsLeft == 0, policy.onRepeatedMiss == .stop {
            phase = .stopped
        } else {
            phase = .explanation
        }
    }

    /// Leaves the explanation: asks the question again, or goes on to the next one when its attempts are used up.
    ///
    /// - Throws: `.invalidAction` unless the explanation is on screen.
    mutating func next() throws {
        guard phase == .explanation else {
            throw ConsentCoreError(
                .invalidAction,
                phase == .stopped
                    ? "the comprehension check has stopped; a member of staff goes on from here"
                    : "answer the question to go on")
        }
        if attemptsLeft > 0 { phase = .question } else { advance() }
    }

    /// Forgets every answer (a flow that ends without a record).
    mutating func wipe() {
        attempts = attempts.map { _ in [] }
        index = 0
        phase = .question
    }

    /// The questions answered so far (right, or missed on every attempt), with their answers.
    public var results: [ComprehensionResult] {
        zip(questions.prefix(index), attempts).map { ComprehensionResult(question: $0, attempts: $1) }
    }

    /// What the record keeps, once the check is complete.
    public var outcome: ComprehensionOutcome? {
        guard isComplete, !questions.isEmpty else { return nil }
        return ComprehensionOutcome(
            results: zip(questions, attempts).map { ComprehensionResult(question: $0, attempts: $1) }, policy: policy)
    }

    private mutating func advance() {
        index += 1
        phase = .question
    }
}
