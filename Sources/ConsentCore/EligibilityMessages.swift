/// The texts of the eligibility screens, with the study intro config's overrides applied (docs/C3PRO.md).
public struct EligibilityMessages: Sendable, Hashable, Codable {
    public var letsCheckMessage: String
    public var eligibleTitle: String
    public var eligibleMessage: String
    public var ineligibleMessage: String

    public static let defaults = EligibilityMessages.defaults(in: .english)

    /// The built-in messages of a language.
    public static func defaults(in texts: BuiltInTexts) -> EligibilityMessages {
        EligibilityMessages(
            letsCheckMessage: texts.letsCheckMessage, eligibleTitle: texts.eligibleTitle,
            eligibleMessage: texts.eligibleMessage, ineligibleMessage: texts.ineligibleMessage)
    }

    /// The eligible screen's message as the view shows it: it names the button that leads on (`button`, the
    /// label of `next` there), because a UI draws that button wherever its layout puts it ("the button below" may
    /// not be below, nor the only one).
    ///
    /// `{button}` in the message is that label. A study's own message (its intro config's `eligibleMessage`)
    /// is used when it names the button, with `{button}` or the label itself; one that does not (C3-PRO's "Tap
    /// the button below…") gives way to the built-in message of `texts`, which does, and loading the study warns
    /// about it (`namesButton(_:button:)`).
    public func eligibleMessage(button: String, texts: BuiltInTexts) -> String {
        let own = Self.fill(eligibleMessage, button: button)
        return Self.namesButton(eligibleMessage, button: button) ? own : Self.fill(texts.eligibleMessage, button: button)
    }

    /// Whether a message names the button: it holds `{button}` or the label.
    public static func namesButton(_ message: String, button: String) -> Bool {
        message.contains("{button}") || (!button.isEmpty && message.contains(button))
    }

    private static func fill(_ message: String, button: String) -> String {
        Placeholder.fill(message, [.button: button])
    }

    public init(letsCheckMessage: String, eligibleTitle: String, eligibleMessage: String, ineligibleMessage: String) {
        self.letsCheckMessage = letsCheckMessage
        self.eligibleTitle = eligibleTitle
        self.eligibleMessage = eligibleMessage
        self.ineligibleMessage = ineligibleMessage
    }

    /// Applies the `eligibility` object of an intro config.
    ///
    /// C3 ignores the whole object when any of its values is not a string, and keeps the default for a missing
    /// key; so do we, and say so in a warning.
    /// - Returns: the messages and the warnings found.
    public static func from(
        introConfig: JSONValue?, file: String, texts: BuiltInTexts = .english
    ) -> (EligibilityMessages, [String]) {
        var messages = EligibilityMessages.defaults(in: texts)
        guard let eligibility = introConfig?["eligibility"] else { return (messages, []) }
        guard let members = eligibility.objectValue else {
            return (messages, ["\(file): \"eligibility\" is not an object; the default eligibility texts are used"])
        }
        if let bad = members.first(where: { $0.value.stringValue == nil }) {
            return (
                messages,
                ["\(file): eligibility.\(bad.key) is not a string, so the whole \"eligibility\" object is ignored"]
            )
        }
        if let s = members["letsCheckMessage"]?.stringValue { messages.letsCheckMessage = s }
        if let s = members["eligibleTitle"]?.stringValue { messages.eligibleTitle = s }
        if let s = members["eligibleMessage"]?.stringValue { messages.eligibleMessage = s }
        if let s = members["ineligibleMessage"]?.stringValue { messages.ineligibleMessage = s }
        return (messages, [])
    }
}
