import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A rendered consent PDF, in memory: the caller decides where the bytes go.
public struct RenderedPDF: Sendable {
    /// The PDF file's bytes.
    public var data: Data
    public var pageCount: Int
    /// What the renderer had to work around (malformed HTML, a missing image, rejected markup), one sentence each,
    /// naming the section. Never contains PHI.
    public var warnings: [String]

    public init(data: Data, pageCount: Int, warnings: [String]) {
        self.data = data
        self.pageCount = pageCount
        self.warnings = warnings
    }

    /// Writes the PDF so that the destination holds either the old file or the complete new one, never a part.
    ///
    /// The bytes go to a temporary file in the same directory (mode 0600: a signed consent holds PHI), are
    /// fsync'ed, then renamed over `url`, and the directory is fsync'ed so the rename survives a power cut.
    ///
    /// - Throws: `ConsentPDFError.Code.writeFailed` naming the step and errno; the temporary file is removed.
    public func writeAtomically(to url: URL) throws {
        try AtomicFileWriter.write(data, to: url)
    }
}

/// The temp-file, fsync, rename sequence behind `RenderedPDF.writeAtomically(to:)`.
enum AtomicFileWriter {
    static func write(_ data: Data, to url: URL, mode: mode_t = 0o600) throws {
        let directory = url.deletingLastPathComponent().path
        let template = directory + "/." + url.lastPathComponent + ".XXXXXX"
        var templateBytes = Array(template.utf8CString)
        let fd = templateBytes.withUnsafeMutableBufferPointer { buffer in buffer.baseAddress.map { mkstemp($0) } ?? -1 }
        guard fd >= 0 else { throw failure("cannot create a temporary file in the directory", url) }
        let tempPath = String(decoding: templateBytes.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        var renamed = false
        defer {
            if !renamed { unlink(tempPath) }
        }
        do {
            defer { close(fd) }
            guard fchmod(fd, mode) == 0 else { throw failure("cannot set the file mode", url) }
            try data.withUnsafeBytes { raw in
                guard let base = raw.baseAddress else { return }
                var offset = 0
                while offset < raw.count {
                    let n = posixWrite(fd, base + offset, raw.count - offset)
                    if n < 0 {
                        if errno == EINTR { continue }
                        throw failure("cannot write the file", url)
                    }
                    offset += n
                }
            }
            guard fsync(fd) == 0 else { throw failure("cannot flush the file to disk", url) }
        }
        guard rename(tempPath, url.path) == 0 else { throw failure("cannot move the file into place", url) }
        renamed = true
        let dirFD = open(directory.isEmpty ? "." : directory, O_RDONLY | O_DIRECTORY)
        if dirFD >= 0 {
            // The file is complete and in place; a failed directory fsync only weakens durability.
            _ = fsync(dirFD)
            close(dirFD)
        }
    }

    private static func failure(_ step: String, _ url: URL) -> ConsentPDFError {
        let reason = String(cString: strerror(errno))
        return ConsentPDFError(.writeFailed, "\(step) (\(reason)); check the directory exists and is writable", file: url.path)
    }
}

/// `write(2)`, named apart from `AtomicFileWriter.write`.
private func posixWrite(_ fd: Int32, _ bytes: UnsafeRawPointer, _ count: Int) -> Int {
    #if canImport(Glibc)
    Glibc.write(fd, bytes, count)
    #else
    Darwin.write(fd, bytes, count)
    #endif
}
