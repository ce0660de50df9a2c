import ConsentCore

extension ConsentSession {
    /// Agrees to the review document, then answers every comprehension question of the study right: what a
    /// participant who understood does between the document and the name (nothing more for a study without
    /// questions).
    mutating func agreeAndUnderstand(now: Duration) throws {
        try apply(.agree, now: now)
        for question in comprehension.questions where step == .comprehension {
            try apply(.answerComprehension(question: question.index, choice: question.answer), now: now)
        }
    }
}
