import FileBytes
import Foundation

/// An image a study shows, as the agent hands it to a UI (`study.asset`) and the PDF draws it: a scene's `image` or
/// an `<img src>` of the study's HTML, read when the study loads.
///
/// Only these files are ever sent or printed: a UI cannot name any other file of the kiosk, and the PDF renderer
/// takes an `<img src>` from here, never from the folder. Every image is read once, whatever its size (up to the
/// study's caps, `StudyFileReader`), so its bytes are part of the study version (a record pins the pictures the
/// participant saw and the PDF printed) and nothing swapped in the folder afterwards is shown.
public struct StudyAsset: Sendable, Hashable {
    /// The most bytes one image may have to be sent to a UI: its base64 (4/3 larger) must fit in one protocol line
    /// of a UI bridge capped at the agent's `maxLineBytes` (1 MiB). A larger one is still read, hashed and printed;
    /// `study.asset` answers `AssetTooLarge` for it.
    public static let maximumBytes = 512 * 1024

    /// The image types sent, by their first bytes (never by the file name). SVG is not among them: it can carry
    /// script.
    public static let mediaTypes = ["image/png", "image/jpeg", "image/gif", "image/webp"]

    /// The name the study uses for it: a scene's `image`, or the `src` of an `<img>`.
    public var name: String
    /// The file, relative to the study folder (a translation's own file is in its language folder).
    public var file: String
    public var mediaType: String
    public var size: Int
    /// The file's bytes as read at load: the ones the version hashed.
    public var bytes: Data
    /// Whether a UI may be sent it (`maximumBytes`).
    public var isDeliverable: Bool { size <= Self.maximumBytes }

    /// The media type of image bytes, nil when they are none of `mediaTypes`.
    public static func mediaType(of bytes: Data) -> String? {
        let b = [UInt8](bytes.prefix(12))
        if b.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) { return "image/png" }
        if b.starts(with: [0xFF, 0xD8, 0xFF]) { return "image/jpeg" }
        if b.starts(with: Array("GIF87a".utf8)) || b.starts(with: Array("GIF89a".utf8)) { return "image/gif" }
        if b.count == 12, b.starts(with: Array("RIFF".utf8)), Array(b[8..<12]) == Array("WEBP".utf8) { return "image/webp" }
        return nil
    }
}

extension Study {
    /// The image the study, in this language, uses under `name`; nil for any other name.
    public func asset(named name: String) -> StudyAsset? { assets[name] }
}

/// Finds and reads the images a study's language uses.
enum StudyAssetLoader {
    static let imageExtensions = ["png", "jpg", "jpeg", "gif", "webp"]

