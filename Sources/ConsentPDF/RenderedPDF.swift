import FileBytes
import Foundation

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
        do {
            try DurableWrite.replace(url.path, contents: data)
        } catch {
            let step =
                switch error.call {
                case "open": "cannot create a temporary file in the directory"
                case "fchmod": "cannot set the file mode"
                case "fsync": "cannot flush the file to disk"
                case "rename": "cannot move the file into place"
                default: "cannot write the file"
                }
            let reason = String(cString: strerror(error.errno))
            throw ConsentPDFError(.writeFailed, "\(step) (\(reason)); check the directory exists and is writable", file: url.path)
        }
    }
}
