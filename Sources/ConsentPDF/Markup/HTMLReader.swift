// libxml2 is imported `internal` and this file does not import Foundation: libxml2's headers pull in ICU, whose
// `UErrorCode` clashes with Foundation's copy in any file that sees both.
internal import CXML2

/// Parses HTML with libxml2's forgiving HTML parser (never regexes) and flattens the tree into `HTMLEvent`s.
enum HTMLReader {
    /// Elements whose content is never shown: scripts, styles and the document head.
    static let skipped: Set<String> = [
        "script", "style", "head", "title", "template", "noscript", "iframe", "object", "embed", "svg", "math",
        "select", "textarea", "audio", "video", "canvas",
    ]

    static func read(_ html: String) -> HTMLReadResult {
        _ = libxmlInitialized
        let source = Array(html.utf8)
        guard !source.isEmpty else { return HTMLReadResult(events: [], problem: nil, problemCount: 0) }
        guard source.count < Int(Int32.max) else {
            return HTMLReadResult(events: [], problem: "the HTML is larger than libxml2 accepts", problemCount: 1)
        }
        // The parse stays inside the closure: libxml2 may read the buffer in place.
        return source.withUnsafeBufferPointer { buffer in
            buffer.withMemoryRebound(to: CChar.self) { parse($0) }
        }
    }

    private static func parse(_ buffer: UnsafeBufferPointer<CChar>) -> HTMLReadResult {
        guard let base = buffer.baseAddress, let ctxt = htmlCreateMemoryParserCtxt(base, Int32(buffer.count)) else {
            return HTMLReadResult(events: [], problem: "libxml2 could not start parsing", problemCount: 1)
        }
        defer { htmlFreeParserCtxt(ctxt) }

        // The bytes are UTF-8 whatever a <meta> says (HTML defaults to Latin-1 otherwise).
        xmlSwitchEncoding(ctxt, XML_CHAR_ENCODING_UTF8)
        // No XML_PARSE_HUGE: libxml2's limits (256 levels of nesting, 10 MB text nodes) keep its parsing time
        // linear; a page beyond them is cut there, and the error becomes the page's warning.
        let options =
            HTML_PARSE_RECOVER.rawValue | HTML_PARSE_NONET.rawValue | HTML_PARSE_NOERROR.rawValue
            | HTML_PARSE_NOWARNING.rawValue | HTML_PARSE_NODEFDTD.rawValue | HTML_PARSE_IGNORE_ENC.rawValue
        htmlCtxtUseOptions(ctxt, Int32(bitPattern: options))

        // Errors come to the collector (found through the context's `_private`), never to stderr.
        let collector = ProblemCollector()
        ctxt.pointee._private = Unmanaged.passUnretained(collector).toOpaque()
        ctxt.pointee.sax?.pointee.serror = { userData, error in
            guard let userData, let error else { return }
            let parser = userData.assumingMemoryBound(to: htmlParserCtxt.self)
            guard let collectorPointer = parser.pointee._private else { return }
            Unmanaged<ProblemCollector>.fromOpaque(collectorPointer).takeUnretainedValue().note(error.pointee)
        }
        ctxt.pointee.sax?.pointee.error = nil
        ctxt.pointee.sax?.pointee.warning = nil
        // libxml2 only calls `serror` for a SAX handler marked as SAX2; the HTML parser uses no other SAX2 callbacks.
        ctxt.pointee.sax?.pointee.initialized = XML_SAX2_MAGIC

        withExtendedLifetime(collector) { _ = htmlParseDocument(ctxt) }
        ctxt.pointee._private = nil
        guard let doc = ctxt.pointee.myDoc else {
            return HTMLReadResult(
                events: [], problem: collector.first ?? "the HTML could not be parsed", problemCount: collector.count)
        }
        ctxt.pointee.myDoc = nil
        defer { xmlFreeDoc(doc) }
        return HTMLReadResult(events: walk(doc), problem: collector.first, problemCount: collector.count)
    }

    /// Visits the tree in document order without recursion.
    private static func walk(_ doc: htmlDocPtr) -> [HTMLEvent] {
        var events: [HTMLEvent] = []
        var node = doc.pointee.children
        var depth = 0
        var names: [String] = []
        while let current = node {
            var descended = false
            switch current.pointee.type {
            case XML_ELEMENT_NODE:
                let name = lowercased(current.pointee.name)
                if !skipped.contains(name) {
                    events.append(.start(name, attributes(current)))
                    if let child = current.pointee.children {
                        names.append(name)
                        depth += 1
                        node = child
                        descended = true
                    } else {
                        events.append(.end(name))
                    }
                }
            case XML_TEXT_NODE, XML_CDATA_SECTION_NODE:
                if let content = current.pointee.content {
                    events.append(.text(String(cString: content)))
                }
            default:
                break  // comments, processing instructions, the DTD
            }
            if descended { continue }
            // Next sibling, or climb until an ancestor has one, closing each element left.
            var climbing: xmlNodePtr? = current
            node = nil
            while let c = climbing {
                if let next = c.pointee.next {
                    node = next
                    break
                }
                guard depth > 0, let parent = c.pointee.parent else { break }
                depth -= 1
                events.append(.end(names.popLast() ?? ""))
                climbing = parent
            }
        }
        return events
    }

    private static func attributes(_ node: xmlNodePtr) -> [String: String] {
        var result: [String: String] = [:]
        var attribute = node.pointee.properties
        while let a = attribute {
            let name = lowercased(a.pointee.name)
            var value = ""
            var child = a.pointee.children
            while let c = child {
                if let content = c.pointee.content { value += String(cString: content) }
                child = c.pointee.next
            }
            result[name] = value
            attribute = a.pointee.next
        }
        return result
    }

    private static func lowercased(_ name: UnsafePointer<xmlChar>?) -> String {
        guard let name else { return "" }
        return String(cString: name).lowercased()
    }
}

/// libxml2 wants `xmlInitParser` once per process before use from several threads.
private let libxmlInitialized: Bool = {
    xmlInitParser()
    return true
}()

/// Gathers libxml2's parse errors for one document.
private final class ProblemCollector {
    private(set) var first: String?
    private(set) var count = 0

    func note(_ error: xmlError) {
        // Tags unknown to libxml2's HTML 4 table (<section>, <mark>, …) are fine: they degrade to their text.
        if error.code == Int32(XML_HTML_UNKNOWN_TAG.rawValue) { return }
        count += 1
        guard first == nil else { return }
        let message = error.message.map { String(cString: $0) } ?? "malformed HTML"
        var trimmed = Substring(message)
        while let last = trimmed.last, last == "\n" || last == " " { trimmed = trimmed.dropLast() }
        first = error.line > 0 ? "\(trimmed) (line \(error.line))" : String(trimmed)
    }
}
