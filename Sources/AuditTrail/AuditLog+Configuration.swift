import FileBytes
import Foundation

extension AuditLog {
    /// The configuration hash of the newest `agent.started` or `config.changed` line, so the agent can log
    /// `config.changed` when its configuration differs from the previous start's without keeping state elsewhere.
    ///
    /// Reads the files newest first and stops at the first match; usually only `audit.log` is read.
    ///
    /// - Returns: nil when no start was logged yet (or there is no audit directory yet).
    /// - Throws: `AuditTrailError.readFailed` when the directory or a file cannot be read.
    public static func lastConfiguration(in directory: URL) throws -> AuditDigest? {
        guard FileManager.default.fileExists(atPath: directory.path) else { return nil }
        let scan = try AuditFileName.scan(directory)
        let names = (scan.hasCurrent ? [AuditFileName.current] : []) + scan.rotated.reversed().map(AuditFileName.rotated)
        let kinds: Set<String> = [AuditEvent.Kind.agentStarted.rawValue, AuditEvent.Kind.configurationChanged.rawValue]
        for name in names {
            let url = directory.appendingPathComponent(name)
            let data: Data
            do {
                // A fresh audit.log is empty: a plain POSIX read (Foundation leaks on every empty file).
                data = Data(try FileBytes.read(url.path, limit: .max))
            } catch {
                throw AuditTrailError(.readFailed, "cannot read the audit file; check its permissions", file: url.path, cause: error)
            }
            for bytes in data.split(separator: UInt8(ascii: "\n")).reversed() {
                guard let line = AuditLine.parse(bytes), kinds.contains(line.event), let hex = line.configuration else { continue }
                return try? AuditDigest(hex: hex)
            }
        }
        return nil
    }
}
