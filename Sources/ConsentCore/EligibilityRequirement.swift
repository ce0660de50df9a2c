/// One eligibility question, made from a `Group.characteristic` (docs/C3PRO.md).
public struct EligibilityRequirement: Sendable, Hashable, Codable {
    /// The question (`characteristic.code.text`).
    public var question: String
    /// The answer a participant must give to be eligible: `valueBoolean (default true) != exclude`.
    public var mustBeMet: Bool

    public init(question: String, mustBeMet: Bool) {
        self.question = question
        self.mustBeMet = mustBeMet
    }
}

/// The outcome of evaluating eligibility answers.
public enum EligibilityStatus: String, Sendable, Hashable, Codable {
    case eligible
    case ineligible
    /// Some question before the first failing one is still unanswered.
    case incomplete
}

extension Array where Element == EligibilityRequirement {
    /// Evaluates answers in requirement order (docs/C3PRO.md): the first answered question whose answer differs from
    /// `mustBeMet` makes the participant ineligible, the first unanswered one leaves the result incomplete, and
    /// reaching the end means eligible. No requirements means eligible.
    ///
    /// - Parameter answers: one answer per requirement, by position; missing positions count as unanswered.
    public func evaluate(_ answers: [Bool?]) -> EligibilityStatus {
        for (index, requirement) in enumerated() {
            guard index < answers.count, let met = answers[index] else { return .incomplete }
            if met != requirement.mustBeMet { return .ineligible }
        }
        return .eligible
    }
}
