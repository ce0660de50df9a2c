import Foundation
import ConsentSigning
import Testing

@testable import ConsentAgent

@Suite struct AgentConfigFileTests {
    private func load(_ json: String) throws -> AgentConfigFile {
        let url = try TestSupport.temporaryDirectory().appendingPathComponent("consentd.json")
        try json.write(to: url, atomically: true, encoding: .utf8)
        return try AgentConfigFile.load(from: url)
    }

    @Test func readsKnownKeys() throws {
        let file = try load(#"{"socket":"/run/c.sock","inactivityTimeoutSeconds":30,"maxLineBytes":4096,"studies":["a"]}"#)
        #expect(file.socket == "/run/c.sock")
        #expect(file.inactivityTimeoutSeconds?.seconds == 30)
        #expect(file.maxLineBytes?.value == 4096)
        #expect(file.studies == ["a"])
    }

    /// The bounds on connections and flows.
    @Test func readsTheBoundKeys() throws {
        let file = try load(
            #"{"maxConnections":8,"negotiationTimeoutSeconds":2.5,"maxFlows":3,"closedConnectionFlowGraceSeconds":15,"closedConnectionFlowBeforeNameGraceSeconds":4.5}"#)
        #expect(file.maxConnections?.value == 8)
        #expect(file.negotiationTimeoutSeconds?.seconds == 2.5)
        #expect(file.maxFlows?.value == 3)
        #expect(file.closedConnectionFlowGraceSeconds?.seconds == 15)
        #expect(file.closedConnectionFlowBeforeNameGraceSeconds?.seconds == 4.5)
        #expect(throws: AgentError.self) { _ = try load(#"{"maxConnections":0}"#) }
        #expect(throws: AgentError.self) { _ = try load(#"{"maxFlows":-1}"#) }
        #expect(throws: AgentError.self) { _ = try load(#"{"negotiationTimeoutSeconds":0}"#) }
        #expect(throws: AgentError.self) { _ = try load(#"{"closedConnectionFlowGraceSeconds":"soon"}"#) }
        #expect(DescriptorLimit.connectionCap(configured: 64, softLimit: 1024, reserved: 256) == 64)
        #expect(DescriptorLimit.connectionCap(configured: 1000, softLimit: 1024, reserved: 256) == 768)
        #expect(DescriptorLimit.connectionCap(configured: 64, softLimit: 100, reserved: 256) == 1)
        #expect(DescriptorLimit.connectionCap(configured: 64, softLimit: nil, reserved: 256) == 64)
    }

    @Test func readsThePadKeys() throws {
        let file = try load(#"{"pad":"/dev/input/event7","noPads":false,"minimumInkLength":0.2,"minimumSignaturePoints":12}"#)
        #expect(file.pad == "/dev/input/event7")
        #expect(file.noPads == false)
        #expect(file.minimumInkLength?.value == 0.2)
        #expect(file.minimumSignaturePoints?.value == 12)
        #expect(try load(#"{"minimumInkLength":1}"#).minimumInkLength?.value == 1)
        #expect(throws: AgentError.self) { _ = try load(#"{"noPads":"yes"}"#) }
        #expect(throws: AgentError.self) { _ = try load(#"{"minimumInkLength":"short"}"#) }
        #expect(throws: AgentError.self) { _ = try load(#"{"padd":"x"}"#) }
    }

    @Test func readsRecordEncryption() throws {
        let file = try load(#"{"recordEncryption":{"recipientPublicKey":"/etc/consentd/recipient.pem","keyId":"irb-7"}}"#)
        #expect(file.recordEncryption == RecordEncryptionSettings(recipientPublicKey: "/etc/consentd/recipient.pem", keyID: "irb-7"))
        #expect(try load(#"{"recordEncryption":{"recipientPublicKey":"/k.pem"}}"#).recordEncryption?.keyID == "")
        #expect(try load("{}").recordEncryption == nil)
        // With upload too (the queue sends a sealed copy of each Bundle).
        let both = try load(#"{"recordEncryption":{"recipientPublicKey":"/k.pem"},"upload":{"endpoint":"https://fhir.example.org/r4"}}"#)
        #expect(both.recordEncryption != nil && both.upload != nil)
        for (json, says) in [
            (#"{"recordEncryption":{"recipientPublicKey":"/k.pem","publicKey":"/k.pem"}}"#, "recordEncryption.publicKey"),
            (#"{"recordEncryption":{}}"#, "recordEncryption.recipientPublicKey"),
            (#"{"recordEncryption":"/k.pem"}"#, "must be an object"),
            (#"{"recordEncryption":{"recipientPublicKey":"/k.pem","keyId":7}}"#, "recordEncryption.keyId"),
        ] {
            do {
                _ = try load(json)
                Issue.record("accepted \(json)")
            } catch let error as AgentError {
                #expect(error.message.contains(says), "\(error.message)")
            }
        }
    }

    @Test func readsBiometricEscrowWithTheKeyKindsOfRecordEncryption() throws {
        let file = try load(#"{"biometricEscrow":{"recipientPublicKey":"/etc/consentd/escrow.pem","keyId":"notary-1"}}"#)
        #expect(file.biometricEscrow == RecordEncryptionSettings(recipientPublicKey: "/etc/consentd/escrow.pem", keyID: "notary-1"))
        #expect(file.recordEncryption == nil)
        #expect(try load("{}").biometricEscrow == nil)
        // With upload: the Bundle never carried the strokes, so nothing conflicts.
        #expect(try load(#"{"biometricEscrow":{"recipientPublicKey":"/k.pem"},"upload":{"endpoint":"https://fhir.example.org/r4"}}"#).biometricEscrow != nil)
        for (json, says) in [
            (#"{"biometricEscrow":{"recipientPublicKey":"/k.pem","publicKey":"/k.pem"}}"#, "biometricEscrow.publicKey"),
            (#"{"biometricEscrow":{}}"#, "biometricEscrow.recipientPublicKey"),
            (#"{"biometricEscrow":"/k.pem"}"#, "\"biometricEscrow\" must be an object"),
        ] {
            do {
                _ = try load(json)
                Issue.record("accepted \(json)")
            } catch let error as AgentError {
                #expect(error.message.contains(says), "\(error.message)")
            }
        }
    }

    @Test func recordEncryptionKeyIsReadAtStart() throws {
        let missing = RecordEncryptionSettings(recipientPublicKey: "/nonexistent/recipient.pem")
        #expect(throws: (any Error).self) { try missing.load() }
        let notAKey = try TestSupport.temporaryDirectory().appendingPathComponent("k.pem")
        try "-----BEGIN PUBLIC KEY-----\nAAAA\n-----END PUBLIC KEY-----\n".write(to: notAKey, atomically: true, encoding: .utf8)
        #expect(throws: (any Error).self) { try RecordEncryptionSettings(recipientPublicKey: notAKey.path).load() }
    }

    @Test func refusesUnknownKeysByName() throws {
        do {
            _ = try load(#"{"sockett":"/x"}"#)
            Issue.record("accepted a typo")
        } catch let error as AgentError {
            #expect(error.message.contains("\"sockett\""))
        }
    }

    @Test func refusesWrongTypes() {
        #expect(throws: AgentError.self) { _ = try load(#"{"maxLineBytes":"big"}"#) }
        #expect(throws: AgentError.self) { _ = try load(#"[1]"#) }
    }
}

@Suite struct AgentConfigFileValueTests {
    private func load(_ json: String) throws -> AgentConfigFile {
        let url = try TestSupport.temporaryDirectory().appendingPathComponent("consentd.json")
        try json.write(to: url, atomically: true, encoding: .utf8)
        return try AgentConfigFile.load(from: url)
    }

    /// The message of the refusal, which must name the key.
    private func refusal(_ json: String) -> String? {
        do {
            _ = try load(json)
            return nil
        } catch {
            return (error as? AgentError)?.message ?? "\(error)"
        }
    }

    @Test func readsTheDeploymentKeys() throws {
        let file = try load(
            #"{"locale":"de_CH","timeZone":"Europe/Zurich","allowedPeers":{"uids":[1000],"gids":[990,991]},"paper":"a4","fhirMode":"stu3","logLevel":"notice"}"#)
        #expect(file.locale?.identifier == "de_CH")
        #expect(file.timeZone?.identifier == "Europe/Zurich")
        #expect(file.allowedPeers == AllowedPeers(uids: [1000], gids: [990, 991]))
        #expect(file.paper == .a4)
        #expect(file.fhirMode == .stu3)
        #expect(file.logLevel == .notice)
        #expect(try load(#"{"allowedPeers":{"gids":[0]}}"#).allowedPeers == AllowedPeers(gids: [0]))
        #expect(try load(#"{"locale":"en"}"#).locale?.identifier == "en")
        #expect(try load(#"{"locale":"sr-Latn-RS"}"#).locale?.identifier == "sr-Latn-RS")
        #expect(try load(#"{"locale":"es_MX.UTF-8"}"#).locale?.identifier == "es_MX.UTF-8")
    }

    @Test(arguments: [
        (#"{"inactivityTimeoutSeconds":-5}"#, "inactivityTimeoutSeconds"),
        (#"{"inactivityTimeoutSeconds":0}"#, "inactivityTimeoutSeconds"),
        (#"{"clientKillTimeoutSeconds":-1}"#, "clientKillTimeoutSeconds"),
        (#"{"maxLineBytes":0}"#, "maxLineBytes"),
        (#"{"maxInFlight":-1}"#, "maxInFlight"),
        (#"{"outboundQueueMessages":0}"#, "outboundQueueMessages"),
        (#"{"minimumSignaturePoints":0}"#, "minimumSignaturePoints"),
        (#"{"minimumInkLength":-0.1}"#, "minimumInkLength"),
        (#"{"fhirMode":"r5"}"#, "fhirMode"),
        (#"{"paper":"legal"}"#, "paper"),
        (#"{"logLevel":"verbose"}"#, "logLevel"),
        (#"{"kioskId":"kiosk one"}"#, "kioskId"),
        (#"{"socket":""}"#, "socket"),
        (#"{"stateDir":""}"#, "stateDir"),
        (#"{"studies":[""]}"#, "studies"),
        (#"{"pad":""}"#, "pad"),
        (#"{"locale":"english please"}"#, "locale"),
        (#"{"locale":"e"}"#, "locale"),
        (#"{"timeZone":"Mars/Olympus_Mons"}"#, "timeZone"),
        (#"{"timeZone":7}"#, "timeZone"),
        (#"{"siteAddress":{"zip":"02115"}}"#, "siteAddress.zip"),
        (#"{"siteAddress":"Boston"}"#, "siteAddress"),
        (#"{"allowedPeers":[1000]}"#, "allowedPeers"),
        (#"{"allowedPeers":{"users":[1000]}}"#, "allowedPeers.users"),
        (#"{"allowedPeers":{"uids":[-1]}}"#, "allowedPeers.uids"),
        (#"{"allowedPeers":{"gids":["staff"]}}"#, "allowedPeers.gids"),
        // An empty list would lock every UI out; leaving the key out is how to let the socket's mode decide.
        (#"{"allowedPeers":{}}"#, "allowedPeers"),
        (#"{"allowedPeers":{"uids":[],"gids":[]}}"#, "allowedPeers"),
        (#"{"upload":{"endpoint":"ftp://x"}}"#, "upload.endpoint"),
    ] as [(String, String)])
    func refusesABadValueNamingItsKey(json: String, key: String) {
        guard let message = refusal(json) else {
            Issue.record("accepted \(json)")
            return
        }
        #expect(message.contains("\"\(key)\""), "\(message)")
    }
}

@Suite struct ShippedConfigFileTests {
    private static let deploy = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("deploy")

    /// deploy/consentd.json.example is what docs/CONFIGURATION.md and `make install` hand operators: it must load.
    @Test func theExampleLoads() throws {
        let file = try AgentConfigFile.load(from: Self.deploy.appendingPathComponent("consentd.json.example"))
        #expect(file.timeZone?.identifier == "America/New_York")
        #expect(file.upload != nil)
    }

    @Test func theInstalledDefaultLoads() throws {
        _ = try AgentConfigFile.load(from: Self.deploy.appendingPathComponent("consentd.json"))
    }
}

/// Every seconds setting has one range (`SettingSeconds`): a value too large to convert stopped consentd at start-up
/// in a Double-to-Int64 trap (FuzzConfig's finding, docs/RELIABILITY.md).
@Suite struct ConfigSecondsBoundTests {
    private func message(_ json: String) -> String? {
        do {
            _ = try AgentConfigFile.parse(Data(json.utf8), file: "consentd.json")
            return nil
        } catch let error as AgentError {
            return error.message
        } catch {
            return "\(error)"
        }
    }

    @Test(arguments: [
        "inactivityTimeoutSeconds", "clientKillTimeoutSeconds", "negotiationTimeoutSeconds",
        "closedConnectionFlowGraceSeconds", "closedConnectionFlowBeforeNameGraceSeconds",
    ])
    func aKeyBeyondTheRangeIsRefusedByName(key: String) {
        #expect(message(#"{"\#(key)": 1e300}"#) == #"consentd.json: "\#(key)" must be at most 31622400 seconds (366 days)"#)
        #expect(message(#"{"\#(key)": 0.0001}"#) == #"consentd.json: "\#(key)" must be at least 0.001 seconds (a millisecond)"#)
        #expect(message(#"{"\#(key)": -1}"#) == #"consentd.json: "\#(key)" must be a positive number of seconds"#)
        #expect(message(#"{"\#(key)": 31622400}"#) == nil)
        #expect(message(#"{"\#(key)": 0.001}"#) == nil)
    }

    @Test(arguments: ["timeout_seconds", "backoff_initial_seconds", "backoff_max_seconds", "recheck_seconds"])
    func anUploadKeyBeyondTheRangeIsRefusedByName(key: String) {
        let upload = #""endpoint": "https://fhir.example.org/r4""#
        #expect(
            message(#"{"upload": {\#(upload), "\#(key)": 1e300}}"#)
                == #"consentd.json: "upload.\#(key)" must be at most 31622400 seconds (366 days)"#)
        #expect(
            message(#"{"upload": {\#(upload), "\#(key)": 0}}"#)
                == #"consentd.json: "upload.\#(key)" must be a positive number of seconds"#)
        #expect(message(#"{"upload": {\#(upload), "\#(key)": 86400}}"#) == nil)
    }

    @Test func theLargestValueConvertsExactly() throws {
        #expect(try SettingSeconds(31_622_400).duration == .seconds(31_622_400))
        #expect(try SettingSeconds(0.001).duration == .milliseconds(1))
        #expect(try SettingSeconds(2.5).duration == .milliseconds(2500))
        #expect(throws: SettingSeconds.Refusal.self) { try SettingSeconds(.infinity) }
        #expect(throws: SettingSeconds.Refusal.self) { try SettingSeconds(.nan) }
    }

    @Test func aFlagBeyondTheRangeIsRefusedByName() {
        var flags = AgentFlags()
        flags.inactivityTimeout = 1e300
        #expect(throws: AgentOptions.Invalid("--inactivity-timeout must be at most 31622400 seconds (366 days).")) {
            _ = try AgentOptions.merge(flags: flags, file: AgentConfigFile(), defaultSocketPath: "/tmp/s")
        }
        flags = AgentFlags()
        flags.shutdownTimeout = 1e19
        #expect(throws: AgentOptions.Invalid("--shutdown-timeout must be at most 31622400 seconds (366 days).")) {
            _ = try AgentOptions.merge(flags: flags, file: AgentConfigFile(), defaultSocketPath: "/tmp/s")
        }
    }
}

/// Each value is checked once, by its type (Sources/ConsentAgent/SettingValues.swift): a config key and its flag are
/// refused with the type's own words and accept the same values, so the file and the command line cannot drift.
@Suite struct SettingRuleOnceTests {
    private func fileMessage(_ json: String) -> String? {
        do {
            _ = try AgentConfigFile.parse(Data(json.utf8), file: "consentd.json")
            return nil
        } catch {
            return (error as? AgentError)?.message ?? "\(error)"
        }
    }

    private func flagMessage(_ flags: AgentFlags) -> String? {
        do {
            _ = try AgentOptions.merge(flags: flags, file: AgentConfigFile(), defaultSocketPath: "/tmp/s")
            return nil
        } catch {
            return error.description
        }
    }

    /// The rule a type refuses `make` with; nil when it accepts.
    private func rule<Value>(_ make: () throws(SettingRefusal) -> Value) -> String? {
        do {
            _ = try make()
            return nil
        } catch {
            return error.rule
        }
    }

    private func expectSameRule(key: String, json: String, flag: String, flags: AgentFlags, rule: String?) {
        if let rule {
            #expect(fileMessage(#"{"\#(key)": \#(json)}"#) == #"consentd.json: "\#(key)" \#(rule)"#)
            #expect(flagMessage(flags) == "\(flag) \(rule).")
        } else {
            #expect(fileMessage(#"{"\#(key)": \#(json)}"#) == nil)
            #expect(flagMessage(flags) == nil)
        }
    }

    @Test(arguments: [1e300, 31_622_400.5, 31_622_400, 2.5, 0.001, 0.0001, 0, -1])
    func aSecondsKeyAndItsFlagShareTheRule(seconds: Double) {
        let rule = rule { () throws(SettingRefusal) in try SettingSeconds(seconds) }
        var flags = AgentFlags()
        flags.inactivityTimeout = seconds
        expectSameRule(key: "inactivityTimeoutSeconds", json: "\(seconds)", flag: "--inactivity-timeout", flags: flags, rule: rule)
        flags = AgentFlags()
        flags.clientKillTimeout = seconds
        expectSameRule(key: "clientKillTimeoutSeconds", json: "\(seconds)", flag: "--client-kill-timeout", flags: flags, rule: rule)
    }

    @Test(arguments: [Int.min, -1, 0, 1, 4096])
    func aCountKeyAndItsFlagShareTheRule(count: Int) {
        let rule = rule { () throws(SettingRefusal) in try SettingCount(count) }
        var flags = AgentFlags()
        flags.maxLineBytes = count
        expectSameRule(key: "maxLineBytes", json: "\(count)", flag: "--max-line-bytes", flags: flags, rule: rule)
        flags = AgentFlags()
        flags.outboundQueueMessages = count
        expectSameRule(key: "outboundQueueMessages", json: "\(count)", flag: "--outbound-queue-messages", flags: flags, rule: rule)
    }

    @Test(arguments: ["front-desk", "a b", "a/b", "x#1", "", String(repeating: "p", count: 128)])
    func thePrinterKeyAndItsFlagShareTheRule(name: String) {
        let rule = rule { () throws(SettingRefusal) in try PrinterName(name) }
        var flags = AgentFlags()
        flags.printer = name
        expectSameRule(key: "printer", json: "\"\(name)\"", flag: "--printer", flags: flags, rule: rule)
    }

    /// The refusals pinned elsewhere come from the types, not from the file or the merge.
    @Test func theTypesHoldTheWords() {
        #expect(rule { () throws(SettingRefusal) in try SettingSeconds(1e300) } == "must be at most 31622400 seconds (366 days)")
        #expect(rule { () throws(SettingRefusal) in try SettingCount(0) } == "must be positive")
        #expect(rule { () throws(SettingRefusal) in try SettingInkLength(-0.1) } == "must be a number of 0 or more")
        #expect(rule { () throws(SettingRefusal) in try SettingSecondsOrOff(-1) } == "must be 0 (off) or a positive number of seconds")
        #expect(rule { () throws(SettingRefusal) in try SettingSecondsOrOff(0) } == nil)
        #expect(rule { () throws(SettingRefusal) in try SettingChoice.parse("r5", as: SigningMode.self) } == #"is "r5"; use "r4" or "stu3""#)
        #expect(fileMessage(#"{"fhirMode": "r5"}"#) == #"consentd.json: "fhirMode" is "r5"; use "r4" or "stu3""#)
        #expect(fileMessage(#"{"minimumInkLength": -0.1}"#) == #"consentd.json: "minimumInkLength" must be a number of 0 or more"#)
    }
}
