import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The socket file's life: make its folder, replace a stale file only when nobody listens, remove it at exit.
enum UnixSocketPath {
    /// Prepares `path` for bind.
    ///
    /// - Throws: `AgentError(.socketInUse)` when another process answers on it or the path is not a socket
    ///   (never delete a file we did not create), `.invalidConfiguration` when the path is too long.
    static func prepare(_ path: String) throws {
        guard path.utf8.count < MemoryLayout.size(ofValue: sockaddr_un().sun_path) else {
            throw AgentError(.invalidConfiguration, "the socket path is longer than a UNIX socket address allows; use a shorter --socket")
        }
        let folder = (path as NSString).deletingLastPathComponent
        if !folder.isEmpty {
            try? FileManager.default.createDirectory(
                atPath: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o750])
        }
        var status = stat()
        guard lstat(path, &status) == 0 else { return }
        guard status.st_mode & S_IFMT == S_IFSOCK else {
            throw AgentError(.socketInUse, "\(path) exists and is not a socket; refusing to replace it")
        }
        if answers(path) {
            throw AgentError(.socketInUse, "another process listens on \(path); stop it or choose another --socket")
        }
        // Nobody listens: the file is left over from a crash.
        unlink(path)
    }

    /// Whether a process accepts connections on `path`.
    static func answers(_ path: String) -> Bool {
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            for (i, byte) in path.utf8.prefix(raw.count - 1).enumerated() { raw[i] = byte }
        }
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        return result == 0
    }

    /// Removes the socket file if it is still a socket.
    static func remove(_ path: String) {
        var status = stat()
        if lstat(path, &status) == 0, status.st_mode & S_IFMT == S_IFSOCK { unlink(path) }
    }
}
