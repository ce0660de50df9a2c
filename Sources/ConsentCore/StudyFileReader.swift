import FileBytes
import Foundation

/// Reads the files of a study folder with the checks a kiosk needs: a size cap per file and for the whole study,
/// UTF-8 for text, and errors that name the file. It also remembers every file it read, so the study version can
/// hash exactly what was used: the bytes it hands out are the bytes hashed, and nothing of the study is read after
/// its load (the PDF and the UI get images from `Study.assets`).
///
/// Not `Sendable`: it lives for one `Study.load`, on one thread. The languages of one load share a
/// `StudyFileStore`, so a file two languages use is read once and they hold the same bytes.
public final class StudyFileReader {
    /// The largest study file accepted (a Contract, one HTML page, one image). Real consents are a few hundred KB.
    public static let defaultMaximumFileBytes = 8 * 1024 * 1024
    /// The most a study (every language, each file counted once) may hold: what it keeps in memory for as long as it
    /// is served, and what one package (`consentctl study pack`) may carry.
    public static let defaultMaximumStudyBytes = 64 * 1024 * 1024

    /// The folder files are read from: the study folder, or the folder of a Contract loaded on its own.
    public let root: URL
    public let maximumFileBytes: Int
    /// The sub-folder of a translation (`de`), relative to `root`: HTML pages are looked up there first and
    /// inherited from `root` when the translation has none. Nil for the study's default language.
    public let languageFolder: String?
    /// Every file read so far, by path relative to `root`, with its bytes.
    public private(set) var usedFiles: [String: Data] = [:]
    /// The HTML pages a translation took from the default language (relative paths), for the coordinator.
    public private(set) var inheritedPages: [String] = []
    /// A warning for every place a JSON file read so far relied on a leniency of Apple's JSONSerialization
    /// (`json(_:)`), naming the file and the line.
    public private(set) var lenientJSON: [StudyDiagnostic] = []
    /// The bytes read so far by every reader of this load.
    let store: StudyFileStore

    public init(
        root: URL, languageFolder: String? = nil, maximumFileBytes: Int = StudyFileReader.defaultMaximumFileBytes,
        maximumStudyBytes: Int = StudyFileReader.defaultMaximumStudyBytes
    ) {
        self.root = root
        self.languageFolder = languageFolder
        self.maximumFileBytes = maximumFileBytes
        store = StudyFileStore(maximumBytes: maximumStudyBytes)
    }

    /// A reader of another language of the same load, sharing `store` (and its total).
    init(root: URL, languageFolder: String?, maximumFileBytes: Int, store: StudyFileStore) {
        self.root = root
        self.languageFolder = languageFolder
        self.maximumFileBytes = maximumFileBytes
        self.store = store
    }

    /// Whether `relativePath` exists as a regular file.
    public func exists(_ relativePath: String) -> Bool {
        guard let status = FileStatus.of(url(relativePath).path) else { return false }
        return status.kind != .directory
    }

    /// Reads a file's bytes.
    ///
    /// - Throws: `ConsentCoreError` `.fileNotFound`, `.fileUnreadable` or `.fileTooLarge` (the file, or the study
    ///   with it, is over its cap), naming the file.
    public func data(_ relativePath: String) throws -> Data {
        if let bytes = store.bytes(of: relativePath) {
            usedFiles[relativePath] = bytes
            return bytes
        }
        let fileURL = url(relativePath)
        let path = fileURL.path
        guard let status = FileStatus.of(path) else {
            throw ConsentCoreError(.fileNotFound, "the file does not exist", file: path)
        }
        guard status.kind != .directory else {
            throw ConsentCoreError(.fileUnreadable, "this is a folder, not a file", file: path)
        }
        guard status.size <= maximumFileBytes else {
            throw ConsentCoreError(
                .fileTooLarge,
                "the file has \(status.size) bytes, more than the \(maximumFileBytes) a study file may have; shrink it",
                file: path)
        }
        let bytes: Data
        do {
            // The size can change between stat and read; the cap is about what we hold, so the read keeps it too.
            bytes = Data(try FileBytes.read(path, limit: maximumFileBytes))
        } catch where error.errno == EFBIG {
            throw ConsentCoreError(.fileTooLarge, "the file grew past \(maximumFileBytes) bytes while read", file: path)
        } catch {
            throw ConsentCoreError(.fileUnreadable, "the file cannot be read (check its permissions)", file: path)
        }
        let kept = try store.keep(bytes, of: relativePath, file: path)
        usedFiles[relativePath] = kept
        return kept
    }

    /// Reads a UTF-8 text file.
    ///
    /// - Throws: as `data(_:)`, and `.notUTF8` when the bytes are not valid UTF-8.
    public func text(_ relativePath: String) throws -> String {
        let bytes = try data(relativePath)
        guard let text = String(validating: bytes, as: UTF8.self) else {
            usedFiles[relativePath] = nil
            throw ConsentCoreError(.notUTF8, "the file is not valid UTF-8 text; save it as UTF-8", file: url(relativePath).path)
        }
        return text
    }

