import FileBytes
import Foundation
import NIOCore

/// The UI's files, read once at start into memory: a request can only name one of them, so there is no
/// directory listing and no path outside the folder to traverse to.
public struct StaticFiles: Sendable {
    public struct File: Sendable {
        public let contentType: String
        public let bytes: ByteBuffer
    }

    let files: [String: File]

    /// Regular files under `folder` (not symbolic links, not dot-files), keyed by their path from it (`/app.js`).
    public init(folder: URL) throws {
        guard FileManager.default.fileExists(atPath: folder.appendingPathComponent("index.html").path) else {
            throw BridgeConfigurationError.uiFolderMissing(folder.path)
        }
        var files: [String: File] = [:]
        let root = folder.standardizedFileURL.resolvingSymlinksInPath().path
        let enumerator = FileManager.default.enumerator(
            at: URL(fileURLWithPath: root), includingPropertiesForKeys: [.isRegularFileKey, .isSymbolicLinkKey],
            options: [.skipsHiddenFiles])
        while let url = enumerator?.nextObject() as? URL {
            let values = try url.resourceValues(forKeys: [.isRegularFileKey, .isSymbolicLinkKey])
            guard values.isRegularFile == true, values.isSymbolicLink != true,
                let type = Self.contentTypes[url.pathExtension.lowercased()]
            else { continue }
            let path = url.standardizedFileURL.path
            guard path.hasPrefix(root + "/") else { continue }
            let data = try FileBytes.read(url.path)
            files[String(path.dropFirst(root.count))] = File(contentType: type, bytes: ByteBuffer(bytes: data))
        }
        self.files = files
    }

    /// The file a request path names: `/` is `/index.html`, `/staff` is `/staff.html`. `nil` for anything else,
    /// including every path with `..`, `%2e%2e`, a backslash or a NUL.
    public func file(forRequestPath rawPath: String) -> File? {
        guard let path = Self.normalise(rawPath) else { return nil }
        switch path {
        case "/": return files["/index.html"]
        case "/staff": return files["/staff.html"]
        case "/favicon.ico": return files["/favicon.ico"] ?? files["/icon.svg"]
        default: return files[path]
        }
    }

    /// The decoded path without its query, or `nil` when it tries to leave the folder or is malformed.
    public static func normalise(_ uri: String) -> String? {
        let pathPart = uri.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false).first.map(String.init) ?? ""
        guard pathPart.hasPrefix("/"), let decoded = pathPart.removingPercentEncoding else { return nil }
        guard !decoded.contains("\\"), !decoded.contains("\0"), !decoded.contains("//") else { return nil }
        for segment in decoded.split(separator: "/") where segment == ".." || segment == "." { return nil }
        return decoded
    }

    static let contentTypes: [String: String] = [
        "html": "text/html; charset=utf-8",
        "css": "text/css; charset=utf-8",
        "js": "text/javascript; charset=utf-8",
        "mjs": "text/javascript; charset=utf-8",
        "json": "application/json",
        "svg": "image/svg+xml",
        "png": "image/png",
        "jpg": "image/jpeg",
        "webp": "image/webp",
        "woff2": "font/woff2",
        "ico": "image/x-icon",
    ]
}
