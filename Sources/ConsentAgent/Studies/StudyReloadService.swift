import ConsentCore
import ConsentSigning
import Foundation
import Logging
import ServiceLifecycle
import UnixSignals

/// Serves SIGHUP (`systemctl reload consentd`, `consentctl reload`): reads the study paths again and hands the agent
/// the versions it now serves. Flows in progress keep the study they started on (each holds its own copy); a new
/// `flow.start` gets the new versions. A reload that cannot read a study keeps every study as it was.
struct StudyReloadService: Service {
    let core: AgentCore
    let load: @Sendable () throws -> StudyCatalog
    let logger: Logger

    func run() async throws {
        let signals = await UnixSignalsSequence(trapping: .sighup)
        for await _ in signals.cancelOnGracefulShutdown() {
            await reload()
        }
    }

    func reload() async {
        logger.notice("reloading the studies (SIGHUP)")
        do {
            let catalog = try load()
            await core.replaceStudies(catalog)
        } catch {
            logger.error("reload refused: a study cannot be read; the studies are unchanged", metadata: ["error": "\(error)"])
        }
    }
}
