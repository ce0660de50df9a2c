import AgentProtocol
import ConsentCore
import Foundation
import UploadQueue

/// The `--config FILE` of consentd: a small JSON object whose keys mirror the flags.
///
/// ```json
/// {"socket": "/run/consentd/consentd.sock", "stateDir": "/var/lib/consentd", "studies": ["/etc/consentd/study"],
///  "logLevel": "info", "inactivityTimeoutSeconds": 600, "clientKillTimeoutSeconds": 10,
///  "maxLineBytes": 1048576, "maxInFlight": 16, "outboundQueueMessages": 1000, "minimumSignaturePoints": 10,
///  "kioskId": "clinic-3-kiosk-1", "fhirMode": "r4", "paper": "a4",
///  "siteAddress": {"country": "US", "state": "MA", "postalCode": "02115"},
///  "minimumInkLength": 0.15, "pad": "/dev/input/event7", "noPads": false}
/// ```
/// Unknown keys are refused by name, so a typo never silently falls back to a default. Flags override the file.
/// (The deployment issue replaces this with TOML.)
public struct AgentConfigFile: Sendable, Hashable {
    public var socket: String?
    public var stateDir: String?
    public var studies: [String]?
    public var logLevel: String?
    public var inactivityTimeoutSeconds: Double?
    public var clientKillTimeoutSeconds: Double?
    public var maxLineBytes: Int?
    public var maxInFlight: Int?
    public var outboundQueueMessages: Int?
    public var minimumSignaturePoints: Int?
    /// The kiosk id in every record's manifest and Provenance (default: the host name).
    public var kioskId: String?
    /// "r4" (default) or "stu3" (C3-PRO 2.0's Contract shape).
    public var fhirMode: String?
    /// "a4" or "letter" (default: from the locale).
    public var paper: String?
    /// The kiosk's site address (a FHIR Address), reduced for de-identified records when the UI gives none.
    public var siteAddress: JSONValue?
    /// Where completed records are uploaded (the `upload` object, docs/UPLOAD.md); nil: not uploaded.
    public var upload: UploadConfiguration?
    /// Pad signatures with less ink than this (in widths of the signing area) are too short.
    public var minimumInkLength: Double?
    /// The preferred pad: a node or (part of) a name, as `--pad`.
    public var pad: String?
    /// No pad support at all, as `--no-pads`.
    public var noPads: Bool?

    public static let knownKeys: Set<String> = [
        "socket", "stateDir", "studies", "logLevel", "inactivityTimeoutSeconds", "clientKillTimeoutSeconds",
        "maxLineBytes", "maxInFlight", "outboundQueueMessages", "minimumSignaturePoints", "minimumInkLength", "pad",
        "noPads", "kioskId", "fhirMode", "paper", "siteAddress", "upload",
    ]

    public init() {}

    /// - Throws: `AgentError(.invalidConfiguration)` naming the file and the key.
    public static func load(from url: URL) throws -> AgentConfigFile {
        guard let data = try? Data(contentsOf: url) else {
            throw AgentError(.invalidConfiguration, "\(url.path): cannot read the config file")
        }
        guard case .object(let object)? = try? RPCValue.parse(data) else {
            throw AgentError(.invalidConfiguration, "\(url.path): the config file must be a JSON object")
        }
        if let unknown = object.keys.filter({ !knownKeys.contains($0) }).sorted().first {
            throw AgentError(
                .invalidConfiguration,
                "\(url.path): unknown key \"\(unknown)\"; known keys: \(knownKeys.sorted().joined(separator: ", "))")
        }
        func wrongType(_ key: String) -> AgentError {
            AgentError(.invalidConfiguration, "\(url.path): \"\(key)\" has the wrong type")
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
        file.socket = try string("socket")
        file.stateDir = try string("stateDir")
        file.studies = try strings("studies")
        file.logLevel = try string("logLevel")
        file.inactivityTimeoutSeconds = try number("inactivityTimeoutSeconds")
        file.clientKillTimeoutSeconds = try number("clientKillTimeoutSeconds")
        file.maxLineBytes = try integer("maxLineBytes")
        file.maxInFlight = try integer("maxInFlight")
        file.outboundQueueMessages = try integer("outboundQueueMessages")
        file.minimumSignaturePoints = try integer("minimumSignaturePoints")
        file.kioskId = try string("kioskId")
        file.fhirMode = try string("fhirMode")
        file.paper = try string("paper")
        if let raw = object["siteAddress"] {
            guard case .object = raw, let address = try? raw.decode(JSONValue.self) else { throw wrongType("siteAddress") }
            file.siteAddress = address
        }
        if let raw = object["upload"] { file.upload = try UploadSettings.parse(raw, file: url.path) }
        file.minimumInkLength = try number("minimumInkLength")
        file.pad = try string("pad")
        file.noPads = try bool("noPads")
        return file
    }
}
