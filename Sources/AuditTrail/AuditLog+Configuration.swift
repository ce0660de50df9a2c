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
        for name in names {
            let url = directory.appendingPathComponent(name)
            let found: String?
            do {
                found = try newestConfiguration(inFileAt: url.path)
            } catch {
                throw AuditTrailError(.readFailed, "cannot read the audit file; check its permissions", file: url.path, cause: error)
            }
            if let found { return try? AuditDigest(hex: found) }
        }
        return nil
    }

    /// The `configuration` of the newest `agent.started` or `config.changed` line in the file at `path`, read from
    /// its end a chunk at a time: a kiosk that restarts daily finds its last start in the first chunk, and one that
    /// ran for months reads back to it without holding the whole file.
    static func newestConfiguration(
        inFileAt path: String, chunkSize: Int = 1 << 20
    ) throws(FileBytes.Failure) -> String? {
        let newline = UInt8(ascii: "\n")
        var found: String?
        // The start of the line the previous chunk began with (it began in this chunk or earlier), with its newline.
        var carry: [UInt8] = []
        try FileBytes.readBackward(path, chunkSize: chunkSize) { chunk, offset in
            guard let lastNewline = chunk.lastIndex(of: newline) else {
                carry = Array(chunk) + carry  // a line longer than a chunk
                if offset == 0 { found = newestConfiguration(in: carry) }
                return found == nil && offset > 0
            }
            // Newest first: the line that runs into the previous chunk, then the chunk's whole lines in place.
            found = newestConfiguration(in: Array(chunk[(lastNewline + 1)...]) + carry)
            let whole = offset == 0 ? 0 : (chunk.firstIndex(of: newline) ?? lastNewline) + 1
            if found == nil, whole <= lastNewline {
                found = newestConfiguration(in: UnsafeBufferPointer(rebasing: chunk[whole...lastNewline]))
            }
            carry = Array(chunk[..<whole])
            return found == nil
        }
        return found
    }

    /// The `configuration` of the newest `agent.started` or `config.changed` line in `bytes`.
    static func newestConfiguration(in bytes: [UInt8]) -> String? {
        bytes.withUnsafeBufferPointer { newestConfiguration(in: $0) }
    }

    /// The `configuration` of the newest `agent.started` or `config.changed` line in `buffer`.
    ///
    /// Searches back from the end for the `"configuration":` key, which `AuditLog` writes for these two events
    /// only, and decodes only the lines holding it. A log holds up to `defaultMaxFileBytes` (8 MB), tens of
    /// thousands of flow lines since the agent last started; splitting the file into lines and decoding each made
    /// the agent's start-up grow with its log (a third of a second for a full one with no start in it).
    static func newestConfiguration(in buffer: UnsafeBufferPointer<UInt8>) -> String? {
        let kinds: Set<String> = [AuditEvent.Kind.agentStarted.rawValue, AuditEvent.Kind.configurationChanged.rawValue]
        let newline = UInt8(ascii: "\n")
        var end = buffer.count
        while let key = ConfigurationKey.last(in: buffer, before: end) {
            let start = buffer[..<key].lastIndex(of: newline).map { $0 + 1 } ?? 0
            let lineEnd = buffer[key...].firstIndex(of: newline) ?? buffer.count
            if let line = AuditLine.parse(Array(buffer[start..<lineEnd])), kinds.contains(line.event),
                let configuration = line.configuration {
                return configuration
            }
            end = start
        }
        return nil
    }
}

/// The `"configuration":` key, found backwards by Horspool's method: a window that does not match moves back by
/// the distance to the nearest earlier place its first byte could take in the key, 13 bytes on average over an
/// 8 MB log of flows. Reading and searching 7 MB of flows takes a few milliseconds, which the agent spends beside
/// loading its studies rather than after (`AgentAssembly.run`; `make bench`, "Start-up after months of use").
private enum ConfigurationKey {
    static let bytes: [UInt8] = Array(#""configuration":"#.utf8)

    /// For each byte value, how far a window starting at that byte moves back: the least k ≥ 1 with
    /// `bytes[k] == byte`, or the key's length.
    static let shifts: [Int] = {
        var shifts = [Int](repeating: bytes.count, count: 256)
        for k in (1..<bytes.count).reversed() { shifts[Int(bytes[k])] = k }
        return shifts
    }()

    /// Where the last key that ends at or before `end` starts.
    static func last(in buffer: UnsafeBufferPointer<UInt8>, before end: Int) -> Int? {
        bytes.withUnsafeBufferPointer { key in
            shifts.withUnsafeBufferPointer { shifts in
                var index = min(end, buffer.count) - key.count
                while index >= 0 {
                    if UnsafeBufferPointer(rebasing: buffer[index..<(index + key.count)]).elementsEqual(key) {
                        return index
                    }
                    index -= shifts[Int(buffer[index])]
                }
                return nil
            }
        }
    }
}
