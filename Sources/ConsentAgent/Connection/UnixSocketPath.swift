import LocalSocket
import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The socket file's life: make or check its folder, replace a stale file only when nobody listens, remove it at
/// exit.
///
/// The folder is what keeps other users out. consentd binds, then chmods the socket to 0660, and between the
/// two the socket has the umask's mode; rather than change the process-wide umask (other threads create files
/// and folders meanwhile), the window is made harmless: the folder must admit nobody but its owner (the agent
/// or root) and its group (the UI's), so during the window only they can reach the socket, and every connection
/// is still checked against `allowedPeers`.
enum UnixSocketPath {
    /// Prepares `path` for bind: creates its folder 0750 when missing, else checks it (`folderProblem`).
    ///
    /// - Throws: `AgentError(.socketInUse)` when another process answers on it or the path is not a socket
    ///   (never delete a file we did not create), `.invalidConfiguration` when the path is too long or the
    ///   folder lets others in.
    static func prepare(_ path: String) throws {
        guard path.utf8.count <= LocalSocket.maximumPathBytes else {
            throw AgentError(.invalidConfiguration, "the socket path is longer than a UNIX socket address allows; use a shorter --socket")
        }
        let parent = (path as NSString).deletingLastPathComponent
        let folder = parent.isEmpty ? "." : parent
        var folderStatus = stat()
        if stat(folder, &folderStatus) != 0 {
            try? FileManager.default.createDirectory(
                atPath: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o750])
            guard stat(folder, &folderStatus) == 0 else {
                throw AgentError(.invalidConfiguration, "cannot create the socket's folder \(folder); create it (0750) or choose another --socket")
            }
        }
        if let problem = folderProblem(
            isDirectory: folderStatus.st_mode & S_IFMT == S_IFDIR, mode: folderStatus.st_mode & 0o7777,
            owner: folderStatus.st_uid, agent: geteuid())
        {
            throw AgentError(.invalidConfiguration, "the socket's folder \(folder) \(problem); or choose another --socket")
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

    /// What is wrong with the socket's folder, nil when it admits only its owner and its group: a directory owned by
    /// the agent's user or root, no access for others, no writing for the group (a member could replace the
    /// socket). 0750 with the UI's group, or 2750 so the socket inherits that group, is what is meant.
    static func folderProblem(isDirectory: Bool, mode: mode_t, owner: uid_t, agent: uid_t) -> String? {
        guard isDirectory else { return "is not a directory" }
        guard owner == agent || owner == 0 else {
            return "belongs to uid \(owner), neither the agent's user (\(agent)) nor root; its owner could replace the socket"
        }
        guard mode & 0o027 == 0 else {
            return "has mode \(String(mode, radix: 8)), which lets \(mode & 0o007 != 0 ? "every user reach" : "its group replace") the socket; make it 0750 (chmod 750, group: the UI's group)"
        }
        return nil
    }

    /// Whether a process accepts connections on `path`.
    static func answers(_ path: String) -> Bool {
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        return LocalSocket.connect(fd, to: path) == 0
    }

    /// Removes the socket file if it is still a socket.
    static func remove(_ path: String) {
        var status = stat()
        if lstat(path, &status) == 0, status.st_mode & S_IFMT == S_IFSOCK { unlink(path) }
    }
}
