/// The placeholders a kiosk text may hold (`{team}`, `{date}`, …) and the one function that fills them.
///
/// Every template of every language fills through `fill`, and `LanguagePackTests` checks every text of every
/// language against its English original: a translation that drops a placeholder, or uses one that is not here or
/// not in the English text, fails the test instead of showing "{tema}" to a participant.
public enum Placeholder: String, Sendable, CaseIterable {
    /// A research team (`BuiltInTexts.teamName`).
    case team
    /// A signer's role ("Participant").
    case role
    /// A study's title.
    case study
    /// A day in words (`ParticipantDateStyle`).
    case date
    /// A record id.
    case record
    /// The label of the control a sentence names.
    case button
    /// Seconds left before the inactivity wipe (also filled by the reference UI as it counts down).
    case seconds
    /// A staff member's name.
    case name
    /// A question's 1-based number, and how many there are.
    case n, count
    /// An attempt's number, or how many were made.
    case attempt
    /// A PDF page's number (with `count`).
    case page
    /// A study version's short hash.
    case version
    /// An IRB approval's reference ("IRB #2026-0042"), or the days it covers when it gives none.
    case reference

    /// `template` with each `{placeholder}` given in `values` replaced, in one pass: a value that itself holds
    /// "{date}" (a study titled so) is not filled again. A placeholder without a value stays as it is.
    public static func fill(_ template: String, _ values: [Placeholder: String]) -> String {
        guard template.contains("{") else { return template }
        var result = ""
        var rest = template[...]
        while let open = rest.firstIndex(of: "{") {
            let afterOpen = rest.index(after: open)
            guard let close = rest[afterOpen...].firstIndex(of: "}") else { break }
            result += rest[..<open]
            guard let placeholder = Placeholder(rawValue: String(rest[afterOpen..<close])), let value = values[placeholder]
            else {
                // Not a placeholder given a value: keep the brace and read on after it, so a stray "{" before one
                // ("Tap { here: {button}", a study's own words) does not hide it.
                result += "{"
                rest = rest[afterOpen...]
                continue
            }
            result += value
            rest = rest[rest.index(after: close)...]
        }
        return result + rest
    }

    /// The names between braces in `text` (`{team}` → "team"), known or not, for the tests that check them.
    public static func names(in text: String) -> Set<String> {
        var names: Set<String> = []
        var rest = text[...]
        while let open = rest.firstIndex(of: "{") {
            let afterOpen = rest.index(after: open)
            guard let close = rest[afterOpen...].firstIndex(of: "}") else { break }
            names.insert(String(rest[afterOpen..<close]))
            rest = rest[rest.index(after: close)...]
        }
        return names
    }
}