    /// Reads a JSON file as C3-PRO reads it on iOS, with Apple's JSONSerialization: a comma after the last member
    /// of an object or element of an array is accepted (`JSONParser.Options.lenientDocument`, docs/C3PRO.md), and
    /// each one becomes a warning in `lenientJSON`.
    ///
    /// - Throws: as `data(_:)`, and `.invalidJSON` when it does not parse, naming the line and column.
    public func json(_ relativePath: String) throws -> JSONValue {
        let bytes = try data(relativePath)
        var leniencies: [JSONParser.Leniency] = []
        do throws(JSONParser.Error) {
            let value = try JSONParser.parse(bytes, options: .lenientDocument, leniencies: &leniencies)
            lenientJSON += leniencies.map { leniency in
                let position = TextPosition(of: leniency.offset, in: bytes)
                return .warning(
                    .lenientJSON, file: relativePath, location: position.description,
                    "\(Self.describe(leniency.kind)): RFC 8259 does not allow it; the kiosk reads it as "
                        + "Apple's JSONSerialization, and so C3-PRO, does, but other tools may refuse the file")
            }
            return value
        } catch {
            usedFiles[relativePath] = nil
            let position = TextPosition(of: error.offset, in: bytes)
            throw ConsentCoreError(
                .invalidJSON, "the file is not valid JSON (\(error.reason) at \(position), byte \(error.offset))",
                file: url(relativePath).path)
        }
    }

    /// Finds `<name>.html` at the study root, then `HTMLContent/<name>.html` (C3-PRO's order, docs/C3PRO.md); for
    /// a translation, first the same two places in its language folder.
    ///
    /// - Returns: the relative path found, or nil when none exists.
    public func htmlPath(named name: String) -> String? {
        // A name is a bare file name: refuse anything that could climb out of the study folder.
        guard !name.isEmpty, !name.contains("/"), !name.contains("\0"), name != ".", name != ".." else { return nil }
        let candidates = ["\(name).html", "HTMLContent/\(name).html"]
        if let languageFolder {
            for candidate in candidates.map({ "\(languageFolder)/\($0)" }) where exists(candidate) {
                return candidate
            }
        }
        for candidate in candidates where exists(candidate) {
            if languageFolder != nil, !inheritedPages.contains(candidate) { inheritedPages.append(candidate) }
            return candidate
        }
        return nil
    }

    public func url(_ relativePath: String) -> URL {
        root.appendingPathComponent(relativePath)
    }

    private static func describe(_ kind: JSONParser.Leniency.Kind) -> String {
        switch kind {
        case .trailingCommaInObject: "a comma after the last member of an object"
        case .trailingCommaInArray: "a comma after the last element of an array"
        }
    }
}

/// A byte offset of a text file as a coordinator's editor shows it: line and column, both from 1, the column
/// counted in Unicode scalars.
struct TextPosition: CustomStringConvertible, Equatable {
    var line: Int
    var column: Int

    init(line: Int, column: Int) {
        self.line = line
        self.column = column
    }

    init(of offset: Int, in bytes: Data) {
        var line = 1
        var column = 1
        for byte in bytes.prefix(max(0, offset)) {
            if byte == 0x0A {
                line += 1
                column = 1
            } else if byte & 0xC0 != 0x80 {
                // A UTF-8 continuation byte belongs to the scalar before it.
                column += 1
            }
        }
        self.init(line: line, column: column)
    }

    var description: String { "line \(line), column \(column)" }
}

/// The files one `Study.load` read, shared by the readers of its languages (which load side by side), and their
/// total against the study's cap: a file is read from disk once, counted once, and every language that uses it holds
/// the same bytes.
final class StudyFileStore: @unchecked Sendable {
    let maximumBytes: Int
    // An NSLock (a pthread mutex) as `SideBySide`'s slots: ThreadSanitizer follows it.
    private let lock = NSLock()
    private var files: [String: Data] = [:]
    private var total = 0

    init(maximumBytes: Int) { self.maximumBytes = maximumBytes }

    /// The bytes already read for `relativePath`.
    func bytes(of relativePath: String) -> Data? { lock.withLock { files[relativePath] } }

    /// Keeps what was just read, unless another language read the file first (its bytes are then the ones used).
    ///
    /// - Throws: `.fileTooLarge` naming `file` when it would take the study past `maximumBytes`.
    func keep(_ bytes: Data, of relativePath: String, file: String) throws -> Data {
        try lock.withLock {
            if let first = files[relativePath] { return first }
            guard total + bytes.count <= maximumBytes else {
                throw ConsentCoreError(
                    .fileTooLarge,
                    "with this file's \(bytes.count) bytes the study would hold \(total + bytes.count), more than the "
                        + "\(maximumBytes) a study may hold; shrink its images or leave files out",
                    file: file)
            }
            total += bytes.count
            files[relativePath] = bytes
            return bytes
        }
    }
}
