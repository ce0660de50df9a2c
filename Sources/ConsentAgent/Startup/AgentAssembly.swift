import AuditTrail
import ConsentCore
import ConsentPDF
import ConsentRecords
import ConsentSigning
import FileBytes
import Foundation
import Logging
import SampleStudy
import ServiceLifecycle
import StaffCredentials
import UploadQueue

/// The agent's composition root: from the merged options and the config file to the running services. It loads the
/// studies, opens the audit log (one agent per state directory), recovers interrupted completions, assembles the
/// record makers (signing, encryption, upload queue, journal), the pads and the listener, and runs them as one
/// `ServiceGroup` until SIGTERM or SIGINT. consentd only parses its flags, merges them (`AgentOptions.merge`) and
/// sets up logging; every runtime failure before serving is an `AgentStartupError` (one line, exit status 1).
public struct AgentAssembly: Sendable {
    public var options: AgentOptions
    /// The config file as read: the keys that are not listener options (upload, encryption, kiosk id, paper…).
    public var file: AgentConfigFile
    /// Benchmarks only: a FIFO of raw input_event records used as the only signature pad.
    public var padEventFIFO: String?
    /// Whether `--socket` was given, so that serving systemd's socket instead is logged.
    public var socketFlagGiven: Bool

    public init(options: AgentOptions, file: AgentConfigFile, padEventFIFO: String? = nil, socketFlagGiven: Bool = false) {
        self.options = options
        self.file = file
        self.padEventFIFO = padEventFIFO
        self.socketFlagGiven = socketFlagGiven
    }

    /// Starts everything and serves until a stop signal has been handled. Logging must be bootstrapped first.
    /// - Throws: `AgentStartupError` when something the agent needs cannot be had (a study, the audit log, a key,
    ///   the upload queue); `AgentError` when the listener cannot serve (a socket in use).
    public func run(logger: Logger) async throws {
        let systemd = SystemdNotifier(logger: logger)

        var configuration = options.configuration
        // A socket from systemd's consentd.socket (LISTEN_FDS) replaces --socket; the LISTEN_* variables are removed.
        do { configuration.inheritedSocket = try SocketActivation.takeInheritedSocket() } catch let error as AgentError {
            throw AgentStartupError(error.message)
        }
        if let path = configuration.inheritedSocket?.path { configuration.socketPath = path }
        if let inherited = configuration.inheritedSocket, socketFlagGiven || file.socket != nil {
            logger.notice("serving the socket systemd passed; the configured socket is not used",
                metadata: ["socket": "\(inherited.path ?? "fd 3")"])
        }
        if let peers = file.allowedPeers {
            logger.info("peers are checked against allowedPeers", metadata: ["uids": "\(peers.uids)", "gids": "\(peers.gids)"])
        } else {
            logger.notice("allowedPeers is not set: the socket's mode and folder alone decide who connects")
        }
        let pads = options.pads

        // A kiosk checking approvals loads only the languages its trusted approvals approve (StudyCatalog.load).
        // Beside it, the audit log is read back to the last start's configuration: after months without a restart,
        // megabytes of flows (docs/PERFORMANCE.md, "Start-up after months of use"). Its error, if any, is reported
        // where it was when the two ran in turn: after the studies', when the log is opened.
        let auditDirectory = AuditLog.directory(stateDirectory: configuration.stateDirectory)
        let ((keyring, catalog), previousConfiguration) = try SideBySide.both(
            { [self] in
                let keyring = try approvalKeyring(file: file, logger: logger)
                return (keyring, try loadStudies(options.studyPaths, approvalKeys: keyring, logger: logger))
            },
            { Result { try AuditLog.lastConfiguration(in: auditDirectory) } })
        let approvals = keyring.map { approvalPolicy(file: file, keyring: $0, catalog: catalog, logger: logger) }
        let loaded = approvals?.served(catalog) ?? catalog.served { _ in true }
        let audit = try openAuditLog(
            configuration: configuration, file: file, studies: loaded, approvals: approvals,
            previousConfiguration: previousConfiguration)
        // After the audit log's lock (one agent per state directory), before serving: no write runs yet.
        let recovery = CompletionRecovery.run(stateDirectory: configuration.stateDirectory)
        reportInterruptedCompletions(recovery, audit: audit, logger: logger)
        var services = try makeServices(
            configuration: configuration, file: file, pads: pads, studies: loaded, audit: audit, systemd: systemd,
            recovery: recovery, approvals: approvals, logger: logger)
        if let watchdog = WatchdogService.fromEnvironment(notifier: systemd, logger: logger) {
            // First to start, last to stop: it pings through the drain of in-flight records.
            services.insert(Self.named(watchdog, "ConsentAgent.WatchdogService"), at: 0)
        }
        let group = ServiceGroup(
            configuration: .init(services: services, gracefulShutdownSignals: [.sigterm, .sigint], logger: logger))
        defer {
            // The listener has stopped and in-flight records are written: the stop closes the chain's session.
            _ = try? audit.append(.agentStopped)
            try? audit.close()
        }
        try await group.run()
    }

