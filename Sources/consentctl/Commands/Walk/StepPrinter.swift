import Foundation
import JSON

/// Prints a step's view model as lines a technician can read: the known parts as a kiosk would show them, and
/// any part this tool does not know as its members, so a newer agent's steps are still visible.
struct StepPrinter {
    let console: Console

    /// The longest text shown for one value; HTML is summarised, never dumped.
    static let maximumText = 240

    func show(step: String, view: JSONValue) {
        let title = view["title"]?.stringValue ?? ""
        console.say("== \(title) [\(step)] ==")
        let known: Set<String> = ["step", "title", "actions"]
        var shown = known
        if let eligibility = view["eligibility"]?.asObject {
            shown.insert("eligibility")
            showEligibility(eligibility)
        }
        if let key = view["keyInformation"]?.asObject {
            shown.insert("keyInformation")
            line(key["text"])
            if let html = key["html"]?.stringValue { console.say(Self.plainText(html)) }
        }
        if let scene = view["scene"]?.asObject {
            shown.insert("scene")
            showScene(scene)
        }
        if let sharing = view["sharing"]?.asObject {
            shown.insert("sharing")
            showSharing(sharing)
        }
        if let optional = view["optional"]?.asObject {
            shown.insert("optional")
            showOptional(optional)
        }
        if let review = view["review"]?.asObject {
            shown.insert("review")
            showReview(review)
        }
        if let comprehension = view["comprehension"]?.asObject {
            shown.insert("comprehension")
            showComprehension(comprehension)
        }
        if let passcode = view["passcode"]?.asObject {
            shown.insert("passcode")
            line(passcode["text"])
        }
        if let staff = view["staff"]?.asObject {
            shown.insert("staff")
            line(staff["text"])
            if let name = staff["staffName"] { line(name) }
            if let instruction = staff["signatureInstruction"] { line(instruction) }
        }
        let unknownStep = !Self.knownSteps.contains(step)
        if unknownStep {
            console.say("(consentctl walk does not know the step \"\(step)\"; its view model follows as sent)")
        }
        for key in (view.objectValue ?? [:]).keys.sorted() where !shown.contains(key) {
            showGeneric(key, view[key])
        }
    }

    static let knownSteps: Set<String> = [
        "eligibility", "keyInformation", "visual", "sharing", "optional", "reviewStep", "comprehension", "passcode", "staff", "done", "withdrawal",
        "changes",
    ]

    /// A question and its numbered choices; after a wrong answer, the message, the explanation and the section.
    private func showComprehension(_ c: JSONValue) {
        line(c["progress"])
        line(c["question"])
        let phase = c["phase"]?.stringValue ?? "question"
        if phase == "question" {
            line(c["text"])
            for (index, choice) in (c["choices"]?.stringsValue ?? []).enumerated() {
                console.say("  \(index + 1). \(choice)")
            }
            return
        }
        line(c["text"])
        if let chosen = c["chosen"]?.intValue, let choices = c["choices"]?.stringsValue, choices.indices.contains(chosen) {
            console.say("Your answer: \(choices[chosen])")
        }
        if let explanation = c["explanation"]?.stringValue { console.say("\(c["explanationHeading"]?.stringValue ?? ""): \(explanation)") }
        if let html = c["sectionHTML"]?.stringValue {
            console.say("\(c["sectionTitle"]?.stringValue ?? c["sectionHeading"]?.stringValue ?? ""): \(Self.plainText(html))")
        }
    }

    private func showEligibility(_ e: JSONValue) {
        line(e["heading"])
        line(e["message"])
        let questions = e["questions"]?.stringsValue ?? []
        let answers = e["answers"]?.arrayValue ?? []
        for (index, question) in questions.enumerated() {
            let answer = answers.indices.contains(index) ? answers[index].boolValue.map { $0 ? "yes" : "no" } ?? "-" : "-"
            console.say("  \(index + 1). \(question)  [\(answer)]")
        }
        if let status = e["status"]?.stringValue { console.say("Status: \(status)") }
    }

