import AgentProtocol
import ConsentCore
import ConsentPDF
import ConsentSigning
import FileBytes
import Foundation
import Logging
import UploadQueue

/// The `--config FILE` of consentd: a small JSON object whose keys mirror the flags.
///
/// ```json
/// {"socket": "/run/consentd/consentd.sock", "stateDir": "/var/lib/consentd", "studies": ["/etc/consentd/study"],
///  "logLevel": "info", "inactivityTimeoutSeconds": 600, "clientKillTimeoutSeconds": 10,
///  "maxLineBytes": 1048576, "maxInFlight": 16, "outboundQueueMessages": 1000, "minimumSignaturePoints": 10,
///  "kioskId": "clinic-3-kiosk-1", "fhirMode": "r4", "paper": "a4",
///  "siteAddress": {"country": "US", "state": "MA", "postalCode": "02115"},
///  "minimumInkLength": 0.15, "pad": "/dev/input/event7", "noPads": false,
///  "locale": "en_US", "timeZone": "America/New_York", "allowedPeers": {"uids": [1000], "gids": [990]}}
/// ```
/// Unknown keys are refused by name, so a typo never silently falls back to a default; so are bad values (a
/// negative timeout, `"fhirMode": "r5"`, an unknown time zone), each naming its key. Flags override the file.
/// Each value is read into its type (Sources/ConsentAgent/SettingValues.swift: `SettingSeconds`, `SettingCount`,
/// `PrinterName`, an enum, …), which holds its rule: a value here has passed it, so `AgentOptions.merge` and the
/// assembly use it without checking it again.
/// Every key, its default and its flag: docs/CONFIGURATION.md. (JSON, not TOML: TOMLKit does not resolve from the
/// package mirror this project builds from.)
public struct AgentConfigFile: Sendable, Hashable {
    public var socket: String?
    public var stateDir: String?
    public var studies: [String]?
    public var logLevel: Logger.Level?
    public var inactivityTimeoutSeconds: SettingSeconds?
    /// How long before the inactivity wipe the participant is warned (`flow.expiring`); 0: no warning (default 60).
    public var inactivityWarningSeconds: SettingSecondsOrOff?
    public var clientKillTimeoutSeconds: SettingSeconds?
    public var maxLineBytes: SettingCount?
    public var maxInFlight: SettingCount?
    public var outboundQueueMessages: SettingCount?
    public var minimumSignaturePoints: SettingCount?
    /// The kiosk id in every record's manifest and Provenance (default: the host name).
    public var kioskId: SettingIdentifier?
    /// "r4" (default) or "stu3" (C3-PRO 2.0's Contract shape).
    public var fhirMode: SigningMode?
    /// "a4" or "letter" (default: from the locale).
    public var paper: PDFOptions.Paper?
    /// The kiosk's site address (a FHIR Address), reduced for de-identified records when the UI gives none.
    public var siteAddress: JSONValue?
    /// Where completed records are uploaded (the `upload` object, docs/UPLOAD.md); nil: not uploaded.
    public var upload: UploadConfiguration?
    /// Pad signatures with less ink than this (in widths of the signing area) are too short.
    public var minimumInkLength: SettingInkLength?
    /// The preferred pad: a node or (part of) a name, as `--pad`.
    public var pad: String?
    /// No pad support at all, as `--no-pads`.
    public var noPads: Bool?
    /// The locale of the consent PDF (`en_US`; default: the process locale, from `LANG`).
    public var locale: SettingLocale?
    /// The time zone of the signing time printed in the PDF (`Europe/Zurich`; default: the system's).
    public var timeZone: SettingTimeZone?
    /// Who may connect; parsed and reported, not yet enforced (see `AllowedPeers`).
    public var allowedPeers: AllowedPeers?
    /// Records stored encrypted for a recipient key (docs/RECORDS.md); nil: plaintext records.
    public var recordEncryption: RecordEncryptionSettings?
    /// The biometric data (strokes, 19794-7 files) sealed to an examiner's escrow key (docs/RECORDS.md); nil: kept.
    public var biometricEscrow: RecordEncryptionSettings?
    /// At most this many connections at once (default 64); kept below the open-file limit.
    public var maxConnections: SettingCount?
    /// A client that does not negotiate this long after `hello` is closed (default 30).
    public var negotiationTimeoutSeconds: SettingSeconds?
    /// At most this many running flows (default 64); `flow.start` beyond is `Overloaded`.
    public var maxFlows: SettingCount?
    /// Running flows whose connections all closed expire this long after (default 60).
    public var closedConnectionFlowGraceSeconds: SettingSeconds?
    /// The same for flows that had not reached the name (default 10; at most `closedConnectionFlowGraceSeconds`).
    public var closedConnectionFlowBeforeNameGraceSeconds: SettingSeconds?
    /// The CUPS destination the participant's copy is printed on, as `--printer`; nil: no copy is printed.
    public var printer: PrinterName?
    /// When the copy is printed: "offer" (the default with a printer: the participant asks), "always" or "never".
    public var printCopy: PrintSettings.Mode?
    /// A copy CUPS has not printed this long after it took the job ends as failed (default 120).
    public var printTimeoutSeconds: SettingSeconds?
    /// Whether the person obtaining consent countersigns every consent: "off" (default) or "required".
    public var staffCountersignature: StaffCountersignature?
    /// The staff credential file (`consentctl staff add`); needed with `staffCountersignature` "required".
    public var staffFile: String?
    /// How long five wrong staff PINs lock that staff id (default 900).
    public var staffLockoutSeconds: SettingSeconds?
    /// The IRB keys whose approvals the kiosk trusts (PEM public key files); nil: approvals are not checked.
    public var approvalKeys: [String]?
    /// The kiosk's site, matched against a study approval's `site` (`consentctl study seal --site`).
    public var site: SettingIdentifier?
    /// Staff are warned this many days before a study's approval expires (default 30).
    public var approvalWarningDays: Int?
    /// A paused flow's resume code works this many days (default 7; 0: pausing is not offered).
    public var resumeDays: Int?

