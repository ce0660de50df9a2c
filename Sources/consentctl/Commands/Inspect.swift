import ArgumentParser
import ConsentCore
import Foundation

/// `consentctl inspect STUDY [--json]`: what the kiosk derives from a study, for a coordinator to check.
struct Inspect: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Print the consent derived from a study: sections, eligibility, sharing team, version, warnings.")

    @OptionGroup var studyArgument: StudyArgument

    @Flag(help: "Print one JSON object instead of text.")
    var json = false

    func run() throws {
        let study = try studyArgument.load()
        var report = InspectReport(study: study)
        if studyArgument.language == nil {
            // Without --language, the coordinator sees every language's problems at once.
            report.languages = study.languages.map { "\($0.tag)\($0.isDefault ? " (default)" : "") \($0.version)" }
            for translation in study.translations {
                report.warnings += translation.warnings.map { $0.hasPrefix("\(translation.language):") ? $0 : "\(translation.language): \($0)" }
            }
        }
        if json {
            print(try JSONOutput.text(report))
        } else {
            print(report.text)
        }
    }
}

/// The `inspect --json` shape: `sections`, `eligibility`, `team`, `version`, `warnings`, `diagnostics` (plus `id`,
/// `files`).
struct InspectReport: Encodable {
    struct Section: Encodable {
        var index: Int
        var termIndex: Int
        var type: String
        var title: String?
        var visual: Bool
        var inDocument: Bool
        var htmlContentFile: String?
    }
    struct Requirement: Encodable {
        var question: String
        var mustBeMet: Bool
    }
    /// The comprehension check (docs/C3PRO.md, section 3a): its policy and questions; nil without questions.
    struct Comprehension: Encodable {
        struct Question: Encodable {
            var question: String
            var choices: [String]
            var answer: Int
            /// The term (0-based) the question is about; absent when it is about the key information.
            var section: Int?
            /// True when the question is about the key information.
            var keyInformation: Bool?
        }
        var attempts: Int
        var onRepeatedMiss: String
        var questions: [Question]
    }

    var id: String
    /// The language shown, and (without --language) every language of the study with its version.
    var language: String
    var languages: [String] = []
    var sections: [Section]
    var eligibility: [Requirement]
    var comprehension: Comprehension?
    var team: String
    var version: String
    var files: [String]
    /// The messages of `diagnostics`, kept for scripts written before them.
    var warnings: [String]
    /// What `consentctl lint` lists for this language of the study.
    var diagnostics: [StudyDiagnostic]

    init(study: Study) {
        id = study.id
        language = study.language
        sections = study.document.sections.enumerated().map { index, section in
            Section(
                index: index, termIndex: section.termIndex, type: section.type.rawValue, title: section.title,
                visual: section.isVisual, inDocument: section.isInDocument, htmlContentFile: section.htmlContentFile)
        }
        eligibility = study.document.eligibility.map { Requirement(question: $0.question, mustBeMet: $0.mustBeMet) }
        if !study.document.comprehension.isEmpty {
            comprehension = Comprehension(
                attempts: study.options.comprehension.attempts,
                onRepeatedMiss: study.options.comprehension.onRepeatedMiss.rawValue,
                questions: study.document.comprehension.map {
                    .init(
                        question: $0.question, choices: $0.choices, answer: $0.answer, section: $0.termIndex,
                        keyInformation: $0.subject == .keyInformation ? true : nil)
                })
        }
        team = study.document.teamName
        version = study.version
        files = study.files
        warnings = study.warnings
        diagnostics = study.diagnostics
    }

    var text: String {
        var lines = ["Study \(id)", "Version \(version)", "Language \(language)"]
        if languages.count > 1 { lines.append("Languages: \(languages.joined(separator: ", "))") }
        lines += ["", "Sections:"]
        for s in sections {
            let flags = [s.visual ? "visual" : "document only", s.inDocument ? "in document" : "not in document"]
            lines.append("  \(s.index + 1). [\(s.type)] \(s.title ?? "(no title)") (\(flags.joined(separator: ", ")))")
        }
        lines.append("")
        lines.append(eligibility.isEmpty ? "Eligibility: no requirements (everyone is eligible)" : "Eligibility:")
        for (i, r) in eligibility.enumerated() {
            lines.append("  \(i + 1). \(r.question) (eligible answer: \(r.mustBeMet ? "Yes" : "No"))")
        }
        if let comprehension {
            lines += [
                "",
                "Comprehension check (\(comprehension.attempts) attempt(s) per question, then \(comprehension.onRepeatedMiss)):",
            ]
            for (i, q) in comprehension.questions.enumerated() {
                let right = q.choices.indices.contains(q.answer) ? q.choices[q.answer] : "?"
                let subject = q.section.map { "section term[\($0)]" } ?? "the key information"
                lines.append("  \(i + 1). \(q.question) (right answer: \(right); about \(subject))")
            }
        }
        lines += ["", "Sharing team: \(team)", "Files: \(files.joined(separator: ", "))"]
        lines.append(diagnostics.isEmpty ? "Warnings: none" : "Warnings (consentctl lint explains them):")
        lines += diagnostics.map { "  - \($0.severity.rawValue) \($0.code): \($0.message)" }
        return lines.joined(separator: "\n")
    }
}