    /// A service of the group, with the name its logs show. Given, not derived: the library's default name
    /// interpolates the service itself, which for a struct reflects every stored property, and even
    /// `String(reflecting:)` of its type asks the runtime for three protocol conformances the metatype has none of,
    /// each a scan of every conformance record of the binary (docs/PERFORMANCE.md, "Start-up and idle memory").
    static func named(_ service: some Service, _ name: String) -> ServiceGroupConfiguration.ServiceConfiguration {
        .init(service: service, serviceName: name)
    }

    /// The kiosk id in records, the Provenance and the audit log: configured, else the host name.
    func kioskID(_ file: AgentConfigFile) -> String {
        let hostName = ProcessInfo.processInfo.hostName
        return file.kioskId?.value ?? (hostName.isEmpty ? "kiosk" : hostName)
    }

    /// Opens `<state>/audit/` and records the start, and a configuration change since the last start
    /// (`previousConfiguration`, what `AuditLog.lastConfiguration(in:)` read before the log was opened).
    func openAuditLog(
        configuration: AgentConfiguration, file: AgentConfigFile, studies: [Study], approvals: ApprovalPolicy?,
        previousConfiguration: Result<AuditDigest?, any Error>
    ) throws -> AuditLog {
        let kiosk: AuditIdentifier
        do { kiosk = try AuditIdentifier(kioskID(file)) } catch {
            throw AgentStartupError("kioskId must be letters, digits and . _ : - only (it names the kiosk in the audit log).")
        }
        // What the configuration hash covers: everything that changes what a participant sees or what is recorded.
        var effective: [String: JSONValue] = [
            "kioskId": .string(kiosk.value), "stateDir": .string(configuration.stateDirectory.path),
            "socket": .string(configuration.socketPath),
            "studies": .array(studies.map { .string("\($0.id)@\($0.version)") }),
            "inactivityTimeoutMs": .integer(Int64(configuration.inactivityTimeout.components.seconds * 1000)),
            "minimumSignaturePoints": .integer(Int64(configuration.minimumSignaturePoints)),
            "fhirMode": .string((file.fhirMode ?? .r4).rawValue), "paper": file.paper.map { .string($0.rawValue) } ?? .null,
            "siteAddress": file.siteAddress ?? .null,
        ]
        // Only when set, so a configuration without them keeps the digest it had before these keys existed.
        if let locale = file.locale { effective["locale"] = .string(locale.identifier) }
        if let zone = file.timeZone { effective["timeZone"] = .string(zone.identifier) }
        if let escrow = file.biometricEscrow { effective["biometricEscrowKeyId"] = .string(escrow.keyID) }
        if let approvals {
            effective["approvalKeys"] = .array(approvals.keyring.fingerprints.map(JSONValue.string))
            effective["site"] = approvals.site.map(JSONValue.string) ?? .null
        }
        do {
            let digest = AuditDigest(sha256Of: try JSONValue.object(effective).serialized())
            let previous = try previousConfiguration.get()
            let log = try AuditLog(stateDirectory: configuration.stateDirectory, kiosk: kiosk)
            try log.append(.agentStarted(configuration: digest, studies: studies.count))
            if let previous, previous != digest { try log.append(.configurationChanged(previous: previous, current: digest)) }
            return log
        } catch let error as AuditTrailError {
            throw AgentStartupError("Cannot open the audit log: \(error)")
        }
    }

