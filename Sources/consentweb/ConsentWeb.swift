import ArgumentParser
import Foundation
import KioskBridge
import KioskUI
import Logging

/// consentweb: the kiosk's browser-side bridge. Serves the reference UI and relays `/rpc` WebSockets to consentd.
/// Its first line on standard output, once it listens, is the URL to open (token included).
@main
struct ConsentWeb: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "consentweb",
        abstract: "Serves the kiosk UI on loopback and relays its WebSocket /rpc to consentd's UNIX socket.")

    @Option(name: .long, help: "consentd's socket.")
    var socket: String = ProcessInfo.processInfo.environment["XDG_RUNTIME_DIR"].map { "\($0)/consentd.sock" }
        ?? "./run/consentd.sock"

    @Option(name: .long, help: "HOST:PORT to listen on; 127.0.0.1 or [::1] only (port 0: any free port).")
    var listen: String = "127.0.0.1:8080"

    @Option(name: .customLong("token-file"), help: "Read the token from this file (mode 0600) instead of making a random one.")
    var tokenFile: String?

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
            let token = try tokenFile.map(BridgeToken.read(from:)) ?? .random()
            let folder = ui.map { URL(fileURLWithPath: $0) } ?? KioskUIFiles.folder
            server = try BridgeServer(
                configuration: BridgeConfiguration(socketPath: socket, listen: address, token: token, uiFolder: folder),
                logger: logger)
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
        let url: String
        do {
            url = try await server.start()
        } catch {
            FileHandle.standardError.write(Data("consentweb: cannot listen on \(listen): \(error)\n".utf8))
            throw ExitCode(1)
        }
        // The contract kiosk sessions rely on: the first line on stdout is the URL to open.
        FileHandle.standardOutput.write(Data((url + "\n").utf8))

        try await server.waitUntilClosed()
        logger.info("stopped")
    }
}
