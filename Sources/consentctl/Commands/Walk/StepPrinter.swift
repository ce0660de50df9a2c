import Foundation

/// Prints a step's view model as lines a technician can read: the known parts as a kiosk would show them, and
/// any part this tool does not know as its members, so a newer agent's steps are still visible.
struct StepPrinter {
    let console: Console

    /// The longest text shown for one value; HTML is summarised, never dumped.
    static let maximumText = 240

    func show(step: String, view: [String: Any]) {
        let title = view["title"] as? String ?? ""
        console.say("== \(title) [\(step)] ==")
        let known: Set<String> = ["step", "title", "actions"]
        var shown = known
        if let eligibility = view["eligibility"] as? [String: Any] {
            shown.insert("eligibility")
            showEligibility(eligibility)
        }
        if let scene = view["scene"] as? [String: Any] {
            shown.insert("scene")
            showScene(scene)
        }
        if let sharing = view["sharing"] as? [String: Any] {
            shown.insert("sharing")
            showSharing(sharing)
        }
        if let review = view["review"] as? [String: Any] {
            shown.insert("review")
            showReview(review)
        }
        if let comprehension = view["comprehension"] as? [String: Any] {
            shown.insert("comprehension")
            showComprehension(comprehension)
        }
        if let passcode = view["passcode"] as? [String: Any] {
            shown.insert("passcode")
            line(passcode["text"])
        }
        if let staff = view["staff"] as? [String: Any] {
            shown.insert("staff")
            line(staff["text"])
            if let name = staff["staffName"] { line(name) }
            if let instruction = staff["signatureInstruction"] { line(instruction) }
        }
        let unknownStep = !Self.knownSteps.contains(step)
        if unknownStep {
            console.say("(consentctl walk does not know the step \"\(step)\"; its view model follows as sent)")
        }
        for key in view.keys.sorted() where !shown.contains(key) {
            showGeneric(key, view[key])
        }
    }

    static let knownSteps: Set<String> = [
        "eligibility", "visual", "sharing", "reviewStep", "comprehension", "passcode", "staff", "done", "withdrawal",
        "changes",
    ]

    /// A question and its numbered choices; after a wrong answer, the message, the explanation and the section.
    private func showComprehension(_ c: [String: Any]) {
        line(c["progress"])
        line(c["question"])
        let phase = c["phase"] as? String ?? "question"
        if phase == "question" {
            line(c["text"])
            for (index, choice) in (c["choices"] as? [String] ?? []).enumerated() {
                console.say("  \(index + 1). \(choice)")
            }
            return
        }
        line(c["text"])
        if let chosen = c["chosen"] as? Int, let choices = c["choices"] as? [String], choices.indices.contains(chosen) {
            console.say("Your answer: \(choices[chosen])")
        }
        if let explanation = c["explanation"] as? String { console.say("\(c["explanationHeading"] as? String ?? ""): \(explanation)") }
        if let html = c["sectionHTML"] as? String {
            console.say("\(c["sectionTitle"] as? String ?? c["sectionHeading"] as? String ?? ""): \(Self.plainText(html))")
        }
    }

    private func showEligibility(_ e: [String: Any]) {
        line(e["heading"])
        line(e["message"])
        let questions = e["questions"] as? [String] ?? []
        let answers = e["answers"] as? [Any] ?? []
        for (index, question) in questions.enumerated() {
            let answer = answers.indices.contains(index) ? (answers[index] as? Bool).map { $0 ? "yes" : "no" } ?? "-" : "-"
            console.say("  \(index + 1). \(question)  [\(answer)]")
        }
        if let status = e["status"] as? String { console.say("Status: \(status)") }
    }

    private func showScene(_ s: [String: Any]) {
        let index = (s["index"] as? Int).map { $0 + 1 } ?? 0
        console.say("Section \(index) of \(s["count"] as? Int ?? 0) (\(s["type"] as? String ?? "?")): \(s["title"] as? String ?? "(no title)")")
        line(s["summary"])
        if let html = s["learnMoreHTML"] as? String {
            console.say("\(s["learnMoreTitle"] as? String ?? "Learn more"): \(Self.plainText(html))")
        }
        if let image = s["image"] as? String { console.say("Image: \(image)") }
        if let animation = s["animation"] as? String { console.say("Animation: \(animation)") }
    }