    public static let knownKeys: Set<String> = [
        "socket", "stateDir", "studies", "logLevel", "inactivityTimeoutSeconds", "clientKillTimeoutSeconds",
        "maxLineBytes", "maxInFlight", "outboundQueueMessages", "minimumSignaturePoints", "minimumInkLength", "pad",
        "noPads", "kioskId", "fhirMode", "paper", "siteAddress", "upload", "locale", "timeZone", "allowedPeers",
        "recordEncryption", "biometricEscrow", "maxConnections", "negotiationTimeoutSeconds", "maxFlows", "closedConnectionFlowGraceSeconds",
        "closedConnectionFlowBeforeNameGraceSeconds",
        "printer", "printCopy", "printTimeoutSeconds", "staffCountersignature", "staffFile", "staffLockoutSeconds", "inactivityWarningSeconds",
        "approvalKeys", "site", "approvalWarningDays", "resumeDays",
    ]

    /// The elements of a FHIR Address that `siteAddress` may hold.
    public static let addressKeys: Set<String> = [
        "use", "type", "text", "line", "city", "district", "state", "postalCode", "country", "period",
    ]

    public init() {}

    /// - Throws: `AgentError(.invalidConfiguration)` naming the file and the key.
    public static func load(from url: URL) throws -> AgentConfigFile {
        guard let data = (try? FileBytes.read(url.path, limit: 16 << 20)).map({ Data($0) }) else {
            throw AgentError(.invalidConfiguration, "\(url.path): cannot read the config file")
        }
        return try parse(data, file: url.path)
    }