    /// Reads every image the sections' scenes and the study's HTML name. Scene images are bare names looked up
    /// as `<name>.<png|jpg|jpeg|gif|webp>` (or the name itself when it has such an extension) in the language
    /// folder, its `images/`, then the study folder and its `images/`; an `<img src>` is a path relative to the
    /// language folder, then to the study folder. Names that could leave the study folder are never looked up.
    ///
    /// - Throws: the reader's `ConsentCoreError` for an image found but not read (over a cap, unreadable): it would
    ///   be a picture the version does not cover, so the study does not load.
    static func load(
        document: ConsentDocument, html: [String], logo: (name: String, location: String)? = nil, reader: StudyFileReader
    ) throws -> (assets: [String: StudyAsset], diagnostics: [StudyDiagnostic]) {
        var assets: [String: StudyAsset] = [:]
        var diagnostics: [StudyDiagnostic] = []
        let prefix = reader.languageFolder.map { "\($0)/" } ?? ""

        func add(_ name: String, candidates: [String], location: String, reportMissing: Bool = true) throws {
            guard assets[name] == nil else { return }
            guard let file = candidates.first(where: { isRegularFileInside(reader, $0) }) else {
                // A missing <img> file is StudyImageCheck's error already.
                guard reportMissing else { return }
                diagnostics.append(
                    .warning(
                        .assetUnavailable, file: prefix + name, location: location,
                        "image \"\(name)\" was not found in the study folder; UIs cannot show it"))
                return
            }
            // Read whatever its size: an image left unread would be one the PDF or a UI could take from the folder
            // later, outside the version.
            let bytes = try reader.data(file)
            guard let type = StudyAsset.mediaType(of: bytes) else {
                diagnostics.append(
                    .warning(
                        .assetUnavailable, file: file, location: location,
                        "\"\(file)\" is not a PNG, JPEG, GIF or WebP image; UIs cannot show it"))
                return
            }
            let asset = StudyAsset(name: name, file: file, mediaType: type, size: bytes.count, bytes: bytes)
            if !asset.isDeliverable {
                diagnostics.append(
                    .warning(
                        .assetUnavailable, file: file, location: location,
                        "image \"\(file)\" has \(bytes.count) bytes, more than the \(StudyAsset.maximumBytes) a UI can be "
                            + "sent (the PDF prints it); shrink it"))
            }
            assets[name] = asset
        }

        for section in document.sections {
            guard let name = section.image, isSafeName(name) else { continue }
            try add(name, candidates: sceneCandidates(name, languageFolder: reader.languageFolder),
                location: "term[\(section.termIndex)] image")
        }
        if let logo, isSafeName(logo.name) {
            // C3-PRO names the logo as an iOS bundle image, which may be only `<name>@2x.png`.
            let resolutions = [logo.name, "\(logo.name)@2x", "\(logo.name)@3x"]
            try add(
                logo.name, candidates: resolutions.flatMap { sceneCandidates($0, languageFolder: reader.languageFolder) },
                location: logo.location)
        }
        for page in html {
            for source in StudyImageCheck.sources(in: page) {
                guard let path = localPath(source) else { continue }
                try add(source, candidates: [prefix + path, path].uniqued(), location: "<img src>", reportMissing: false)
            }
        }
        return (assets, diagnostics)
    }

    /// A scene image name: a bare file name, never a path.
    static func isSafeName(_ name: String) -> Bool {
        !name.isEmpty && name.utf8.count <= 255 && !name.hasPrefix(".")
            && !name.contains(where: { $0 == "/" || $0 == "\\" || $0 == "\0" || $0 == ":" })
    }

    /// The study-relative path an `<img src>` names; nil for remote, `data:` and absolute URLs, and for paths
    /// that climb (`..`) or carry a query or fragment.
    static func localPath(_ source: String) -> String? {
        let trimmed = source.trimmingCharacters(in: .whitespaces)
        guard !trimmed.isEmpty, trimmed.utf8.count <= 1024,
            !trimmed.contains(where: { $0 == ":" || $0 == "\\" || $0 == "\0" || $0 == "?" || $0 == "#" }),
            !trimmed.hasPrefix("/")
        else { return nil }
        let path = trimmed.removingPercentEncoding ?? trimmed
        let parts = path.split(separator: "/", omittingEmptySubsequences: false)
        guard !parts.contains(where: { $0.isEmpty || $0 == "." || $0 == ".." || $0.contains("\0") }) else { return nil }
        return path
    }

    static func sceneCandidates(_ name: String, languageFolder: String?) -> [String] {
        let lower = name.lowercased()
        let files = imageExtensions.contains(where: { lower.hasSuffix(".\($0)") })
            ? [name] : imageExtensions.map { "\(name).\($0)" }
        var folders = ["", "images/"]
        if let languageFolder { folders = ["\(languageFolder)/", "\(languageFolder)/images/"] + folders }
        return folders.flatMap { folder in files.map { folder + $0 } }
    }

    /// Whether `path` is a regular file whose real location (symbolic links resolved) is inside the study folder.
    private static func isRegularFileInside(_ reader: StudyFileReader, _ path: String) -> Bool {
        let url = reader.url(path)
        guard let kind = FileStatus.ofLink(url.path)?.kind, kind == .regular || kind == .symbolicLink else { return false }
        let root = reader.root.resolvingSymlinksInPath().standardizedFileURL.path
        let real = url.resolvingSymlinksInPath().standardizedFileURL
        guard real.path.hasPrefix(root + "/"), FileStatus.ofLink(real.path)?.kind == .regular else { return false }
        return true
    }
}

extension Array where Element: Hashable {
    fileprivate func uniqued() -> [Element] {
        var seen: Set<Element> = []
        return filter { seen.insert($0).inserted }
    }
}