    /// Assembles the services: the signed record maker (ConsentRecords), the upload queue, the pads, the listener.
    private func makeServices(
        configuration: AgentConfiguration, file: AgentConfigFile, pads: LinuxPadProvider.Configuration?, studies: [Study],
        audit: AuditLog, systemd: SystemdNotifier, recovery: CompletionRecovery.Report = .init(),
        approvals: ApprovalPolicy? = nil, logger: Logger
    ) throws -> [ServiceGroupConfiguration.ServiceConfiguration] {
        var services: [ServiceGroupConfiguration.ServiceConfiguration] = []
        let writer = try makeRecordMaker(configuration: configuration, file: file, logger: logger)
        var upload: UploadService?
        if let settings = file.upload {
            let queue: UploadQueueService
            do {
                queue = try UploadQueueService(
                    stateDirectory: configuration.stateDirectory, configuration: settings, audit: audit, logger: logger)
            } catch {
                throw AgentStartupError("Cannot set up the upload queue: \(error)")
            }
            upload = queue.upload
            queueKeptRecords(recovery, upload: queue.upload, stateDirectory: configuration.stateDirectory, logger: logger)
            do { try queue.upload.removeOrphanedPayloads() } catch {
                logger.warning("cannot check the upload payloads for leftovers", metadata: ["error": "\(error)"])
            }
            services.append(Self.named(queue, "ConsentAgent.UploadQueueService"))
        }
        // flow.complete's record makers, journal outermost (Completion/FlowCompletion.swift names the chain).
        let recordMaker = RecordMakerChain.make(
            writer: writer, upload: upload, sealsUploadPayload: file.recordEncryption != nil,
            stateDirectory: configuration.stateDirectory, logger: logger)
        let padService = try padEventFIFO.map {
            try LinuxPadProvider(eventFIFO: $0, configuration: pads ?? .init(), logger: Logger(label: "consentd.pads"))
        } ?? pads.map { LinuxPadProvider(configuration: $0, logger: Logger(label: "consentd.pads")) }
        if padService == nil { logger.info("running without signature pads (--no-pads)") }
        let core = AgentCore(
            studies: studies,
            settings: .init(
                inactivityTimeout: configuration.inactivityTimeout,
                minimumSignaturePoints: configuration.minimumSignaturePoints,
                stateDirectory: configuration.stateDirectory, minimumInkLength: configuration.minimumInkLength,
                maximumFlows: configuration.maximumFlows,
                closedConnectionGrace: configuration.closedConnectionFlowGrace,
                closedConnectionGraceBeforeTheName: configuration.closedConnectionFlowBeforeNameGrace,
                // The zone and locale the PDF uses, checked when the file was read.
                dates: ParticipantDateStyle(
                    timeZone: file.timeZone?.zone ?? .current,
                    localeIdentifier: file.locale?.identifier ?? Locale.current.identifier),
                inactivityWarning: configuration.inactivityWarning, kioskID: kioskID(file),
                resumeDays: file.resumeDays ?? 7),
            hub: EventHub(), recordMaker: recordMaker, pads: padService ?? NoPadProvider(), auditLog: audit,
            logger: logger, keptBeforeRestart: recovery.recordKept, printing: options.printing, staff: options.staff,
            approvalPolicy: approvals)
        if let staff = options.staff {
            logger.info("the person obtaining consent countersigns", metadata: ["staffFile": "\(staff.file)"])
            // Read again at every unlock; an empty or unreadable file now means no consent can be completed.
            switch Result(catching: { try StaffFile.load(staff.file) }) {
            case .success(let file) where file.staff.isEmpty:
                logger.warning("no staff credentials yet: add them with consentctl staff add", metadata: ["staffFile": "\(staff.file)"])
            case .failure(let error):
                logger.error("the staff file cannot be read", metadata: ["error": "\(error)"])
            default: break
            }
        }
        if approvals != nil { Task { await core.auditApprovalsExpiringSoon() } }
        let paths = options.studyPaths
        let approvalKeys = approvals?.keyring
        let reload = StudyReloadService(
            core: core,
            load: {
                // As at start: the same paths, the sample study when none.
                var paths = paths
                if paths.isEmpty, let sample = SampleStudy.folder { paths = [sample.path] }
                return try StudyCatalog.load(paths, approvalKeys: approvalKeys)
            }, logger: logger)
        services.append(Self.named(reload, "ConsentAgent.StudyReloadService"))
        if let printing = options.printing {
            logger.info("the participant's copy is printed", metadata: ["printer": "\(printing.destination)", "printCopy": "\(printing.mode.rawValue)"])
        }
        let agent = AgentService(
            configuration: configuration, core: core, discoverDocument: DiscoverDocument.shared, logger: logger,
            onRunning: { systemd.notify(.ready, .status("serving")) },
            onShuttingDown: { systemd.notify(.stopping, .status("finishing the records being written")) })
        // The listener starts last and stops first: in-flight records reach disk and the queue before it ends,
        // and the pads are released after the last client is gone.
        if let padService { services.append(Self.named(padService, "ConsentAgent.LinuxPadProvider")) }
        services.append(Self.named(agent, "ConsentAgent.AgentService"))
        return services
    }

    /// Loads every study version the paths name (a study folder, a Contract file, or a folder of versions).
    func loadStudies(_ paths: [String], approvalKeys: ApprovalKeyring?, logger: Logger) throws -> StudyCatalog {
        var paths = paths
        if paths.isEmpty, let sample = SampleStudy.folder { paths = [sample.path] }
        guard !paths.isEmpty else {
            throw AgentStartupError("No study given and the bundled sample study is not installed; pass --study DIR.")
        }
        let catalog: StudyCatalog
        do { catalog = try StudyCatalog.load(paths, approvalKeys: approvalKeys) } catch let error as ConsentCoreError {
            throw AgentStartupError("Cannot load study: \(error)")
        }
        for version in catalog.versions {
            let study = version.study
            logger.info(
                "study loaded",
                metadata: ["study": "\(study.id)", "version": "\(study.shortVersion)", "folder": "\(study.folder.lastPathComponent)"])
            if !study.diagnostics.isEmpty {
                // A count only: `consentctl lint` names each problem; the log stays short.
                let level: Logger.Level = study.diagnostics.hasErrors ? .warning : .info
                logger.log(
                    level: level, "study has problems to fix; run consentctl lint on it",
                    metadata: [
                        "study": "\(study.id)", "errors": "\(study.diagnostics.errors.count)",
                        "warnings": "\(study.diagnostics.warnings.count)",
                    ])
            }
        }
        return catalog
    }
}

/// Why consentd could not start although its flags were right (a missing study, an unreadable config file or key, a
/// bad config value…): one line on stderr ("Error: …") and exit status 1, without the usage text a wrong flag gets.
public struct AgentStartupError: Error, CustomStringConvertible, Sendable {
    public let description: String
    public init(_ description: String) { self.description = description }
}
