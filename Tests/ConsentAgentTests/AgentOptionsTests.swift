import ConsentAgent
import Foundation
import Logging
import Testing

/// consentd's flags and config file merged by one pure function — a flag wins over the file's key,
/// the file's key over the default — tested key by key.
@Suite struct AgentOptionsTests {
    static func file(_ json: String) throws -> AgentConfigFile {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("options-\(UUID().uuidString).json")
        try Data(json.utf8).write(to: url)
        defer { try? FileManager.default.removeItem(at: url) }
        return try AgentConfigFile.load(from: url)
    }

    @Test func defaultsWithNeitherFlagsNorFile() throws {
        let options = try AgentOptions.merge(flags: AgentFlags(), file: AgentConfigFile(), defaultSocketPath: "/run/x.sock")
        let c = options.configuration
        #expect(c.socketPath == "/run/x.sock" && c.stateDirectory.path.hasSuffix("/state"))
        #expect(options.logLevel == .info && options.studyPaths.isEmpty)
        #expect(c.inactivityTimeout == .seconds(600) && c.clientKillTimeout == .seconds(10) && c.shutdownTimeout == .seconds(30))
        #expect(c.maximumLineBytes == 1_048_576 && c.outboundQueueMessages == 1000 && c.maximumConnections == 64)
        #expect(c.maximumFlows == 64 && c.negotiationTimeout == .seconds(30) && c.closedConnectionFlowGrace == .seconds(60))
        #expect(c.closedConnectionFlowBeforeNameGrace == .seconds(10))
        #expect(c.minimumSignaturePoints == 10 && c.minimumInkLength == 0.15)
        #expect(options.pads?.preferredPad == nil && options.pads?.includesUninitializedDevices == false)
    }

    @Test func theFileSetsEveryKeyItHas() throws {
        let file = try Self.file("""
            {"socket": "/f.sock", "stateDir": "/f-state", "studies": ["/f-study"], "logLevel": "debug",
             "inactivityTimeoutSeconds": 120, "clientKillTimeoutSeconds": 3, "maxLineBytes": 4096,
             "outboundQueueMessages": 50, "maxInFlight": 4, "minimumSignaturePoints": 20, "maxConnections": 8,
             "negotiationTimeoutSeconds": 5, "maxFlows": 3, "closedConnectionFlowGraceSeconds": 7,
             "closedConnectionFlowBeforeNameGraceSeconds": 2, "minimumInkLength": 0.3, "pad": "Wacom"}
            """)
        let options = try AgentOptions.merge(flags: AgentFlags(), file: file, defaultSocketPath: "/run/x.sock")
        let c = options.configuration
        #expect(c.socketPath == "/f.sock" && c.stateDirectory.path == "/f-state" && options.studyPaths == ["/f-study"])
        #expect(options.logLevel == .debug && c.inactivityTimeout == .seconds(120) && c.clientKillTimeout == .seconds(3))
        #expect(c.maximumLineBytes == 4096 && c.outboundQueueMessages == 50 && c.maximumInFlight == 4)
        #expect(c.minimumSignaturePoints == 20 && c.maximumConnections == 8 && c.negotiationTimeout == .seconds(5))
        #expect(c.maximumFlows == 3 && c.closedConnectionFlowGrace == .seconds(7) && c.minimumInkLength == 0.3)
        #expect(c.closedConnectionFlowBeforeNameGrace == .seconds(2))
        #expect(options.pads?.preferredPad == "Wacom" && options.pads?.minimumPoints == 20 && options.pads?.minimumInkLength == 0.3)
    }

    @Test func everyFlagWinsOverTheFile() throws {
        let file = try Self.file("""
            {"socket": "/f.sock", "stateDir": "/f-state", "studies": ["/f-study"], "logLevel": "debug",
             "inactivityTimeoutSeconds": 120, "clientKillTimeoutSeconds": 3, "maxLineBytes": 4096,
             "outboundQueueMessages": 50, "pad": "Wacom", "noPads": true}
            """)
        var flags = AgentFlags()
        flags.studies = ["/a", "/b"]
        flags.socket = "/flag.sock"
        flags.stateDir = "/flag-state"
        flags.logLevel = "warning"
        flags.inactivityTimeout = 30
        flags.clientKillTimeout = 1.5
        flags.shutdownTimeout = 4
        flags.maxLineBytes = 8192
        flags.outboundQueueMessages = 7
        flags.pad = "/dev/input/event9"
        flags.padIncludeUninitialized = true
        let options = try AgentOptions.merge(flags: flags, file: file, defaultSocketPath: "/run/x.sock")
        let c = options.configuration
        #expect(c.socketPath == "/flag.sock" && c.stateDirectory.path == "/flag-state" && options.studyPaths == ["/a", "/b"])
        #expect(options.logLevel == .warning && c.inactivityTimeout == .seconds(30) && c.clientKillTimeout == .milliseconds(1500))
        #expect(c.shutdownTimeout == .seconds(4) && c.maximumLineBytes == 8192 && c.outboundQueueMessages == 7)
        // --pad brings the pads back although the file says noPads, and names the pad.
        #expect(options.pads?.preferredPad == "/dev/input/event9" && options.pads?.includesUninitializedDevices == true)
    }