    /// The config file's bytes as settings; `file` only names it in errors. Touches nothing (the FuzzConfig target
    /// drives it with any bytes).
    /// - Throws: `AgentError(.invalidConfiguration)` naming the file and the key.
    public static func parse(_ data: Data, file path: String) throws -> AgentConfigFile {
        // The wire's strict parser (a `Data` given to `JSONValue.parse` is read as a document, where 2.0 is an integer).
        guard case .object(let object)? = try? JSONParser.parse(data) else {
            throw AgentError(.invalidConfiguration, "\(path): the config file must be a JSON object")
        }
        if let unknown = object.keys.filter({ !knownKeys.contains($0) }).sorted().first {
            throw AgentError(
                .invalidConfiguration,
                "\(path): unknown key \"\(unknown)\"; known keys: \(knownKeys.sorted().joined(separator: ", "))")
        }
        func wrongType(_ key: String) -> AgentError {
            AgentError(.invalidConfiguration, "\(path): \"\(key)\" has the wrong type")
        }
        func badValue(_ key: String, _ rule: String) -> AgentError {
            AgentError(.invalidConfiguration, "\(path): \"\(key)\" \(rule)")
        }
        func nonEmpty(_ key: String) throws -> String? {
            guard let s = try string(key) else { return nil }
            guard !s.isEmpty else { throw badValue(key, "must not be empty") }
            return s
        }
        /// The key's value through its type's rule; a refusal names the key.
        func setting<Raw, Value>(
            _ key: String, _ read: (String) throws -> Raw?, _ make: (Raw) throws(SettingRefusal) -> Value
        ) throws -> Value? {
            guard let raw = try read(key) else { return nil }
            do { return try make(raw) } catch { throw badValue(key, error.rule) }
        }
        func seconds(_ key: String) throws -> SettingSeconds? { try setting(key, number, SettingSeconds.init) }
        func count(_ key: String) throws -> SettingCount? { try setting(key, integer, SettingCount.init) }
        func choice<Choice>(_ key: String) throws -> Choice?
        where Choice: CaseIterable & RawRepresentable, Choice.RawValue == String {
            try setting(key, string) { (word: String) throws(SettingRefusal) in try SettingChoice.parse(word, as: Choice.self) }
        }
        func string(_ key: String) throws -> String? {
            guard let raw = object[key] else { return nil }
            guard case .string(let s) = raw else { throw wrongType(key) }
            return s
        }
        func integer(_ key: String) throws -> Int? {
            guard let raw = object[key] else { return nil }
            guard case .integer(let i) = raw, let n = Int(exactly: i) else { throw wrongType(key) }
            return n
        }
        func number(_ key: String) throws -> Double? {
            switch object[key] {
            case nil: return nil
            case .integer(let i)?: return Double(i)
            case .number(let d)?: return d
            default: throw wrongType(key)
            }
        }
        func bool(_ key: String) throws -> Bool? {
            guard let raw = object[key] else { return nil }
            guard case .bool(let b) = raw else { throw wrongType(key) }
            return b
        }
        func strings(_ key: String) throws -> [String]? {
            guard let raw = object[key] else { return nil }
            guard case .array(let items) = raw else { throw wrongType(key) }
            return try items.map { item in
                guard case .string(let s) = item else { throw wrongType(key) }
                return s
            }
        }
        var file = AgentConfigFile()
        file.socket = try nonEmpty("socket")
        file.stateDir = try nonEmpty("stateDir")
        file.studies = try strings("studies")
        if let studies = file.studies, studies.contains(where: \.isEmpty) {
            throw badValue("studies", "must not hold an empty path")
        }
        file.logLevel = try choice("logLevel")
        file.inactivityTimeoutSeconds = try seconds("inactivityTimeoutSeconds")
        file.inactivityWarningSeconds = try setting("inactivityWarningSeconds", number, SettingSecondsOrOff.init)
        file.clientKillTimeoutSeconds = try seconds("clientKillTimeoutSeconds")
        file.maxLineBytes = try count("maxLineBytes")
        file.maxInFlight = try count("maxInFlight")
        file.outboundQueueMessages = try count("outboundQueueMessages")
        file.minimumSignaturePoints = try count("minimumSignaturePoints")
        file.maxConnections = try count("maxConnections")
        file.negotiationTimeoutSeconds = try seconds("negotiationTimeoutSeconds")
        file.maxFlows = try count("maxFlows")
        file.closedConnectionFlowGraceSeconds = try seconds("closedConnectionFlowGraceSeconds")
        file.closedConnectionFlowBeforeNameGraceSeconds = try seconds("closedConnectionFlowBeforeNameGraceSeconds")
        file.kioskId = try setting("kioskId", string, SettingIdentifier.init)
        file.fhirMode = try choice("fhirMode")
        file.paper = try choice("paper")
        file.printer = try setting("printer", string, PrinterName.init)
        file.printCopy = try choice("printCopy")
        file.printTimeoutSeconds = try seconds("printTimeoutSeconds")
        file.staffCountersignature = try choice("staffCountersignature")
        file.staffFile = try nonEmpty("staffFile")
        file.staffLockoutSeconds = try seconds("staffLockoutSeconds")
        file.approvalKeys = try strings("approvalKeys")
        if let keys = file.approvalKeys {
            guard !keys.isEmpty else { throw badValue("approvalKeys", "must name at least one key file (or be left out)") }
            guard !keys.contains(where: \.isEmpty) else { throw badValue("approvalKeys", "must not hold an empty path") }
        }
        file.site = try setting("site", string, SettingIdentifier.init)
        file.approvalWarningDays = try integer("approvalWarningDays")
        if let days = file.approvalWarningDays, days < 0 {
            throw badValue("approvalWarningDays", "must be 0 or more")
        }
        file.resumeDays = try integer("resumeDays")
        if let days = file.resumeDays, !(0...90).contains(days) {
            throw badValue("resumeDays", "must be 0 (no pausing) to 90")
        }
        if let raw = object["siteAddress"] {
            guard case .object(let members) = raw else { throw wrongType("siteAddress") }
            let address = raw
            if let unknown = members.keys.filter({ !addressKeys.contains($0) }).sorted().first {
                throw AgentError(
                    .invalidConfiguration,
                    "\(path): unknown key \"siteAddress.\(unknown)\"; a FHIR Address has \(addressKeys.sorted().joined(separator: ", "))")
            }
            file.siteAddress = address
        }
        if let raw = object["upload"] { file.upload = try UploadSettings.parse(raw, file: path) }
        file.minimumInkLength = try setting("minimumInkLength", number, SettingInkLength.init)
        file.pad = try nonEmpty("pad")
        file.noPads = try bool("noPads")
        file.locale = try setting("locale", string, SettingLocale.init)
        file.timeZone = try setting("timeZone", string, SettingTimeZone.init)
        if let raw = object["allowedPeers"] { file.allowedPeers = try AllowedPeers.parse(raw, file: path) }
        if let raw = object["biometricEscrow"] {
            file.biometricEscrow = try RecordEncryptionSettings.parse(raw, file: path, key: "biometricEscrow")
        }
        if let raw = object["recordEncryption"] {
            // With `upload` too, the uploader sends a sealed copy of each Bundle (UploadPayloadStore), never plaintext.
            file.recordEncryption = try RecordEncryptionSettings.parse(raw, file: path)
        }
        return file
    }
}
