import ArgumentParser
import ConsentAgent
import Foundation
import Logging

/// The consent kiosk agent: serves kiosk UIs JSON-RPC lines on a UNIX socket until SIGTERM or SIGINT.
@main
struct Consentd: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "consentd", abstract: "The consent kiosk agent.",
        discussion: """
            Protocol: Protocol/README.md; try it with `socat - UNIX-CONNECT:<socket>`.
            The socket's folder must admit only the agent's user and the UI's group (0750; created so when missing). \
            With allowedPeers in the config file, each connection's uid and groups are checked (docs/CONFIGURATION.md). \
            SIGTERM or SIGINT: finish the records being written (at most 30 s), send every client agent.stopping, \
            close, exit 0.
            """, version: "0.1.0")

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

    @Option(help: "Seconds without activity after which a flow expires. Default: 600.")
    var inactivityTimeout: Double?

    @Option(help: "Seconds a client may leave its socket unread before it is disconnected. Default: 10.")
    var clientKillTimeout: Double?

    @Option(help: "Seconds SIGTERM waits for records being written before it says goodbye anyway. Default: 30.")
    var shutdownTimeout: Double?

    @Option(help: "The longest accepted line, in bytes. Default: 1048576.")
    var maxLineBytes: Int?

    @Option(help: "The bound of each client's outbound queue, in messages. Default: 1000.")
    var outboundQueueMessages: Int?

    @Option(help: "The signature pad to use when a UI names none: a node (/dev/input/eventN) or (part of) its name. Default: a pad tagged by the udev rule, then a tablet, then a touch screen.")
    var pad: String?

    @Flag(help: "Run without signature pads: UIs submit the strokes they capture themselves.")
    var noPads = false

    @Option(help: "The CUPS destination the participant's copy is printed on (config key printer). Default: none, no copy is printed.")
    var printer: String?

    @Flag(help: ArgumentHelp("Also use devices udev has not initialised (umockdev test beds only).", visibility: .hidden))
    var padIncludeUninitialized = false

    @Option(help: ArgumentHelp(
        "Benchmarks only: a FIFO of raw input_event records to use as the only signature pad (x, y 0-32767, pressure 0-4095).",
        visibility: .hidden))
    var padEventFifo: String?

    /// What the command line says, for `AgentOptions.merge`.
    var flags: AgentFlags {
        var flags = AgentFlags()
        flags.studies = studies
        flags.socket = socket
        flags.stateDir = stateDir
        flags.logLevel = logLevel
        flags.inactivityTimeout = inactivityTimeout
        flags.clientKillTimeout = clientKillTimeout
        flags.shutdownTimeout = shutdownTimeout
        flags.maxLineBytes = maxLineBytes
        flags.outboundQueueMessages = outboundQueueMessages
        flags.pad = pad
        flags.noPads = noPads
        flags.padIncludeUninitialized = padIncludeUninitialized
        flags.printer = printer
        return flags
    }

    /// The flags alone, before anything starts: a wrong flag is a usage error (the usage is printed, exit 64). The
    /// same merge `run()` makes, with no config file, so a flag's rules live in one place.
    func validate() throws {
        do { _ = try AgentOptions.merge(flags: flags, file: AgentConfigFile(), defaultSocketPath: "") } catch {
            throw ValidationError(error.description)
        }
    }

    func run() async throws {
        var file = AgentConfigFile()
        if let config {
            do { file = try AgentConfigFile.load(from: URL(fileURLWithPath: config)) } catch let error as AgentError {
                throw AgentStartupError(error.message)
            }
        }
        let options: AgentOptions
        do { options = try AgentOptions.merge(flags: flags, file: file) } catch { throw AgentStartupError(error.description) }
        let level = options.logLevel
        // Under systemd, stderr is the journal: priority-prefixed lines without timestamps.
        let toJournal = JournalLogHandler.isStandardErrorJournal()
        LoggingSystem.bootstrap { label in
            var handler: any LogHandler =
                toJournal ? JournalLogHandler(label: label) : StreamLogHandler.standardError(label: label)
            handler.logLevel = level
            return handler
        }
        let logger = Logger(label: "consentd")
        // Before any participant data exists: no core dump, no same-uid ptrace or /proc/<pid>/mem reads.
        if ProcessHardening.makeNonDumpable() {
            logger.debug("process is not dumpable: no core dumps, no ptrace by the same user")
        } else {
            logger.warning("cannot make the process non-dumpable; a core dump could hold participant data")
        }
        // Large replies (speech audio, a record's PDF) go back to the kernel when freed, not into malloc's arenas.
        if !LargeAllocations.returnToTheKernelWhenFreed() {
            logger.debug("malloc keeps its own mmap threshold (a sanitizer's allocator)")
        }
        // A file-size limit (RLIMIT_FSIZE) must fail the write with EFBIG, a typed RecordFailed, not kill the agent.
        signal(SIGXFSZ, SIG_IGN)
        let assembly = AgentAssembly(
            options: options, file: file, padEventFIFO: padEventFifo, socketFlagGiven: socket != nil)
        do {
            try await assembly.run(logger: logger)
        } catch let error as AgentError {
            logger.critical("cannot serve", metadata: ["reason": "\(error.message)"])
            throw ExitCode.failure
        }
    }
}