    @Test func padsAreOffByFlagOrByTheFileAlone() throws {
        var flags = AgentFlags()
        flags.noPads = true
        #expect(try AgentOptions.merge(flags: flags, file: AgentConfigFile()).pads == nil)
        #expect(try AgentOptions.merge(flags: AgentFlags(), file: try Self.file(#"{"noPads": true}"#)).pads == nil)
        flags.pad = "Wacom"
        #expect(throws: AgentOptions.Invalid("--pad and --no-pads contradict each other; pass one.")) {
            try AgentOptions.merge(flags: flags, file: AgentConfigFile())
        }
    }

    @Test func valuesOutOfRangeAreRefusedByName() throws {
        var flags = AgentFlags()
        flags.logLevel = "loud"
        #expect(throws: AgentOptions.Invalid.self) { try AgentOptions.merge(flags: flags, file: AgentConfigFile()) }
        flags = AgentFlags()
        flags.inactivityTimeout = 0
        #expect(throws: AgentOptions.Invalid("--inactivity-timeout must be a positive number of seconds.")) {
            try AgentOptions.merge(flags: flags, file: AgentConfigFile())
        }
        flags = AgentFlags()
        flags.maxLineBytes = -1
        #expect(throws: AgentOptions.Invalid("--max-line-bytes must be positive.")) {
            try AgentOptions.merge(flags: flags, file: AgentConfigFile())
        }
        flags.maxLineBytes = nil
        flags.shutdownTimeout = .infinity
        #expect(throws: AgentOptions.Invalid("--shutdown-timeout must be a positive number of seconds.")) {
            try AgentOptions.merge(flags: flags, file: AgentConfigFile())
        }
    }

    /// The participant's copy: `printer` or `--printer` (the flag wins), `printCopy` offer by default, never turns it
    /// off, and a mode that prints without a printer is refused, as are names CUPS cannot have.
    @Test func printerAndPrintCopy() throws {
        #expect(try AgentOptions.merge(flags: AgentFlags(), file: AgentConfigFile(), defaultSocketPath: "/x").printing == nil)
        var flags = AgentFlags()
        flags.printer = "front-desk"
        let fromFlag = try AgentOptions.merge(flags: flags, file: AgentConfigFile(), defaultSocketPath: "/x").printing
        #expect(fromFlag == PrintSettings(destination: "front-desk", mode: .offer))
        let file = try Self.file(#"{"printer": "lobby", "printCopy": "always"}"#)
        #expect(try AgentOptions.merge(flags: AgentFlags(), file: file, defaultSocketPath: "/x").printing == PrintSettings(destination: "lobby", mode: .always))
        #expect(try AgentOptions.merge(flags: flags, file: file, defaultSocketPath: "/x").printing?.destination == "front-desk")
        #expect(try AgentOptions.merge(flags: AgentFlags(), file: Self.file(#"{"printer": "lobby", "printCopy": "never"}"#), defaultSocketPath: "/x").printing == nil)
        #expect(throws: AgentOptions.Invalid.self) {
            try AgentOptions.merge(flags: AgentFlags(), file: Self.file(#"{"printCopy": "always"}"#), defaultSocketPath: "/x")
        }
        for bad in [#"{"printer": "a b"}"#, #"{"printer": "a/b"}"#, #"{"printer": ""}"#, #"{"printCopy": "sometimes"}"#, #"{"printer": 3}"#] {
            #expect(throws: AgentError.self, "\(bad)") { try Self.file(bad) }
        }
        flags.printer = "x#1"
        #expect(throws: AgentOptions.Invalid.self) { try AgentOptions.merge(flags: flags, file: AgentConfigFile(), defaultSocketPath: "/x") }
    }

    /// `printTimeoutSeconds`: how long a copy CUPS took may take to print before it ends as failed.
    @Test func printTimeout() throws {
        let file = try Self.file(#"{"printer": "lobby", "printTimeoutSeconds": 45}"#)
        #expect(try AgentOptions.merge(flags: AgentFlags(), file: file, defaultSocketPath: "/x").printing?.timeout == .seconds(45))
        let standard = try AgentOptions.merge(flags: AgentFlags(), file: Self.file(#"{"printer": "lobby"}"#), defaultSocketPath: "/x")
        #expect(standard.printing?.timeout == .seconds(120))
        for bad in [#"{"printTimeoutSeconds": 0}"#, #"{"printTimeoutSeconds": -1}"#, #"{"printTimeoutSeconds": "60"}"#, #"{"printTimeoutSeconds": 1e300}"#] {
            #expect { try Self.file(bad) } throws: { "\($0)".contains("printTimeoutSeconds") }
        }
    }
}
