import ArgumentParser
import Foundation
import PausedFlows

/// `consentctl prune`: deletes the paused flows (`flow.pause`) past their day, as consentd does once a minute. For a
/// kiosk whose agent is stopped, or before a state directory is archived. The agent's audit log is the agent's
/// alone (one writer keeps its chain), so a deletion here is printed, not audited.
struct Prune: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Delete the paused flows whose resume code has expired (resumeDays).",
        discussion: """
            Reads only each paused flow's expiry, which is stored beside its sealed state; the pause key is not \
            needed. Exit status: 0, also when nothing had expired.
            """)

    @Option(help: ArgumentHelp("The agent's state directory; paused flows are paused/ there.", valueName: "DIR"))
    var stateDir = "./state"

    @Flag(help: "Print {\"deleted\": [ids], \"waiting\": n} as JSON.")
    var json = false

    struct Report: Encodable {
        /// The ids of the paused flows deleted (the audit log's `pause`; never a resume code).
        var deleted: [String]
        /// Paused flows still within their day.
        var waiting: Int
    }

    func run() throws {
        let store = PausedFlowStore(stateDirectory: stateDir)
        let deleted = store.pruneExpired(now: Date())
        let report = Report(deleted: deleted, waiting: store.count())
        if json {
            print(try JSONOutput.text(report))
        } else {
            print("Deleted \(deleted.count) expired paused flow(s); \(report.waiting) still waiting.")
            for id in deleted { print("  \(id)") }
        }
    }
}
