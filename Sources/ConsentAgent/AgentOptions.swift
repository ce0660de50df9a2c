import Foundation
import Logging

/// What consentd's command line says; nil (or false) is "not given", so the config file or the default decides.
/// The values are as parsed (numbers and words); `AgentOptions.merge` checks each once, by the type the config
/// file's key has (Sources/ConsentAgent/SettingValues.swift).
public struct AgentFlags: Sendable, Hashable {
    public var studies: [String] = []
    public var socket: String?
    public var stateDir: String?
    public var logLevel: String?
    public var inactivityTimeout: Double?
    public var clientKillTimeout: Double?
    public var shutdownTimeout: Double?
    public var maxLineBytes: Int?
    public var outboundQueueMessages: Int?
    public var pad: String?
    public var noPads = false
    public var padIncludeUninitialized = false
    /// `--printer NAME`: the CUPS destination of the participant's copy.
    public var printer: String?

    public init() {}
}

/// The agent's options with the command line and the config file merged: a flag wins over the file's key, the
/// file's key over the default. Pure (no file, socket or device is touched), so every key's precedence is tested
/// (`AgentOptionsTests`); consentd's composition root only acts on the result.
public struct AgentOptions: Sendable {
    /// The listener's settings; `inheritedSocket` is for the caller to fill (systemd's socket is an environment fact).
    public var configuration: AgentConfiguration
    public var logLevel: Logger.Level
    /// The study folders or Contract files; empty means the bundled sample study.
    public var studyPaths: [String]
    /// The signature pads' settings, nil when the agent runs without pads (UIs submit strokes).
    public var pads: LinuxPadProvider.Configuration?
    /// Where and when the participant's copy is printed; nil: never (no printer, or `printCopy` "never").
    public var printing: PrintSettings?
    /// The person obtaining consent's countersignature (`staffCountersignature: required`); nil: off.
    public var staff: StaffSettings?

    /// A value the merge cannot use, named by its flag or key.
    public struct Invalid: Error, Sendable, Hashable, CustomStringConvertible {
        public var description: String
        public init(_ description: String) { self.description = description }
    }

