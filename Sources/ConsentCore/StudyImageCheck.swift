import Foundation

/// Finds `<img src>` in a study's HTML that name a file the study folder does not have.
///
/// The PDF renderer reads such images from the study folder (and shows the alt text when one is missing), so a
/// missing image only shows up in a printed consent; this check says so before the study goes live. Data URIs
/// and remote URLs are not files of the study and are left to the renderer's own warnings.
enum StudyImageCheck {
    static func missingImages(
        document: ConsentDocument, sharingHTML: String?, sharingFile: String?, reviewHTML: String?, reviewFile: String?,
        introduction: StudyIntroduction = StudyIntroduction(), contractFile: String, folder: URL
    ) -> [StudyDiagnostic] {
        var pages: [(html: String, file: String, location: String)] = []
        for section in document.sections {
            guard let html = section.htmlContent else { continue }
            let file = section.htmlContentFile.map { "\($0).html" } ?? contractFile
            pages.append((html, file, "term[\(section.termIndex)]"))
        }
        if let key = document.keyInformation {
            pages.append((key.htmlContent, "\(key.htmlContentFile).html", KeyInformation.extensionURL))
        }
        for element in document.optionalElements {
            guard let html = element.htmlContent, let name = element.htmlContentFile else { continue }
            pages.append((html, "\(name).html", "\(OptionalElement.extensionURL) \(element.id)"))
        }
        if let sharingHTML { pages.append((sharingHTML, sharingFile ?? "", "options.shareMoreInfoDocument")) }
        if let reviewHTML { pages.append((reviewHTML, reviewFile ?? "", "options.reviewConsentDocument")) }
        for page in introduction.pages { pages.append((page.htmlContent, page.file, "intro.json items")) }

        var diagnostics: [StudyDiagnostic] = []
        for page in pages {
            for source in sources(in: page.html) {
                guard let problem = problem(with: source, in: folder) else { continue }
                diagnostics.append(
                    .error(
                        .fileMissing, file: source, location: "\(page.location), \(page.file)",
                        "image \"\(source)\" named in \(page.file) \(problem); the PDF shows its description instead"))
            }
        }
        return diagnostics
    }

    /// The `src` of every `<img>`, in order (good enough for coordinator-written pages; the PDF's libxml2 reader is the
    /// real parser): what `<img\b[^>]*?\bsrc\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s>"']+))`
    /// (case-insensitive) matches, found by hand: compiling that expression set up ICU's regular expressions, 6 % of
    /// the instructions of the agent's start-up (docs/PERFORMANCE.md, "Start-up and idle memory").
    static func sources(in html: String) -> [String] {
        let text = Array(html.unicodeScalars)
        var found: [String] = []
        var start = 0
        while let tag = firstTag(in: text, from: start) {
            // `[^>]*?\bsrc…`: the first `src` attribute after the tag name, before the tag's first `>`, whose value
            // parses; none: the next `<img`.
            var position = tag + 4
            var match: (value: String, end: Int)?
            while position < text.count, text[position] != ">" {
                if let attribute = source(in: text, at: position) {
                    match = attribute
                    break
                }
                position += 1
            }
            if let match {
                found.append(match.value)
                start = match.end
            } else {
                start = tag + 1
            }
        }
        return found
    }

    /// Where `<img` followed by a word boundary next starts at or after `start`.
    private static func firstTag(in text: [Unicode.Scalar], from start: Int) -> Int? {
        var index = start
        while index + 4 <= text.count {
            if text[index] == "<", lowered(text[index + 1]) == "i", lowered(text[index + 2]) == "m",
                lowered(text[index + 3]) == "g", index + 4 == text.count || !isWordCharacter(text[index + 4])
            {
                return index
            }
            index += 1
        }
        return nil
    }

    /// `\bsrc\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s>"']+))` at `position`: the value and where the match ends.
    private static func source(in text: [Unicode.Scalar], at position: Int) -> (value: String, end: Int)? {
        guard position + 3 <= text.count, lowered(text[position]) == "s", lowered(text[position + 1]) == "r",
            lowered(text[position + 2]) == "c", position == 0 || !isWordCharacter(text[position - 1])
        else { return nil }
        var index = position + 3
        while index < text.count, text[index].properties.isWhitespace { index += 1 }
        guard index < text.count, text[index] == "=" else { return nil }
        index += 1
        while index < text.count, text[index].properties.isWhitespace { index += 1 }
        guard index < text.count else { return nil }
        let first = text[index]
        if first == "\"" || first == "'" {
            guard let close = text[(index + 1)...].firstIndex(of: first) else {
                return nil
            }
            return (String(String.UnicodeScalarView(text[(index + 1)..<close])), close + 1)
        }
        var end = index
        while end < text.count, !text[end].properties.isWhitespace, !">\"'".unicodeScalars.contains(text[end]) { end += 1 }
        guard end > index else { return nil }
        return (String(String.UnicodeScalarView(text[index..<end])), end)
    }

    private static func lowered(_ scalar: Unicode.Scalar) -> Unicode.Scalar {
        ("A"..."Z").contains(scalar) ? Unicode.Scalar(scalar.value + 32) ?? scalar : scalar
    }

    /// ICU's `\w`: letters, marks, decimal digits, connector punctuation, ZWNJ and ZWJ.
    private static func isWordCharacter(_ scalar: Unicode.Scalar) -> Bool {
        let properties = scalar.properties
        if properties.isAlphabetic { return true }
        switch properties.generalCategory {
        case .nonspacingMark, .spacingMark, .enclosingMark, .decimalNumber, .connectorPunctuation: return true
        default: return scalar == "\u{200C}" || scalar == "\u{200D}"
        }
    }

    /// Why a `src` is not a file of the study, or nil when it is fine or not a local file at all.
    private static func problem(with source: String, in folder: URL) -> String? {
        let trimmed = source.trimmingCharacters(in: .whitespaces)
        let lower = trimmed.lowercased()
        guard !trimmed.isEmpty, !lower.hasPrefix("data:"), !lower.contains("://"), !lower.hasPrefix("//") else {
            return nil
        }
        let path = trimmed.removingPercentEncoding ?? trimmed
        let root = folder.standardizedFileURL
        let url = root.appendingPathComponent(path).standardizedFileURL
        guard url.path.hasPrefix(root.path + "/") else { return "is outside the study folder" }
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory), !isDirectory.boolValue else {
            return "does not exist in the study folder"
        }
        return nil
    }
}
