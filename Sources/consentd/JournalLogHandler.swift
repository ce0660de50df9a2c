import Foundation
import Logging

#if canImport(Glibc)
import Glibc
#endif

/// Log lines for the systemd journal: a sd-daemon(3) priority prefix, the message, then `key=value` metadata,
/// without the timestamp and level words the journal records itself.
///
/// ```
/// <6>listening socket=/run/consentd/consentd.sock activation=systemd
/// <4>allowedPeers is set but not enforced yet uids=1 gids=0
/// <6>pad added label=consentd.pads node=/dev/input/event7
/// ```
/// One entry per line: line breaks inside a message or value are escaped. Values with spaces or quotes are quoted.
/// consentd uses it when its stderr is the journal stream (`JOURNAL_STREAM`), StreamLogHandler otherwise.
struct JournalLogHandler: LogHandler {
    let label: String
    var logLevel: Logger.Level = .info
    var metadata: Logger.Metadata = [:]
    var metadataProvider: Logger.MetadataProvider?

    init(label: String, metadataProvider: Logger.MetadataProvider? = nil) {
        self.label = label
        self.metadataProvider = metadataProvider
    }

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    /// Whether stderr is the journal stream systemd connected (`JOURNAL_STREAM=<device>:<inode>` of its socket).
    static func isStandardErrorJournal(environment: [String: String] = ProcessInfo.processInfo.environment) -> Bool {
        guard let value = environment["JOURNAL_STREAM"] else { return false }
        let parts = value.split(separator: ":")
        guard parts.count == 2, let device = UInt64(parts[0]), let inode = UInt64(parts[1]) else { return false }
        var status = stat()
        guard fstat(STDERR_FILENO, &status) == 0 else { return false }
        return UInt64(status.st_dev) == device && UInt64(status.st_ino) == inode
    }

    /// The sd-daemon priority of a level (syslog's numbers).
    static func priority(_ level: Logger.Level) -> Int {
        switch level {
        case .trace, .debug: return 7
        case .info: return 6
        case .notice: return 5
        case .warning: return 4
        case .error: return 3
        case .critical: return 2
        }
    }

    func log(event: LogEvent) {
        var all = metadata
        if let provided = metadataProvider?.get() { all.merge(provided) { _, new in new } }
        if let explicit = event.metadata { all.merge(explicit) { _, new in new } }
        if let error = event.error { all["error"] = "\(error)" }
        var line = "<\(Self.priority(event.level))>" + Self.escaped("\(event.message)")
        if label != "consentd" { line += " label=" + Self.value(label) }
        for (key, value) in all.sorted(by: { $0.key < $1.key }) {
            line += " \(key)=" + Self.value("\(value)")
        }
        line += "\n"
        FileHandle.standardError.write(Data(line.utf8))
    }

    private static func escaped(_ text: String) -> String {
        text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\n", with: "\\n")
            .replacingOccurrences(of: "\r", with: "\\r")
    }

    private static func value(_ text: String) -> String {
        let plain = escaped(text)
        guard plain.isEmpty || plain.contains(where: { $0 == " " || $0 == "\"" || $0 == "=" }) else { return plain }
        return "\"" + plain.replacingOccurrences(of: "\"", with: "\\\"") + "\""
    }
}