    private func showSharing(_ s: [String: Any]) {
        line(s["text"])
        for (index, choice) in (s["choices"] as? [[String: Any]] ?? []).enumerated() {
            console.say("  \(index + 1). \(choice["text"] as? String ?? "?")")
        }
        if let html = s["learnMoreHTML"] as? String {
            console.say("\(s["learnMoreTitle"] as? String ?? "Learn more"): \(Self.plainText(html))")
        }
    }

    private func showReview(_ r: [String: Any]) {
        let page = r["page"] as? String ?? "?"
        console.say("Review page: \(page)")
        switch page {
        case "document":
            if let html = r["html"] as? String { console.say("Document: \(Self.plainText(html))") }
            line(r["reasonForConsent"])
        case "name":
            console.say("Name given: \(r["hasName"] as? Bool == true ? "yes" : "no")")
        case "signature", "witnessSignature":
            if let role = r["role"] as? String { console.say("Signed by: \(role)") }
            line(r["signatureInstruction"])
            let given = r[page == "witnessSignature" ? "hasWitnessSignature" : "hasSignature"] as? Bool == true
            console.say("Signature given: \(given ? "yes" : "no")")
        case "signer":
            for (index, choice) in (r["signerChoices"] as? [[String: Any]] ?? []).enumerated() {
                console.say("  \(index + 1). \(choice["text"] as? String ?? "?")")
            }
        case "representative":
            line(r["relationshipLabel"])
            for (index, relationship) in (r["relationships"] as? [[String: Any]] ?? []).enumerated() {
                console.say("  \(index + 1). \(relationship["display"] as? String ?? "?")")
            }
        case "witness":
            line(r["text"])
            console.say("Witness's name given: \(r["hasWitnessName"] as? Bool == true ? "yes" : "no")")
        default:
            for key in r.keys.sorted() where key != "page" { showGeneric(key, r[key]) }
        }
    }

    private func showGeneric(_ key: String, _ value: Any?) {
        guard let value else { return }
        if let object = value as? [String: Any] {
            console.say("\(key):")
            for member in object.keys.sorted() {
                console.say("  \(member): \(Self.brief(object[member] as Any))")
            }
        } else {
            console.say("\(key): \(Self.brief(value))")
        }
    }

    private func line(_ value: Any?) {
        if let text = value as? String, !text.isEmpty { console.say(Self.shortened(text)) }
    }

    static func brief(_ value: Any) -> String {
        if let text = value as? String { return shortened(text.contains("<") ? plainText(text) : text) }
        if let flag = value as? Bool { return flag ? "true" : "false" }
        if JSONSerialization.isValidJSONObject(value),
            let data = try? JSONSerialization.data(withJSONObject: value, options: [.sortedKeys])
        {
            return shortened(String(decoding: data, as: UTF8.self))
        }
        return shortened("\(value)")
    }

    /// HTML as one line of its text, cut short: enough to recognise the page, not to read it.
    static func plainText(_ html: String) -> String {
        var text = ""
        var tag: String?
        for character in html {
            if character == "<" { tag = ""; continue }
            if character == ">", let name = tag {
                // Block ends separate words; inline tags (<b>, <em>) must not split "voluntary" from its ".".
                let bare = name.drop { $0 == "/" }.prefix { $0.isLetter || $0.isNumber }.lowercased()
                if Self.blockTags.contains(bare) { text.append(" ") }
                tag = nil
                continue
            }
            if tag != nil { tag?.append(character) } else { text.append(character) }
        }
        for (entity, character) in Self.entities { text = text.replacingOccurrences(of: entity, with: character) }
        let words = text.split(whereSeparator: { $0.isWhitespace || $0.isNewline })
        return shortened(words.joined(separator: " ")) + " (\(html.utf8.count) bytes of HTML)"
    }

    private static let blockTags: Set<String> = [
        "p", "br", "div", "li", "ul", "ol", "h1", "h2", "h3", "h4", "h5", "h6", "tr", "td", "th", "table", "blockquote",
    ]
    // The common ones; the walk only previews a page, the PDF and the UI render it properly.
    private static let entities = [("&nbsp;", " "), ("&lt;", "<"), ("&gt;", ">"), ("&quot;", "\""), ("&#39;", "'"), ("&amp;", "&")]

    static func shortened(_ text: String) -> String {
        text.count > maximumText ? String(text.prefix(maximumText - 1)) + "…" : text
    }
}
