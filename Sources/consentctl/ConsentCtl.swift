import ArgumentParser

/// Tools for study coordinators and technicians: inspect and proof a study, sign offline, verify records,
/// check signature pads.
@main
struct ConsentCtl: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "consentctl",
        abstract: "Tools for consent-kiosk studies, records and signature pads.",
        version: "0.1.0",
        subcommands: [
            Inspect.self, Lint.self, Walk.self, Preview.self, Sign.self, Verify.self, Decrypt.self, Audit.self, Queue.self,
            Pads.self, Capture.self, Record.self, SignatureCommand.self, Escrow.self, Copy.self, Staff.self,
            StudyCommand.self, Studies.self, Reconsent.self, Reload.self, Prune.self,
        ])
}
