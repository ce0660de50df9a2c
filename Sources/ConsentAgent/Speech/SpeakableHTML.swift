/// Study HTML (already sanitised: `HTMLSanitizer` wrote it, so it is well-formed and has no script or style) as
/// the text read-aloud speaks: its blocks (paragraphs, list items, headings, table cells) one per line, entities
/// decoded, tags and images dropped.
enum SpeakableHTML {
    struct Block: Equatable {
        var text: String
        var isHeading: Bool
    }

    /// Elements that end a line of speech (the voice pauses after them).
    static let blockElements: Set<String> = [
        "p", "div", "br", "li", "ul", "ol", "dl", "dt", "dd", "tr", "td", "th", "table", "blockquote", "pre", "hr",
        "section", "article", "header", "footer", "figure", "figcaption", "caption", "address", "aside", "main",
        "h1", "h2", "h3", "h4", "h5", "h6",
    ]
    static let headings: Set<String> = ["h1", "h2", "h3", "h4", "h5", "h6"]

    /// The sections of a document: each heading starts one (a heading directly after another joins it), so the
    /// review document is read heading by heading.
    static func sections(_ html: String) -> [String] {
        var sections: [[Block]] = []
        for block in blocks(html) {
            if block.isHeading, let last = sections.last, last.contains(where: { !$0.isHeading }) {
                sections.append([block])
            } else if sections.isEmpty {
                sections.append([block])
            } else {
                sections[sections.count - 1].append(block)
            }
        }
        return sections.map { $0.map(\.text).joined(separator: "\n") }
    }

    static func blocks(_ html: String) -> [Block] {
        var blocks: [Block] = []
        var text = ""
        var inHeading = false
        func endBlock() {
            let line = SpokenText.sentence(decodeEntities(text))
            if !line.isEmpty { blocks.append(Block(text: line, isHeading: inHeading)) }
            text = ""
        }
        var index = html.startIndex
        while index < html.endIndex {
            let character = html[index]
            guard character == "<" else {
                text.append(character)
                index = html.index(after: index)
                continue
            }
            guard let close = html[index...].firstIndex(of: ">") else { break }
            let tag = html[html.index(after: index)..<close]
            index = html.index(after: close)
            let isEnd = tag.hasPrefix("/")
            let name = tag.drop(while: { $0 == "/" }).prefix(while: { $0.isLetter || $0.isNumber }).lowercased()
            guard blockElements.contains(name) else {
                // An inline element (a link, emphasis) runs on in the line; a space keeps the words apart.
                if name == "img" { text.append(" ") }
                continue
            }
            endBlock()
            if headings.contains(name) { inHeading = !isEnd }
        }
        endBlock()
        return blocks
    }

    /// The character references the sanitiser writes (`&amp;`, `&lt;`, `&gt;`, `&quot;`, `&#39;`, `&nbsp;`) and
    /// any numeric one.
    static func decodeEntities(_ text: String) -> String {
        guard text.contains("&") else { return text }
        var out = ""
        var rest = Substring(text)
        while let amp = rest.firstIndex(of: "&") {
            out += rest[..<amp]
            let after = rest[amp...]
            guard let semicolon = after.prefix(12).firstIndex(of: ";") else {
                out.append("&")
                rest = rest[rest.index(after: amp)...]
                continue
            }
            let name = after[after.index(after: amp)..<semicolon]
            if let decoded = decode(name) {
                out += decoded
                rest = rest[rest.index(after: semicolon)...]
            } else {
                out.append("&")
                rest = rest[rest.index(after: amp)...]
            }
        }
        out += rest
        return out
    }

    private static func decode(_ name: Substring) -> String? {
        switch name {
        case "amp": return "&"
        case "lt": return "<"
        case "gt": return ">"
        case "quot": return "\""
        case "apos": return "'"
        case "nbsp": return " "
        default:
            guard name.hasPrefix("#") else { return nil }
            let digits = name.dropFirst()
            let value = digits.first == "x" || digits.first == "X" ? UInt32(digits.dropFirst(), radix: 16) : UInt32(digits)
            return value.flatMap(Unicode.Scalar.init).map { String(Character($0)) }
        }
    }
}