    private func showScene(_ s: JSONValue) {
        let index = s["index"]?.intValue.map { $0 + 1 } ?? 0
        console.say("Section \(index) of \(s["count"]?.intValue ?? 0) (\(s["type"]?.stringValue ?? "?")): \(s["title"]?.stringValue ?? "(no title)")")
        line(s["summary"])
        if let html = s["learnMoreHTML"]?.stringValue {
            console.say("\(s["learnMoreTitle"]?.stringValue ?? "Learn more"): \(Self.plainText(html))")
        }
        if let image = s["image"]?.stringValue { console.say("Image: \(image)") }
        if let animation = s["animation"]?.stringValue { console.say("Animation: \(animation)") }
    }

    private func showSharing(_ s: JSONValue) {
        line(s["text"])
        for (index, choice) in (s["choices"]?.objectsValue ?? []).enumerated() {
            console.say("  \(index + 1). \(choice["text"]?.stringValue ?? "?")")
        }
        if let html = s["learnMoreHTML"]?.stringValue {
            console.say("\(s["learnMoreTitle"]?.stringValue ?? "Learn more"): \(Self.plainText(html))")
        }
    }

    /// Each optional element: its title, its question, the answer given so far and its "Learn more" page.
    private func showOptional(_ o: JSONValue) {
        line(o["text"])
        for (index, element) in (o["elements"]?.objectsValue ?? []).enumerated() {
            let answer = element["answer"]?.boolValue.map { $0 ? "yes" : "no" } ?? "not answered"
            console.say("  \(index + 1). \(element["title"]?.stringValue ?? "?"): \(element["text"]?.stringValue ?? "") (\(answer))")
            if let html = element["learnMoreHTML"]?.stringValue {
                console.say("     \(element["learnMoreTitle"]?.stringValue ?? "Learn more"): \(Self.plainText(html))")
            }
        }
    }

    private func showReview(_ r: JSONValue) {
        let page = r["page"]?.stringValue ?? "?"
        console.say("Review page: \(page)")
        switch page {
        case "document":
            if let html = r["html"]?.stringValue { console.say("Document: \(Self.plainText(html))") }
            line(r["reasonForConsent"])
        case "name":
            console.say("Name given: \(r["hasName"]?.boolValue == true ? "yes" : "no")")
        case "signature", "witnessSignature":
            if let role = r["role"]?.stringValue { console.say("Signed by: \(role)") }
            line(r["signatureInstruction"])
            let given = r[page == "witnessSignature" ? "hasWitnessSignature" : "hasSignature"]?.boolValue == true
            console.say("Signature given: \(given ? "yes" : "no")")
        case "signer":
            for (index, choice) in (r["signerChoices"]?.objectsValue ?? []).enumerated() {
                console.say("  \(index + 1). \(choice["text"]?.stringValue ?? "?")")
            }
        case "representative":
            line(r["relationshipLabel"])
            for (index, relationship) in (r["relationships"]?.objectsValue ?? []).enumerated() {
                console.say("  \(index + 1). \(relationship["display"]?.stringValue ?? "?")")
            }
        case "witness":
            line(r["text"])
            console.say("Witness's name given: \(r["hasWitnessName"]?.boolValue == true ? "yes" : "no")")
        default:
            for key in (r.objectValue ?? [:]).keys.sorted() where key != "page" { showGeneric(key, r[key]) }
        }
    }

    private func showGeneric(_ key: String, _ value: JSONValue?) {
        guard let value else { return }
        if let object = value.objectValue {
            console.say("\(key):")
            for member in object.keys.sorted() {
                if let memberValue = object[member] { console.say("  \(member): \(Self.brief(memberValue))") }
            }
        } else {
            console.say("\(key): \(Self.brief(value))")
        }
    }

    private func line(_ value: JSONValue?) {
        if let text = value?.stringValue, !text.isEmpty { console.say(Self.shortened(text)) }
    }

    static func brief(_ value: JSONValue) -> String {
        switch value {
        case .string(let text): return shortened(text.contains("<") ? plainText(text) : text)
        case .bool(let flag): return flag ? "true" : "false"
        case .integer(let number): return shortened("\(number)")
        case .number(let number): return shortened("\(number)")
        case .null: return shortened("<null>")
        case .array, .object:
            // Sorted keys, UTF-8 as it is, and "/" escaped: the text JSONSerialization gave the walk before (in
            // JSON text a "/" only occurs inside a string).
            let text = String(decoding: (try? value.serializedBytes()) ?? [], as: UTF8.self)
            return shortened(text.replacingOccurrences(of: "/", with: "\\/"))
        }
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
