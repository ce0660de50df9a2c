// libxml2 is imported `internal` and this file does not import Foundation: libxml2's headers pull in ICU, whose
// `UErrorCode` clashes with Foundation's copy in any file that sees both (Sources/CXML2/shim.h).
internal import CXML2

/// Makes a study's HTML safe and well-formed for a kiosk UI: what `scene.learnMoreHTML`, `sharing.learnMoreHTML`
/// and `review.html` carry (Protocol/README.md, *View texts*).
///
/// The HTML is parsed with libxml2's forgiving HTML parser and written out again from an allowlist, so nothing the
/// list does not name survives, whatever the input's spelling (case, entities, broken nesting):
/// - text-formatting elements only (`allowed`); elements whose content is not text (`dropped`: script, style,
///   iframe, object, form, …) go with their content; any other element is replaced by its content;
/// - attributes `alt`, `title`, `colspan`, `rowspan`, `lang`, `dir` only (never `on…`, `style`, `href`, `src`);
/// - a link becomes its text: in `<span data-link="external">` for http(s), `<span data-link="email">` for mailto;
/// - an `<img>` whose `src` is one of the study's images becomes `<img data-asset="…" alt="…"/>` (the UI loads it
///   with `study.asset`); any other image becomes its alt text;
/// - the output is well-formed: every element closed (void ones as `<br/>`), text and attributes escaped, no `<p>`
///   holding a block (such a `<p>` is written as `<div>`).
public enum HTMLSanitizer {
    /// Elements kept as they are (with the allowed attributes).
    public static let allowed: Set<String> = [
        "p", "br", "h1", "h2", "h3", "h4", "h5", "h6", "ul", "ol", "li", "b", "strong", "i", "em", "u", "s", "sub",
        "sup", "small", "blockquote", "hr", "span", "div", "dl", "dt", "dd", "table", "thead", "tbody", "tfoot", "tr",
        "th", "td", "caption", "img",
    ]
    /// Elements removed with everything inside them.
    public static let dropped: Set<String> = [
        "script", "style", "link", "meta", "base", "head", "title", "template", "noscript", "iframe", "frame",
        "frameset", "object", "embed", "applet", "param", "svg", "math", "form", "input", "button", "select", "option",
        "optgroup", "textarea", "label", "fieldset", "legend", "datalist", "output", "audio", "video", "source", "track",
        "canvas", "picture", "map", "area", "dialog", "portal",
    ]
    static let voidElements: Set<String> = ["br", "hr", "img"]
    /// Elements that may not sit inside a `<p>`.
    static let blocks: Set<String> = [
        "p", "div", "h1", "h2", "h3", "h4", "h5", "h6", "ul", "ol", "li", "dl", "dt", "dd", "table", "thead", "tbody",
        "tfoot", "tr", "th", "td", "caption", "blockquote", "hr",
    ]
    static let allowedAttributes: Set<String> = ["alt", "title", "colspan", "rowspan", "lang", "dir"]

    /// The safe form of `html`.
    ///
    /// - Parameter assets: the image names the study can deliver (`Study.assets`); an `<img src>` among them is
    ///   kept as `data-asset`.
    public static func sanitize(_ html: String, assets: Set<String> = []) -> String {
        _ = libxmlInitialized
        let source = Array(html.utf8)
        guard !source.isEmpty, source.count < Int(Int32.max) else { return "" }
        return source.withUnsafeBufferPointer { buffer in
            buffer.withMemoryRebound(to: CChar.self) { chars -> String in
                guard let base = chars.baseAddress else { return "" }
                // NONET: never fetch anything. Not NOIMPLIED: without the implied <html><body>, libxml2 nests every
                // top-level node after the first inside it. The implied elements are unwrapped below (and <head>,
                // where libxml2 puts a leading <style> or <link>, dropped); text directly in <body> gets a <p>.
                let options =
                    HTML_PARSE_RECOVER.rawValue | HTML_PARSE_NONET.rawValue | HTML_PARSE_NOERROR.rawValue
                    | HTML_PARSE_NOWARNING.rawValue | HTML_PARSE_NODEFDTD.rawValue | HTML_PARSE_IGNORE_ENC.rawValue
                guard let doc = htmlReadMemory(base, Int32(chars.count), nil, "UTF-8", Int32(bitPattern: options)) else {
                    return ""
                }
                defer { xmlFreeDoc(doc) }
                var writer = Writer(assets: assets)
                writer.children(of: doc.pointee.children, depth: 0, insideParagraph: false)
                return writer.output
            }
        }
    }

    struct Writer {
        let assets: Set<String>
        var output = ""
        /// libxml2 stops nesting at 256 levels; this bound only keeps the recursion finite whatever it returns.
        static let maximumDepth = 512

        init(assets: Set<String>) { self.assets = assets }

        mutating func children(of first: xmlNodePtr?, depth: Int, insideParagraph: Bool) {
            var node = first
            while let current = node {
                self.node(current, depth: depth, insideParagraph: insideParagraph)
                node = current.pointee.next
            }
        }

        mutating func node(_ node: xmlNodePtr, depth: Int, insideParagraph: Bool) {
            guard depth < Self.maximumDepth else { return }
            switch node.pointee.type {
            case XML_TEXT_NODE, XML_CDATA_SECTION_NODE:
                if let content = node.pointee.content { output += escape(String(cString: content)) }
            case XML_ELEMENT_NODE:
                element(node, depth: depth, insideParagraph: insideParagraph)
            default:
                break  // comments, processing instructions, DTDs
            }
        }

