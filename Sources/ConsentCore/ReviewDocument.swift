import Foundation

/// The HTML of the review screen (ResearchKit's `htmlForMobile:YES`, docs/C3PRO.md): a header, then the document
/// title and each document section, or the study's custom review document; never the signature block.
public enum ReviewDocument {
    /// - Parameter optionalAnswers: the participant's answers to the optional elements, listed after the
    ///   document (`optionalAnswersHTML`); empty for a study without them.
    public static func html(for study: Study, optionalAnswers: [OptionalElementAnswer] = []) -> String {
        let texts = study.texts
        var html = "<h1>\(escape(texts.reviewTitle))</h1>\n<p>\(escape(texts.reviewInstruction))</p>\n"
        html += bodyHTML(for: study)
        html += optionalAnswersHTML(optionalAnswers, study: study)
        return html
    }

    /// The optional elements with the participant's answers, after a rule and under their heading: each
    /// element's title and question, then "☒ Yes ☐ No" (or "☐ Yes ☒ No") in the consent's language, as a paper
    /// form's checkboxes read. The study's texts are plain text here, never markup. Empty without answers.
    public static func optionalAnswersHTML(_ answers: [OptionalElementAnswer], study: Study) -> String {
        guard !answers.isEmpty else { return "" }
        var html = "<hr>\n<h3>\(escape(study.texts.optionalTitle))</h3>\n"
        for answer in answers {
            html += "<p><b>\(escape(answer.element.title))</b><br>\(escape(answer.element.text))<br>"
            html += "\(escape(checkboxes(answer.accepted, language: study.language)))</p>\n"
        }
        return html
    }

    /// "☒ Yes ☐ No" for Yes, "☐ Yes ☒ No" for No, in `language`'s words (`ScreenTexts`): the review document's
    /// and the PDF's way of showing an optional element's answer. nil (a reading copy, not answered): "☐ Yes ☐ No".
    public static func checkboxes(_ accepted: Bool?, language: String) -> String {
        let words = ScreenTexts(language: language)
        let (yes, no) = (accepted == true ? "\u{2612}" : "\u{2610}", accepted == false ? "\u{2612}" : "\u{2610}")
        return "\(yes) \(words.yes)   \(no) \(words.no)"
    }

    /// The document body shared by the review screen and the PDF: the key information first when the study has it
    /// (under its heading, set apart by a rule), then the custom review document verbatim, or the title and, for
    /// every section in the document, its title as `<h4>` and its HTML.
    public static func bodyHTML(for study: Study) -> String {
        var html = keyInformationHTML(for: study)
        if let custom = study.reviewHTML { return html + custom }
        html += "<h3>\(escape(study.document.title))</h3>\n"
        for section in study.document.documentSections {
            let content = section.htmlContent ?? ""
            // A section's HTML with its own paragraphs, headings or lists cannot sit inside a <p> (`<p><p>`,
            // `<p><ul>` is malformed HTML that every parser repairs differently): it gets a <div>.
            let container = hasBlockElement(content) ? "div" : "p"
            html += "<h4>\(escape(section.title ?? ""))</h4>\n<\(container)>\(content)</\(container)>\n"
        }
        return html
    }

    /// What the document begins with (45 CFR 46.116(a)(5)(i)): the key information under its own heading, and a
    /// rule before the rest; empty for a study without it.
    static func keyInformationHTML(for study: Study) -> String {
        guard let key = study.document.keyInformation else { return "" }
        let content = key.htmlContent
        let container = hasBlockElement(content) ? "div" : "p"
        return "<h3>\(escape(study.texts.keyInformationTitle))</h3>\n<\(container)>\(content)</\(container)>\n<hr>\n"
    }

    /// The elements HTML does not allow inside a `<p>`.
    private static let blockElement = try? NSRegularExpression(
        pattern: #"<(p|div|h[1-6]|ul|ol|li|dl|table|blockquote|pre|hr|section|article|header|footer|figure|form|fieldset|address|nav|aside|main)\b"#,
        options: [.caseInsensitive])

    static func hasBlockElement(_ html: String) -> Bool {
        guard let blockElement else { return true }
        return blockElement.firstMatch(in: html, range: NSRange(html.startIndex..., in: html)) != nil
    }

    /// Escapes text for HTML element content.
    public static func escape(_ text: String) -> String {
        var out = ""
        out.reserveCapacity(text.utf8.count)
        for c in text {
            switch c {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            default: out.append(c)
            }
        }
        return out
    }
}
