// Debug builds only: `@testable import` needs `-enable-testing` (see FuzzProtocol/ProtocolFuzzer.swift).
#if DEBUG
import Foundation
import FuzzStudy
import SampleStudy

@testable import ConsentCore

/// Loads one input as a study's JSON files, the way `Study.load` does, without touching the disk for it:
/// `JSONValue.parse` → `ContractConverter.document` (HTML pages named by the Contract are looked up in the sample
/// study's folder, so `htmlContentFile` reads real files) → the review document and a walk of the consent through
/// every step the Contract makes; the same value also goes through the `options.json` and `intro.json` readers.
///
/// `JSONValue.parse` is the JSON module's own parser (in a document's form), so coverage sees the parsing too.
final class ContractFuzzer: Sendable {
    let folder: URL
    let sample: Study

    init() throws {
        guard let folder = SampleStudy.folder else { throw CocoaError(.fileNoSuchFile) }
        self.folder = folder
        // Kept for the whole run: FuzzStudy says why not `Study.load` as it is.
        self.sample = FuzzStudy.ownedByThisThread(try Study.load(from: folder))
    }

    func run(_ input: [UInt8]) {
        guard let json = try? JSONValue.parse(Data(input)) else { return }

        let reader = StudyFileReader(root: folder, maximumFileBytes: 1 << 20)
        if let document = try? ContractConverter.document(from: json, contractFile: "contract.json", files: reader) {
            var study = sample
            study.contract = json
            study.document = document
            study.id = json["id"]?.stringValue ?? "fuzz"
            _ = ReviewDocument.html(for: study)
            walk(study)
        }
        if let options = try? ConsentOptions.from(json: json, file: "options.json") {
            var study = sample
            study.options = options
            walk(study)
        }
        if (try? StudyIntroValidation.check(json, file: "intro.json")) != nil {
            _ = EligibilityMessages.from(introConfig: json, file: "intro.json")
        }
    }

    /// Takes a consent as far as it goes, reading the view model of every step on the way.
    private func walk(_ study: Study) {
        var session = ConsentSession(id: "f-fuzz", study: study, now: .zero)
        let answers = study.document.eligibility.map { Optional($0.mustBeMet) }
        let strokes = SignatureStrokes(strokes: [(0..<12).map { StrokePoint(x: Double($0) / 12, y: 0.5, t: Double($0) * 10, p: 0.5) }])
        let actions: [ConsentAction] = [
            .answerEligibility(answers), .chooseSharing(shareWidely: true), .agree,
            .setName(given: "Ada", family: "Lovelace"), .submitSignature(strokes), .setPasscode("123456"),
        ]
        for _ in 0..<64 {
            _ = session.viewModel
            if session.step.isFinished || session.step == .done { break }
            let before = session.viewModel
            _ = try? session.apply(.next(session.step), now: .zero)
            if session.viewModel != before { continue }
            var moved = false
            for action in actions {
                guard (try? session.apply(action, now: .zero)) != nil else { continue }
                moved = true
                break
            }
            if !moved { break }
        }
        _ = try? session.outcome()
    }
}
#endif
