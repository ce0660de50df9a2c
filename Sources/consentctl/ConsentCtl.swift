import ArgumentParser
import ConsentPDF
import Foundation

/// Tools for study coordinators and technicians: inspect and proof a study, sign offline, verify records,
/// check signature pads.
@main
struct ConsentCtl: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "consentctl",
        abstract: "Tools for consent-kiosk studies, records and signature pads.",
        version: "0.1.0",
        subcommands: [
            Inspect.self, Preview.self, Sign.self, Verify.self, Audit.self, Queue.self,
            Pads.self, Capture.self, Record.self,
        ])

    /// Every command renders on the calling task and is done when the process exits, whether it returns or exits
    /// with an error (ArgumentParser calls `exit`), so an exit handler is the one place that covers both.
    static func main() async {
        atexit { FontLibrary.release() }
        await main(nil)
    }
}
