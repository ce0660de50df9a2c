import ArgumentParser
import ConsentCore
import Foundation
import SampleStudy

/// The consent kiosk agent.
///
/// Until the agent issue lands this only loads the studies and reports what it would serve, so `make run`
/// proves the study loads on this machine.
@main
struct Consentd: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "consentd", abstract: "The consent kiosk agent.", version: "0.1.0")

    @Option(name: .customLong("study"), help: "A study folder or Contract file (repeatable). Default: the bundled sample study.")
    var studies: [String] = []

    @Option(help: "The UNIX socket to listen on.")
    var socket: String?

    @Option(help: "The folder for records, keys and queues.")
    var stateDir: String?

    func run() async throws {
        var urls = studies.map { URL(fileURLWithPath: $0) }
        if urls.isEmpty, let sample = SampleStudy.folder { urls = [sample] }
        guard !urls.isEmpty else {
            throw ValidationError("No study given and the bundled sample study is not installed; pass --study DIR.")
        }
        for url in urls {
            let study: Study
            do {
                study = try Study.load(from: url)
            } catch let error as ConsentCoreError {
                throw ValidationError("Cannot load study: \(error)")
            }
            print("consentd: loaded study \(study.id) version \(study.shortVersion): \(study.document.sections.count) sections, \(study.document.eligibility.count) eligibility questions, \(study.warnings.count) warnings")
        }
        print("consentd: the socket agent is not built yet; exiting")
    }
}
