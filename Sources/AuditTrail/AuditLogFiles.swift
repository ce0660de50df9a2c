import FileBytes
import Foundation

/// The files of an audit directory in chain order, read whole and split into lines; what the verifier and
/// `consentctl audit show` walk.
public struct AuditLogFiles: Sendable {
    /// One file in chain order; `lines` is nil when the file is missing.
    public struct File: Sendable {
        public var name: String
        /// Each complete line's bytes, without its `\n`; nil when the file is missing.
        public var lines: [Data]?
        /// Bytes after the last `\n`: a line a crash tore, or one being written right now.
        public var torn: Data

        /// A file as read: its `contents` split into complete lines and the torn rest; nil contents: missing.
        public init(name: String, contents: Data?) {
            self.name = name
            guard let contents else {
                (lines, torn) = (nil, Data())
                return
            }
            // Found in the raw bytes: `Data`'s generic `split` checks exclusivity on every byte, and was most of the
            // time `consentctl audit verify` (and the FuzzVerifiers target) spent outside JSON.
            var lines: [Data] = []
            var start = 0
            contents.withUnsafeBytes { bytes in
                while let end = bytes[start...].firstIndex(of: UInt8(ascii: "\n")) {
                    lines.append(Data(bytes[start..<end]))
                    start = end + 1
                }
            }
            // The piece after the last "\n" is not a line yet: empty for a clean file, torn bytes otherwise.
            torn = Data(contents.dropFirst(start))
            self.lines = lines
        }
    }

    public var directory: URL
    /// `audit.log.1` … `audit.log.N` (every number up to the highest, missing ones included) and then `audit.log`
    /// when it exists.
    public var files: [File]

    /// A log held in memory (the FuzzVerifiers target's); `files` in chain order, as `read` lists them.
    public init(directory: URL, files: [File]) {
        self.directory = directory
        self.files = files
    }

    /// Reads every file of the log in `directory`.
    ///
    /// - Throws: `AuditTrailError.readFailed` when the directory or a present file cannot be read.
    public static func read(directory: URL) throws -> AuditLogFiles {
        let scan = try AuditFileName.scan(directory)
        var names = (1...max(1, scan.rotated.last ?? 0)).map(AuditFileName.rotated)
        if scan.rotated.isEmpty { names = [] }
        if scan.hasCurrent { names.append(AuditFileName.current) }
        let present = Set(scan.rotated.map(AuditFileName.rotated) + (scan.hasCurrent ? [AuditFileName.current] : []))
        var files: [File] = []
        for name in names {
            guard present.contains(name) else {
                files.append(File(name: name, contents: nil))
                continue
            }
            let url = directory.appendingPathComponent(name)
            let data: Data
            do {
                // A fresh audit.log is empty: a plain POSIX read (Foundation leaks on every empty file).
                data = Data(try FileBytes.read(url.path, limit: .max))
            } catch {
                throw AuditTrailError(.readFailed, "cannot read the audit file; check its permissions", file: url.path, cause: error)
            }
            files.append(File(name: name, contents: data))
        }
        return AuditLogFiles(directory: directory, files: files)
    }

    /// Every line that parses, in chain order, with the file and line number it came from.
    public var entries: [(file: String, line: Int, entry: AuditLine)] {
        files.flatMap { file in
            (file.lines ?? []).enumerated().compactMap { index, bytes in
                AuditLine.parse(bytes).map { (file: file.name, line: index + 1, entry: $0) }
            }
        }
    }
}
