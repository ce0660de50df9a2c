import ArgumentParser
import ConsentCore
import ConsentPDF
import Foundation

/// `consentctl preview [STUDY] -o out.pdf [--paper a4|letter] [--reading-copy]`: the consent as a PDF with an empty
/// signature block, so a coordinator can proof a study before it goes live; with `--reading-copy`, the form a
/// participant takes home (`copy.printBlank`), each page marked as not signed.
struct Preview: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Render a study's consent as an unsigned PDF for proofing.")

    @OptionGroup var studyArgument: StudyArgument

    @Option(name: .shortAndLong, help: "Where to write the PDF.")
    var output: String

    @Option(help: "Paper size: a4 or letter. Default: from the locale (LANG).")
    var paper: PDFOptions.Paper?

    @Flag(help: "The form a participant takes home (copy.printBlank): every page marked not signed, for reading only.")
    var readingCopy = false

    func run() throws {
        let study = try studyArgument.load()
        let options = PDFOptions(paper: paper, localeIdentifier: Self.localeIdentifier())
        let pdf: RenderedPDF
        do {
            let renderer = ConsentPDFRenderer(options: options)
            // The approval is the agent's to verify (approvalKeys); a preview names the version only.
            pdf = try readingCopy ? renderer.renderReadingCopy(study: study, approval: nil) : renderer.renderPreview(study: study)
            try pdf.writeAtomically(to: URL(fileURLWithPath: output))
        } catch let error as ConsentPDFError {
            throw CommandFailure(error.description)
        }
        for warning in pdf.warnings {
            FileHandle.standardError.write(Data("consentctl: warning: \(warning)\n".utf8))
        }
        print("\(output): \(pdf.pageCount) page(s), \(options.paper.rawValue), study version \(study.shortVersion)")
    }

    /// The POSIX locale (LC_ALL, LC_PAPER, LANG) when set, else Foundation's.
    static func localeIdentifier() -> String {
        let environment = ProcessInfo.processInfo.environment
        for key in ["LC_ALL", "LC_PAPER", "LANG"] {
            if let value = environment[key], !value.isEmpty, value != "C", value != "POSIX" { return value }
        }
        return Locale.current.identifier
    }
}

extension PDFOptions.Paper: ExpressibleByArgument {}