        mutating func element(_ node: xmlNodePtr, depth: Int, insideParagraph: Bool) {
            let name = HTMLSanitizer.name(node)
            if HTMLSanitizer.dropped.contains(name) { return }
            let kids = node.pointee.children
            switch name {
            case "a":
                let href = (attribute(node, "href") ?? "").trimmed.lowercased()
                let kind: String?
                if href.hasPrefix("http://") || href.hasPrefix("https://") {
                    kind = "external"
                } else if href.hasPrefix("mailto:") {
                    kind = "email"
                } else {
                    kind = nil  // javascript:, data:, relative and fragment links: nothing to follow
                }
                guard let kind else {
                    children(of: kids, depth: depth + 1, insideParagraph: insideParagraph)
                    return
                }
                output += "<span data-link=\"\(kind)\">"
                children(of: kids, depth: depth + 1, insideParagraph: insideParagraph)
                output += "</span>"
            case "img":
                let src = (attribute(node, "src") ?? "").trimmed
                guard !src.isEmpty, assets.contains(src) else {
                    if let alt = attribute(node, "alt"), !alt.trimmed.isEmpty { output += escape(alt) }
                    return
                }
                output += "<img data-asset=\"\(escape(src))\"" + attributes(node) + "/>"
            default:
                guard HTMLSanitizer.allowed.contains(name) else {
                    // Unknown or merely structural (html, body, section, font, center, …): its content only.
                    children(of: kids, depth: depth + 1, insideParagraph: insideParagraph)
                    return
                }
                var tag = name
                if insideParagraph, HTMLSanitizer.blocks.contains(name) {
                    // libxml2 closes a <p> before a block it knows; one inside an unknown wrapper still nests.
                    if name == "hr" { return }
                    tag = "span"
                } else if name == "p", containsBlock(kids, depth: depth + 1) {
                    tag = "div"
                }
                if HTMLSanitizer.voidElements.contains(tag) {
                    output += "<\(tag)" + attributes(node) + "/>"
                    return
                }
                output += "<\(tag)" + attributes(node) + ">"
                children(of: kids, depth: depth + 1, insideParagraph: insideParagraph || tag == "p" || tag == "span")
                output += "</\(tag)>"
            }
        }

        /// Whether the sanitised form of these nodes would hold a block element.
        func containsBlock(_ first: xmlNodePtr?, depth: Int) -> Bool {
            guard depth < Self.maximumDepth else { return false }
            var node = first
            while let current = node {
                if current.pointee.type == XML_ELEMENT_NODE {
                    let name = HTMLSanitizer.name(current)
                    if !HTMLSanitizer.dropped.contains(name) {
                        if HTMLSanitizer.blocks.contains(name) { return true }
                        if containsBlock(current.pointee.children, depth: depth + 1) { return true }
                    }
                }
                node = current.pointee.next
            }
            return false
        }

        /// The allowed attributes of an element, each ` name="value"`, in a fixed order.
        func attributes(_ node: xmlNodePtr) -> String {
            var out = ""
            for name in ["alt", "title", "colspan", "rowspan", "lang", "dir"] {
                guard let value = attribute(node, name) else { continue }
                switch name {
                case "colspan", "rowspan":
                    guard !value.isEmpty, value.utf8.count <= 3, value.allSatisfy({ $0.isASCII && $0.isNumber }) else { continue }
                case "dir":
                    guard ["ltr", "rtl", "auto"].contains(value.lowercased()) else { continue }
                case "lang":
                    guard !value.isEmpty, value.utf8.count <= 35,
                        value.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-") })
                    else { continue }
                default:
                    break
                }
                out += " \(name)=\"\(escape(value))\""
            }
            return out
        }

        /// An attribute's value, matched case-insensitively (libxml2 keeps the source's case).
        func attribute(_ node: xmlNodePtr, _ wanted: String) -> String? {
            var attribute = node.pointee.properties
            while let a = attribute {
                if let name = a.pointee.name, String(cString: name).lowercased() == wanted {
                    var value = ""
                    var child = a.pointee.children
                    while let c = child {
                        if let content = c.pointee.content { value += String(cString: content) }
                        child = c.pointee.next
                    }
                    return value
                }
                attribute = a.pointee.next
            }
            return nil
        }
    }

    static func name(_ node: xmlNodePtr) -> String {
        guard let name = node.pointee.name else { return "" }
        return String(cString: name).lowercased()
    }

    /// Escapes text for element content and double-quoted attributes.
    static func escape(_ text: String) -> String {
        var out = ""
        out.reserveCapacity(text.utf8.count)
        for c in text.unicodeScalars {
            switch c {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "\u{0}": break
            default: out.unicodeScalars.append(c)
            }
        }
        return out
    }
}

extension String {
    fileprivate var trimmed: String {
        var scalars = Substring(self).unicodeScalars
        while let first = scalars.first, first.properties.isWhitespace || first.value < 0x20 { scalars.removeFirst() }
        while let last = scalars.last, last.properties.isWhitespace || last.value < 0x20 { scalars.removeLast() }
        return String(scalars)
    }
}

/// libxml2 wants `xmlInitParser` once per process before use from several threads.
private let libxmlInitialized: Bool = {
    xmlInitParser()
    return true
}()
