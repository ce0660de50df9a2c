import ArgumentParser
import ConsentCore
import Foundation
import SampleStudy

/// The STUDY argument shared by the commands that read a study: a study folder or a Contract file.
struct StudyArgument: ParsableArguments {
    @Argument(help: "A study folder (with contract.json) or a Contract JSON file. Default: the bundled sample study.")
    var study: String?

    @Option(help: ArgumentHelp(
        "The language of the consent: a tag the study has (a sub-folder such as de/, or the Contract's language). Default: the study's default language.",
        valueName: "TAG"))
    var language: String?

    /// Loads the study in `--language`, turning a load failure into a one-line message and exit status 1.
    func load() throws -> Study {
        let study = try loadDefault()
        guard let language else { return study }
        guard let translated = study.inLanguage(language) else {
            throw CommandFailure(
                "the study has no consent in \"\(language)\"; it has \(study.languages.map(\.tag).joined(separator: ", "))")
        }
        return translated
    }

    /// Loads the study in its default language, with its translations.
    private func loadDefault() throws -> Study {
        let url: URL
        if let study {
            url = URL(fileURLWithPath: study)
        } else if let sample = SampleStudy.folder {
            url = sample
        } else {
            throw CommandFailure("the bundled sample study is not installed beside consentctl; name a study folder")
        }
        do {
            return try Study.load(from: url)
        } catch let error as ConsentCoreError {
            throw CommandFailure(error.description)
        }
    }
}

/// A failure the command has fully described: printed as "consentctl: <message>", exit status 1.
struct CommandFailure: Error, CustomStringConvertible {
    var description: String
    init(_ message: String) { description = message }
}
