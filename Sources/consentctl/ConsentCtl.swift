import ArgumentParser

// Local root command for the pad subcommands; the integrator merges the subcommand lists into the real root.
@main
struct ConsentCtl: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "consentctl",
        abstract: "Inspect and exercise a consent kiosk.",
        subcommands: [Pads.self, Capture.self, Record.self])
}
