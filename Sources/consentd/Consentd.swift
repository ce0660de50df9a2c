import ArgumentParser
import ConsentAgent
import ConsentCore
import Foundation
import Logging
import SampleStudy
import ServiceLifecycle

/// The consent kiosk agent: serves kiosk UIs JSON-RPC lines on a UNIX socket until SIGTERM or SIGINT.
@main
struct Consentd: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "consentd", abstract: "The consent kiosk agent.",
        discussion: "Protocol: Protocol/README.md; try it with `socat - UNIX-CONNECT:<socket>`.", version: "0.1.0")

    @Option(name: .customLong("study"), help: "A study folder or Contract file (repeatable). Default: the bundled sample study.")
    var studies: [String] = []

    @Option(help: "The UNIX socket to listen on. Default: $XDG_RUNTIME_DIR/consentd.sock, else ./run/consentd.sock.")
    var socket: String?

    @Option(help: "The folder for records, keys and queues. Default: ./state.")
    var stateDir: String?

    @Option(help: "A JSON config file; flags override it.")
    var config: String?

    @Option(help: "trace, debug, info, notice, warning, error or critical. Default: info.")
    var logLevel: String?

    @Option(help: ArgumentHelp("Seconds without activity after which a flow expires. Default: 600.", visibility: .hidden))
    var inactivityTimeout: Double?

    @Option(help: ArgumentHelp("Seconds a client may leave its socket unread before it is disconnected. Default: 10.", visibility: .hidden))
    var clientKillTimeout: Double?

    @Option(help: ArgumentHelp("The longest accepted line, in bytes. Default: 1048576.", visibility: .hidden))
    var maxLineBytes: Int?

    @Option(help: ArgumentHelp("The bound of each client's outbound queue, in messages. Default: 1000.", visibility: .hidden))
    var outboundQueueMessages: Int?

    @Option(help: "The signature pad to use when a UI names none: a node (/dev/input/eventN) or (part of) its name. Default: a pad tagged by the udev rule, then a tablet, then a touch screen.")
    var pad: String?

    @Flag(help: "Run without signature pads: UIs submit the strokes they capture themselves.")
    var noPads = false

    @Flag(help: ArgumentHelp("Also use devices udev has not initialised (umockdev test beds only).", visibility: .hidden))
    var padIncludeUninitialized = false

    func run() async throws {
        var file = AgentConfigFile()
        if let config {
            do { file = try AgentConfigFile.load(from: URL(fileURLWithPath: config)) } catch let error as AgentError {
                throw ValidationError(error.message)
            }
        }
        let levelName = logLevel ?? file.logLevel ?? "info"
        guard let level = Logger.Level(rawValue: levelName) else {
            throw ValidationError("Unknown log level \(levelName); use trace, debug, info, notice, warning, error or critical.")
        }
        LoggingSystem.bootstrap { label in
            var handler = StreamLogHandler.standardError(label: label)
            handler.logLevel = level
            return handler
        }
        let logger = Logger(label: "consentd")

        var configuration = AgentConfiguration(
            socketPath: socket ?? file.socket ?? AgentConfiguration.defaultSocketPath(),
            stateDirectory: URL(fileURLWithPath: stateDir ?? file.stateDir ?? "./state"))
        if let v = inactivityTimeout ?? file.inactivityTimeoutSeconds { configuration.inactivityTimeout = try seconds(v, "inactivity-timeout") }
        if let v = clientKillTimeout ?? file.clientKillTimeoutSeconds { configuration.clientKillTimeout = try seconds(v, "client-kill-timeout") }
        if let v = maxLineBytes ?? file.maxLineBytes { configuration.maximumLineBytes = try positive(v, "max-line-bytes") }
        if let v = outboundQueueMessages ?? file.outboundQueueMessages { configuration.outboundQueueMessages = try positive(v, "outbound-queue-messages") }
        if let v = file.maxInFlight { configuration.maximumInFlight = try positive(v, "maxInFlight") }
        if let v = file.minimumSignaturePoints { configuration.minimumSignaturePoints = try positive(v, "minimumSignaturePoints") }
        if let v = file.minimumInkLength {
            guard v.isFinite, v >= 0 else { throw ValidationError("minimumInkLength must be a number of 0 or more.") }
            configuration.minimumInkLength = v
        }
        if pad != nil, noPads { throw ValidationError("--pad and --no-pads contradict each other; pass one.") }
        // Flags override the file: `--pad` brings pads back even when the file says noPads.
        let withoutPads = noPads || (pad == nil && file.noPads == true)
        let pads = withoutPads ? nil : LinuxPadProvider.Configuration(
            preferredPad: pad ?? file.pad, includesUninitializedDevices: padIncludeUninitialized,
            minimumPoints: configuration.minimumSignaturePoints, minimumInkLength: configuration.minimumInkLength)

        let loaded = try loadStudies(studies.isEmpty ? file.studies ?? [] : studies, logger: logger)
        let services = makeServices(configuration: configuration, pads: pads, studies: loaded, logger: logger)
        let group = ServiceGroup(
            configuration: .init(services: services, gracefulShutdownSignals: [.sigterm, .sigint], logger: logger))
        do {
            try await group.run()
        } catch let error as AgentError {
            logger.critical("cannot serve", metadata: ["reason": "\(error.message)"])
            throw ExitCode.failure
        }
    }

    /// Assembles the services, in start order: the pad service, then the listener. ServiceGroup stops them in
    /// reverse, so on SIGTERM the listener stops accepting first and the pad is released after it. THE SEAMS: the
    /// integrator swaps `JSONRecordMaker` for ConsentSigning's record writer (a `RecordMaking`) and passes ConsentPDF
    /// as the `PDFRendering` if the stand-in stays.
    ///
    /// - Parameter pads: nil runs without pads (`--no-pads`).
    func makeServices(
        configuration: AgentConfiguration, pads: LinuxPadProvider.Configuration?, studies: [Study], logger: Logger
    ) -> [ServiceGroupConfiguration.ServiceConfiguration] {
        let recordMaker: any RecordMaking = JSONRecordMaker(stateDirectory: configuration.stateDirectory, renderer: nil)
        let padService = pads.map { LinuxPadProvider(configuration: $0, logger: Logger(label: "consentd.pads")) }
        if padService == nil { logger.info("running without signature pads (--no-pads)") }
        let core = AgentCore(
            studies: studies,
            settings: .init(
                inactivityTimeout: configuration.inactivityTimeout,
                minimumSignaturePoints: configuration.minimumSignaturePoints,
                stateDirectory: configuration.stateDirectory),
            hub: EventHub(), recordMaker: recordMaker, pads: padService ?? NoPadProvider(), logger: logger)
        let agent = AgentService(
            configuration: configuration, core: core, discoverDocument: DiscoverDocument.load(), logger: logger)
        return (padService.map { [.init(service: $0)] } ?? []) + [.init(service: agent)]
    }

    func loadStudies(_ paths: [String], logger: Logger) throws -> [Study] {
        var urls = paths.map { URL(fileURLWithPath: $0) }
        if urls.isEmpty, let sample = SampleStudy.folder { urls = [sample] }
        guard !urls.isEmpty else {
            throw ValidationError("No study given and the bundled sample study is not installed; pass --study DIR.")
        }
        return try urls.map { url in
            do {
                let study = try Study.load(from: url)
                logger.info("study loaded", metadata: ["study": "\(study.id)", "version": "\(study.shortVersion)"])
                return study
            } catch let error as ConsentCoreError {
                throw ValidationError("Cannot load study: \(error)")
            }
        }
    }

    private func seconds(_ v: Double, _ name: String) throws -> Duration {
        guard v.isFinite, v > 0 else { throw ValidationError("\(name) must be a positive number of seconds.") }
        return .milliseconds(Int64((v * 1000).rounded()))
    }

    private func positive(_ v: Int, _ name: String) throws -> Int {
        guard v > 0 else { throw ValidationError("\(name) must be positive.") }
        return v
    }
}
