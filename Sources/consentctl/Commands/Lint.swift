import ArgumentParser
import ConsentCore
import ConsentSigning
import Foundation
import SampleStudy
import UTCTime

/// `consentctl lint STUDY [--json]`: every problem a coordinator must fix before a study goes live.
///
/// Exit status: 0 when there are only warnings (or nothing), 3 when there is at least one error, 1 for usage.
struct Lint: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "List every problem of a study to fix before going live; exit 3 on any error.",
        discussion: """
            Warnings: Contract terms skipped and why, sections without HTML, eligibility characteristics skipped, \
            unresolved references, ignored intro texts, a consent without key information (45 CFR 46.116(a)(5)(i)). \
            Errors: a file the study names that does not exist (HTML \
            pages, the review document, images in the HTML), a missing sharing document, an unreadable or malformed \
            Contract or other study file. Each language sub-folder (de/, fr/, …) is linted too. The package's \
            approval.json is checked (approval[]): present, its signature sound (by one of --approval-key), its dates \
            sane and not past, every language covered at the version in the folder.
            Exit status: 0 no errors (warnings allowed), 3 at least one error, 1 usage error.
            """)

    /// The documented status for a study with at least one error.
    static let errorExitCode: Int32 = 3

    @Argument(help: "A study folder (with contract.json) or a Contract JSON file. Default: the bundled sample study.")
    var study: String?

    @Flag(help: "Print one JSON object: languages[].diagnostics[] {severity, code, file, location, message}, approval[], errors, warnings.")
    var json = false

    @Option(name: .customLong("approval-key"), help: ArgumentHelp("A trusted IRB public key (PEM, repeatable), as consentd's approvalKeys: an approval by another key is an error.", valueName: "KEY.pem"))
    var approvalKeys: [String] = []

    func run() throws {
        let url: URL
        if let study {
            url = URL(fileURLWithPath: study)
        } else if let sample = SampleStudy.folder {
            url = sample
        } else {
            throw CommandFailure("the bundled sample study is not installed beside consentctl; name a study folder")
        }
        var keys: ApprovalKeyring?
        if !approvalKeys.isEmpty {
            do { keys = try ApprovalKeyring.load(approvalKeys) } catch let error as StudyApprovalError {
                throw CommandFailure(error.message)
            }
        }
        var isFolder: ObjCBool = false
        let approval = FileManager.default.fileExists(atPath: url.path, isDirectory: &isFolder) && isFolder.boolValue
            ? ApprovalLint.check(folder: url, keys: keys, today: CivilDate.today(in: .current).text) : []
        let report = LintReport(study: url.path, results: StudyLint.check(url), approval: approval)
        if json {
            print(try JSONOutput.text(report))
        } else {
            print(report.text)
        }
        if report.errors > 0 { throw ExitCode(Self.errorExitCode) }
    }
}

/// The `lint --json` shape.
struct LintReport: Encodable {
    struct Language: Encodable {
        var language: String
        var folder: String
        var diagnostics: [StudyDiagnostic]
    }

    var study: String
    var languages: [Language]
    /// The package's approval.json (`ApprovalLint`).
    var approval: [StudyDiagnostic]
    var errors: Int
    var warnings: Int

    init(study: String, results: [StudyLint.LanguageResult], approval: [StudyDiagnostic] = []) {
        self.study = study
        self.approval = approval
        languages = results.map { Language(language: $0.language, folder: $0.folder.path, diagnostics: $0.diagnostics) }
        let all = results.flatMap(\.diagnostics) + approval
        errors = all.errors.count
        warnings = all.warnings.count
    }

    var text: String {
        var lines: [String] = []
        let several = languages.count > 1
        for language in languages {
            if several { lines.append("Language \(language.language) (\(language.folder)):") }
            for d in language.diagnostics {
                let file = d.file ?? "-"
                let location = d.location.map { " [\($0)]" } ?? ""
                lines.append("\(several ? "  " : "")\(d.severity.rawValue.uppercased()) \(d.code) \(file)\(location): \(d.message)")
            }
        }
        for d in approval {
            lines.append("\(d.severity.rawValue.uppercased()) \(d.code) \(d.file ?? "-")\(d.location.map { " [\($0)]" } ?? ""): \(d.message)")
        }
        let verdict = errors > 0 ? "fix the errors before going live" : "ready to go live"
        lines.append("\(study): \(errors) error(s), \(warnings) warning(s): \(verdict)")
        return lines.joined(separator: "\n")
    }
}