    /// - Parameter defaultSocketPath: the socket when neither `--socket` nor `socket` names one.
    /// The file's values arrive checked (`AgentConfigFile.parse` read them into their types); a flag's value is
    /// checked here by the same type, and the rules between keys (a warning shorter than the timeout, `printCopy`
    /// needing a printer, `--pad` with `--no-pads`, `staffCountersignature` needing `staffFile`) once, after merging.
    /// - Throws: `Invalid` for a flag out of range (a zero timeout, an unknown log level) or a rule between keys.
    public static func merge(
        flags: AgentFlags, file: AgentConfigFile, defaultSocketPath: String = AgentConfiguration.defaultSocketPath()
    ) throws(Invalid) -> AgentOptions {
        // The flag's refusal keeps the words consentd has always printed for it (the usage error of `--log-level`).
        var level = file.logLevel ?? .info
        if let name = flags.logLevel {
            guard let flagged = Logger.Level(rawValue: name) else {
                throw Invalid("Unknown log level \(name); use trace, debug, info, notice, warning, error or critical.")
            }
            level = flagged
        }
        var configuration = AgentConfiguration(
            socketPath: flags.socket ?? file.socket ?? defaultSocketPath,
            stateDirectory: URL(fileURLWithPath: flags.stateDir ?? file.stateDir ?? "./state"))
        configuration.peerPolicy = PeerPolicy(allowedPeers: file.allowedPeers)
        // A file's values were checked when the file was read (they are `SettingSeconds`, `SettingCount`, …); a flag's
        // are checked here, once, by the same type, so a key and its flag say the same thing when refused.
        if let v = try flag(flags.inactivityTimeout, "--inactivity-timeout", SettingSeconds.init) ?? file.inactivityTimeoutSeconds {
            configuration.inactivityTimeout = v.duration
        }
        if let warning = file.inactivityWarningSeconds {
            if let seconds = warning.seconds, seconds.duration >= configuration.inactivityTimeout {
                throw Invalid("inactivityWarningSeconds must be shorter than the inactivity timeout.")
            }
            configuration.inactivityWarning = warning.seconds?.duration
        }
        if let v = try flag(flags.shutdownTimeout, "--shutdown-timeout", SettingSeconds.init) {
            configuration.shutdownTimeout = v.duration
        }
        if let v = try flag(flags.clientKillTimeout, "--client-kill-timeout", SettingSeconds.init) ?? file.clientKillTimeoutSeconds {
            configuration.clientKillTimeout = v.duration
        }
        if let v = try flag(flags.maxLineBytes, "--max-line-bytes", SettingCount.init) ?? file.maxLineBytes {
            configuration.maximumLineBytes = v.value
        }
        if let v = try flag(flags.outboundQueueMessages, "--outbound-queue-messages", SettingCount.init) ?? file.outboundQueueMessages {
            configuration.outboundQueueMessages = v.value
        }
        if let v = file.maxInFlight { configuration.maximumInFlight = v.value }
        if let v = file.minimumSignaturePoints { configuration.minimumSignaturePoints = v.value }
        if let v = file.maxConnections { configuration.maximumConnections = v.value }
        if let v = file.negotiationTimeoutSeconds { configuration.negotiationTimeout = v.duration }
        if let v = file.maxFlows { configuration.maximumFlows = v.value }
        if let v = file.closedConnectionFlowGraceSeconds { configuration.closedConnectionFlowGrace = v.duration }
        if let v = file.closedConnectionFlowBeforeNameGraceSeconds {
            configuration.closedConnectionFlowBeforeNameGrace = v.duration
        }
        if let v = file.minimumInkLength { configuration.minimumInkLength = v.value }
        if flags.pad != nil, flags.noPads { throw Invalid("--pad and --no-pads contradict each other; pass one.") }
        // Flags override the file: `--pad` brings pads back even when the file says noPads.
        let withoutPads = flags.noPads || (flags.pad == nil && file.noPads == true)
        let pads = withoutPads ? nil : LinuxPadProvider.Configuration(
            preferredPad: flags.pad ?? file.pad, includesUninitializedDevices: flags.padIncludeUninitialized,
            minimumPoints: configuration.minimumSignaturePoints, minimumInkLength: configuration.minimumInkLength)
        let printer = try flag(flags.printer, "--printer", PrinterName.init) ?? file.printer
        if printer == nil, let mode = file.printCopy, mode != .never {
            throw Invalid("printCopy \"\(mode.rawValue)\" needs a printer (the printer key or --printer).")
        }
        var printing: PrintSettings?
        if let printer, case let mode = file.printCopy ?? .offer, mode != .never {
            printing = PrintSettings(
                destination: printer.name, mode: mode, timeout: file.printTimeoutSeconds?.duration ?? PrintSettings.defaultTimeout,
                paper: file.paper)
        }
        var staff: StaffSettings?
        if file.staffCountersignature == .required {
            guard let path = file.staffFile else {
                throw Invalid("staffCountersignature \"required\" needs staffFile (the file consentctl staff add writes).")
            }
            staff = StaffSettings(file: path, lockoutSeconds: file.staffLockoutSeconds?.seconds ?? StaffSettings.defaultLockoutSeconds)
        }
        return AgentOptions(
            configuration: configuration, logLevel: level, studyPaths: flags.studies.isEmpty ? file.studies ?? [] : flags.studies,
            pads: pads, printing: printing, staff: staff)
    }

    /// A flag's value through its type's rule (nil: not given); a refusal names the flag.
    private static func flag<Raw, Value>(
        _ raw: Raw?, _ name: String, _ make: (Raw) throws(SettingRefusal) -> Value
    ) throws(Invalid) -> Value? {
        guard let raw else { return nil }
        do { return try make(raw) } catch { throw Invalid("\(name) \(error.rule).") }
    }
}
