import ArgumentParser
import AuditTrail
import Foundation

extension Audit {
    /// `consentctl audit exercise` (hidden): appends synthetic consent flows to a *new* audit log until killed.
    ///
    /// It exists for the crash test (kill -9 at an arbitrary moment, rotation included, must leave a chain that
    /// verifies). It refuses a state directory that has an audit log already, so it cannot add synthetic events
    /// to a kiosk's real trail.
    struct Exercise: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Write synthetic flows to a new audit log (crash tests).", shouldDisplay: false)

        @OptionGroup var state: StateDirectory

        @Option(help: "Rotate audit.log at this size.")
        var maxBytes = 4096

        @Option(help: "Stop after this many flows (default: run until killed).")
        var flows: Int?

        func run() throws {
            let directory = state.auditDirectory
            if FileManager.default.fileExists(atPath: directory.path) {
                throw CommandFailure("\(directory.path): an audit log exists already; exercise only writes new ones")
            }
            let log: AuditLog
            let study: AuditStudy
            do {
                log = try AuditLog(directory: directory, kiosk: try AuditIdentifier("exercise-kiosk"), maxFileBytes: maxBytes)
                study = AuditStudy(id: try AuditIdentifier("exercise"), version: AuditDigest(sha256Of: Data("exercise".utf8)))
            } catch let error as AuditTrailError {
                throw CommandFailure(error.description)
            }
            var count = 0
            while flows.map({ count < $0 }) ?? true {
                let flow = AuditIdentifier(UUID())
                try log.append(.flowStarted(flow: flow, study: study))
                try log.append(.eligibilityResult(flow: flow, study: study, eligible: true, answered: 4, questions: 4))
                for scene in 0..<3 {
                    try log.append(.stepReached(flow: flow, study: study, step: .visual, index: scene))
                }
                try log.append(.signatureCaptured(flow: flow, study: study, signer: .participant, strokes: 3, points: 120))
                try log.append(.completed(flow: flow, study: study, record: AuditIdentifier(UUID())))
                count += 1
                if count == 1 { FileHandle.standardOutput.write(Data("first flow written\n".utf8)) }
            }
            try log.close()
        }
    }
}
