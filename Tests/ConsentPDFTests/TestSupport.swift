import ConsentCore
import Foundation
import SampleStudy
import Testing

@testable import ConsentPDF

/// Runs poppler's command-line tools and python3 on rendered PDFs.
enum Poppler {
    struct ToolFailure: Error, CustomStringConvertible {
        var description: String
    }

    /// Runs `tool args…` and returns its standard output.
    static func run(_ tool: String, _ arguments: [String]) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = [tool] + arguments
        let output = Pipe()
        let errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        let errorData = errors.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw ToolFailure(description: "\(tool) failed: \(String(decoding: errorData, as: UTF8.self))")
        }
        return String(decoding: data, as: UTF8.self)
    }

    /// `pdfinfo` as a dictionary ("Pages" → "3", "Page size" → "595.276 x 841.89 pts (A4)").
    static func info(_ pdf: Data) throws -> [String: String] {
        try withFile(pdf) { path in
            var result: [String: String] = [:]
            for line in try run("pdfinfo", [path]).split(separator: "\n") {
                guard let colon = line.firstIndex(of: ":") else { continue }
                result[String(line[..<colon])] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
            }
            return result
        }
    }

    /// `pdftotext` of all pages, or of one page.
    static func text(_ pdf: Data, page: Int? = nil, layout: Bool = false) throws -> String {
        try withFile(pdf) { path in
            var arguments = layout ? ["-layout"] : []
            if let page { arguments += ["-f", "\(page)", "-l", "\(page)"] }
            return try run("pdftotext", arguments + [path, "-"])
        }
    }

    /// Counts content-stream operators after inflating every FlateDecode stream (cairo compresses them all).
    static func operatorCounts(_ pdf: Data) throws -> (curves: Int, moves: Int) {
        let script = """
            import re, sys, zlib
            data = open(sys.argv[1], 'rb').read()
            c = m = 0
            for s in re.findall(rb'stream\\r?\\n(.*?)\\r?\\nendstream', data, re.S):
                try:
                    text = zlib.decompress(s)
                except Exception:
                    continue
                c += len(re.findall(rb'(?:^|\\s)(?:-?[0-9.]+\\s+){6}c(?=\\s)', text))
                m += len(re.findall(rb'(?:^|\\s)(?:-?[0-9.]+\\s+){2}m(?=\\s)', text))
            print(c, m)
            """
        return try withFile(pdf) { path in
            let parts = try run("python3", ["-c", script, path]).split(separator: " ").compactMap {
                Int($0.trimmingCharacters(in: .whitespacesAndNewlines))
            }
            guard parts.count == 2 else { throw ToolFailure(description: "unexpected python output") }
            return (parts[0], parts[1])
        }
    }

    static func withFile<T>(_ data: Data, _ body: (String) throws -> T) throws -> T {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("consentpdf-\(UUID().uuidString).pdf")
        try data.write(to: url)
        defer { try? FileManager.default.removeItem(at: url) }
        return try body(url.path)
    }
}

enum Fixtures {
    /// The bundled sample study.
    static func sampleStudy() throws -> Study {
        let folder = try #require(SampleStudy.folder)
        return try Study.load(from: folder)
    }

    /// The C3-PRO documentation's sample Contract with its HTML file.
    static func specStudy() throws -> Study {
        let folder = try #require(Bundle.module.url(forResource: "Fixtures", withExtension: nil))
        return try Study.load(from: folder.appendingPathComponent("sleepwell"))
    }

    /// A study made of the given sections (title, HTML), written to a temporary folder, with extra files.
    static func study(sections: [(title: String, html: String)], files: [String: Data] = [:]) throws -> Study {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("consentpdf-study-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let terms: [[String: Any]] = sections.map { section in
            [
                "type": ["coding": [["system": "http://researchkit.org/docs/Constants/ORKConsentSectionType", "code": "Custom"]]],
                "extension": [[
                    "url": "http://fhir-registry.smarthealthit.org/StructureDefinition/ORKConsentSection",
                    "extension": [
                        ["url": "title", "valueString": section.title],
                        ["url": "htmlContent", "valueString": section.html],
                    ],
                ]],
            ]
        }
        let contract: [String: Any] = ["resourceType": "Contract", "id": "test.study", "term": terms]
        try JSONSerialization.data(withJSONObject: contract).write(to: folder.appendingPathComponent("contract.json"))
        try Data(#"{"askForSharing": false}"#.utf8).write(to: folder.appendingPathComponent("options.json"))
        for (name, data) in files { try data.write(to: folder.appendingPathComponent(name)) }
        return try Study.load(from: folder)
    }

    /// A three-stroke handwritten-looking signature: a looping wave, a second word, and a dot.
    static func strokes(pressure: Bool = false) -> SignatureStrokes {
        var first: [StrokePoint] = []
        for i in 0..<60 {
            let t = Double(i) / 59
            let x = 0.05 + 0.45 * t
            let y = 0.55 - 0.25 * sin(t * 4 * .pi) * (1 - t / 2)
            first.append(StrokePoint(x: x, y: min(max(y, 0), 1), t: Double(i) * 8, p: pressure ? 0.3 + 0.5 * t : nil))
        }
        var second: [StrokePoint] = []
        for i in 0..<40 {
            let t = Double(i) / 39
            second.append(
                StrokePoint(x: 0.55 + 0.35 * t, y: 0.6 - 0.2 * sin(t * 3 * .pi), t: 600 + Double(i) * 8, p: pressure ? 0.6 : nil))
        }
        let dot = [StrokePoint(x: 0.93, y: 0.35, t: 1000, p: pressure ? 0.5 : nil)]
        return SignatureStrokes(strokes: [first, second, dot], widthMM: 120, heightMM: 40)
    }

    /// 2026-11-22 13:05:00 UTC: 14:05 in Berlin (CET, UTC+01:00).
    static let signedAt = Date(timeIntervalSince1970: 1_795_352_700)
    static let berlin = TimeZone(identifier: "Europe/Berlin")!
    static let options = PDFOptions(paper: .a4, timeZone: berlin, localeIdentifier: "de_DE")
}

extension String {
    /// Whitespace runs collapsed to single spaces, the page footers removed, so text can be compared across line
    /// and page breaks.
    var normalizedPDFText: String {
        var text = replacing(/Page \d+ of \d+/, with: " ").replacing(/Study version [0-9a-f]{12}/, with: " ")
        text = text.replacing(/\s+/, with: " ")
        return text.trimmingCharacters(in: .whitespaces)
    }

    /// Also without list markers and with no space before punctuation: only the words and their order remain.
    var wordsOnly: String {
        replacing(/[•◦▪]/, with: " ").replacing(/(^|\s)\d+\.\s/, with: " ").replacing(/\s+/, with: " ")
            .replacing(/\s([.,;:])/) { String($0.output.1) }.trimmingCharacters(in: .whitespaces)
    }

    /// The text of an HTML fragment for expectations: tags dropped, the few entities the fixtures use decoded.
    var htmlTextForTest: String {
        replacing(/<[^>]+>/, with: " ").replacingOccurrences(of: "&amp;", with: "&").replacing(/\s+/, with: " ")
            .trimmingCharacters(in: .whitespaces)
    }

    /// Whether `parts` occur in this order.
    func containsInOrder(_ parts: [String]) -> Bool {
        var rest = self[...]
        for part in parts {
            guard let range = rest.range(of: part) else { return false }
            rest = rest[range.upperBound...]
        }
        return true
    }
}
