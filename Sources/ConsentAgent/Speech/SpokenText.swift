import ConsentCore

/// What read-aloud speaks of a screen, taken from the view model the UI shows (`AgentCore.view`), so a step the
/// view model gains later is spoken without a line here.
///
/// The screen (`part: screen`) is the view's title, then every text of its step part (the part's `heading`, `title`,
/// `text`, `message` and `summary` first, then its other texts in the order the part declares them: questions,
/// choices, field labels...), then the labels of the actions it offers. Identifiers (record numbers, asset names,
/// pad ids, codes), dates in ISO form and every HTML page are not part of it (but a paused flow's resume code is,
/// spelled out first: it is that screen's whole point): a page is its own part (`learnMore`,
/// `document` section by section: the review document's, or the key information's). The view model never holds the participant's name, passcode, answers or reason
/// (only whether they were given), so none of them can be spoken.
enum SpokenText {
    /// Text-valued members of a view model that are identifiers or machine forms, never words for a person.
    static let unspoken: Set<String> = [
        "language", "studyTitle", "record", "previousRecord", "signedOn", "image", "animation", "pad", "code",
        "placeholder", "source", "button", "id", "reason", "expires",
    ]
    /// Members read first within a part, in this order: what a person reads first on the screen.
    static let leading = ["heading", "title", "text", "message", "summary"]

    /// The screen's words, one per sentence-like line.
    static func screen(_ view: StepViewModel) -> String {
        var lines: [String] = []
        var seen: Set<String> = []
        func say(_ text: String) {
            let words = sentence(text)
            guard !words.isEmpty, seen.insert(words).inserted else { return }
            lines.append(words)
        }
        say(view.title)
        // A paused flow's code is what the participant must take away, so it comes first, as on the screen, and
        // letter by letter: a person who cannot read the screen has no other way to learn it.
        if let paused = view.paused {
            say(paused.codeLabel)
            say(spelled(paused.code))
        }
        for child in Mirror(reflecting: view).children {
            guard let key = child.label, key != "labels" else { continue }
            // The step part: the one struct-valued member that is present (`StepViewModel.part(for:)`).
            guard let part = unwrap(child.value), Mirror(reflecting: part).displayStyle == .struct else { continue }
            collect(part, into: say)
        }
        for action in view.actions {
            if action == .answer {
                for key in ["answer.yes", "answer.no"] { if let label = view.labels[key] { say(label) } }
            }
            if action == .optionalAnswer {
                for key in ["optionalAnswer.yes", "optionalAnswer.no"] { if let label = view.labels[key] { say(label) } }
            }
            if let label = view.labels[action.rawValue] { say(label) }
        }
        return lines.joined(separator: "\n")
    }

    /// The first learn-more page of the view (a scene's or the sharing step's), as text; nil when it has none.
    static func learnMore(_ view: StepViewModel) -> String? {
        guard let html = firstHTML(in: view, named: { $0.hasPrefix("learnMore") && $0.hasSuffix("HTML") }) else {
            return nil
        }
        let text = SpeakableHTML.blocks(html).map(\.text).joined(separator: "\n")
        return text.isEmpty ? nil : text
    }

    /// The sections of the document the screen shows whole (`review.html`, or the key information's page): each
    /// heading starts one, with the text up to the next heading; nil when the view has no such document.
    static func documentSections(_ view: StepViewModel) -> [String]? {
        guard let html = view.review?.html ?? view.keyInformation?.html else { return nil }
        return SpeakableHTML.sections(html)
    }

    // MARK: Walking the view model

    private static func collect(_ value: Any, into say: (String) -> Void) {
        let children = Mirror(reflecting: value).children.compactMap { child -> (String, Any)? in
            guard let key = child.label, !unspoken.contains(key), !key.lowercased().hasSuffix("html") else { return nil }
            return (key, child.value)
        }
        let first = leading.compactMap { name in children.first { $0.0 == name } }
        let rest = children.filter { !leading.contains($0.0) }
        for (_, member) in first + rest { speakValue(member, into: say) }
    }

    private static func speakValue(_ value: Any, into say: (String) -> Void) {
        guard let value = unwrap(value) else { return }
        if let text = value as? String { return say(text) }
        let mirror = Mirror(reflecting: value)
        switch mirror.displayStyle {
        case .collection?: for element in mirror.children { speakValue(element.value, into: say) }
        case .struct?: collect(value, into: say)
        // Numbers, flags and enums (steps, pages, roles) are states, not words; dictionaries are keyed data.
        default: return
        }
    }

    /// The value inside an optional (nil when absent), or the value itself.
    private static func unwrap(_ value: Any) -> Any? {
        let mirror = Mirror(reflecting: value)
        guard mirror.displayStyle == .optional else { return value }
        guard let inner = mirror.children.first else { return nil }
        return unwrap(inner.value)
    }

    private static func firstHTML(in value: Any, named matches: (String) -> Bool) -> String? {
        for child in Mirror(reflecting: value).children {
            guard let key = child.label, let member = unwrap(child.value) else { continue }
            if matches(key), let html = member as? String, !html.isEmpty { return html }
            if Mirror(reflecting: member).displayStyle == .struct, let found = firstHTML(in: member, named: matches) {
                return found
            }
        }
        return nil
    }

    /// A code as its characters one by one, in its groups: "ACDE-FH34" is "A, C, D, E. F, H, 3, 4." A comma after
    /// each makes every voice of the kiosk say a letter's name ("A" as the letter, not the English article) and a
    /// digit's number; the full stop between the groups is the pause a person copying it down needs.
    static func spelled(_ code: String) -> String {
        code.split(separator: "-").map { group in group.map(String.init).joined(separator: ", ") }
            .joined(separator: ". ") + "."
    }

    /// A text as one spoken line: whitespace collapsed, and a full stop when it ends without punctuation, so the
    /// voice pauses between a heading, a question and a button's label instead of running them together.
    static func sentence(_ text: String) -> String {
        let words = text.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        guard let last = words.last else { return "" }
        return ".!?:;…".contains(last) ? words : words + "."
    }
}
