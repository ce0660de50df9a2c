import LocalSocket
import ArgumentParser
import Foundation
import KioskBridge
import KioskUI
import Logging

/// consentweb: the kiosk's browser-side bridge. Serves the reference UI and relays `/rpc` WebSockets to consentd.
/// Its first line on standard output, once it listens, is the URL to open: with the token when the token was made
/// here (a terminal's `make run`), without it when it came from `--token-file` (a service, whose standard output
/// is the journal: the kiosk's browser then opens `--launch-page`).
@main
struct ConsentWeb: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "consentweb",
        abstract: "Serves the kiosk UI on loopback and relays its WebSocket /rpc to consentd's UNIX socket.")

    @Option(name: .long, help: "consentd's socket.")
    var socket: String = LocalSocket.defaultAgentPath(environment: ProcessInfo.processInfo.environment)

    @Option(name: .long, help: "HOST:PORT to listen on; 127.0.0.1 or [::1] only (port 0: any free port).")
    var listen: String = "127.0.0.1:8080"

    @Option(name: .customLong("token-file"), help: "Read the token from this file (mode 0600) instead of making a random one.")
    var tokenFile: String?

    @Option(
        name: .customLong("staff-token-file"),
        help: ArgumentHelp(
            "Read the staff page's token from this file (mode 0600) instead of making a random one.",
            discussion: "The staff page (/staff, its WebSocket /staff/rpc) takes only this token, and the kiosk's page only "
                + "the other: each is granted its own capabilities."))
    var staffTokenFile: String?

    @Option(
        name: .customLong("launch-page"),
        help: ArgumentHelp(
            "Write a page (mode 0600) that forwards a browser to the UI with the token; open it as file://FILE.",
            discussion: "Keeps the token out of the browser's command line, which every local user can read."))
    var launchPage: String?

    @Option(
        name: .customLong("max-connections"),
        help: "At most this many connections at once (default: half the open-file limit, less a few).")
    var maxConnections: Int?

    @Option(name: .long, help: "Serve the UI from this folder instead of the bundled one (UI development).")
    var ui: String?

    @Option(name: .customLong("log-level"), help: "trace, debug, info, notice, warning, error or critical.")
    var logLevel: String = "info"

    func run() async throws {
        var logger = Logger(label: "consentweb")
        logger.logLevel = Logger.Level(rawValue: logLevel) ?? .info
        let server: BridgeServer
        do {
            let address = try ListenAddress(parsing: listen)
            let token = try tokenFile.map { try BridgeToken.read(from: $0) } ?? .random()
            let staffToken = try staffTokenFile.map { try BridgeToken.read(from: $0, option: "--staff-token-file") } ?? .random()
            guard staffToken != token else { throw BridgeConfigurationError.sameTokens }
            let folder = ui.map { URL(fileURLWithPath: $0) } ?? KioskUIFiles.folder
            var configuration = BridgeConfiguration(
                socketPath: socket, listen: address, token: token, staffToken: staffToken, uiFolder: folder)
            if let maxConnections {
                guard maxConnections > 0 else { throw BridgeConfigurationError.malformedMaxConnections(maxConnections) }
                configuration.maxConnections = maxConnections
            } else {
                var limit = rlimit()
                if getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0, limit.rlim_cur != rlim_t.max {
                    configuration.maxConnections = BridgeConfiguration.defaultMaxConnections(
                        descriptorLimit: Int(clamping: limit.rlim_cur))
                }
            }
            server = try BridgeServer(configuration: configuration, logger: logger)
        } catch let error as BridgeConfigurationError {
            FileHandle.standardError.write(Data("consentweb: \(error)\n".utf8))
            throw ExitCode(2)
        }
        // Before the URL is printed: whoever reads it may stop us at once. The stop waits for the bind in
        // `start()` if it comes first. A signal before this line ends the process (the default action).
        do {
            try StopSignals.onFirst { Task { await server.stop() } }
        } catch {
            FileHandle.standardError.write(Data("consentweb: \(error)\n".utf8))
            throw ExitCode(1)
        }
        let address: String
        do {
            address = try await server.start()
        } catch {
            FileHandle.standardError.write(Data("consentweb: cannot listen on \(listen): \(error)\n".utf8))
            throw ExitCode(1)
        }
        if let launchPage {
            do {
                try LaunchPage.write(to: launchPage, forwardingTo: server.pageURL(address))
            } catch {
                FileHandle.standardError.write(Data("consentweb: \(error)\n".utf8))
                await server.stop()
                try? await server.waitUntilClosed()
                throw ExitCode(1)
            }
        }
        // The contract kiosk sessions rely on: the first line on stdout is the URL to open. A token read from a
        // file stays in files: standard output of a service is the journal. The second line is the staff page's,
        // with its token only when that was made here too (`make run` prints both).
        let url = tokenFile == nil ? server.pageURL(address) : address
        let staffURL = staffTokenFile == nil && tokenFile == nil ? server.staffPageURL(address) : "\(address)staff"
        FileHandle.standardOutput.write(Data((url + "\n" + staffURL + "\n").utf8))

        try await server.waitUntilClosed()
        logger.info("stopped")
    }
}
