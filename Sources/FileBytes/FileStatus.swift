#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// What `stat(2)` says of a path: its kind and size, nothing else.
///
/// Foundation's `FileManager.attributesOfItem` answers the same questions but also names the owner and group, a
/// passwd and group lookup (NSS, and systemd-userdb's socket where it is configured) on every call: a study load
/// asked it for each of its ~40 files, a noticeable part of the agent's start-up.
public struct FileStatus: Sendable, Hashable {
    public enum Kind: Sendable, Hashable {
        case regular, directory, symbolicLink, other
    }

    public var kind: Kind
    /// In bytes; for a symbolic link (``FileStatus/ofLink(_:)``), the length of its target's name.
    public var size: Int

    public init(kind: Kind, size: Int) {
        self.kind = kind
        self.size = size
    }

    /// The file at `path`, symbolic links followed; nil when it does not exist or cannot be reached (the errno
    /// does not matter to a caller that only asks whether a file is there).
    public static func of(_ path: String) -> FileStatus? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        return FileStatus(info)
    }

    /// The path itself, a symbolic link not followed (as `attributesOfItem` reports it).
    public static func ofLink(_ path: String) -> FileStatus? {
        var info = stat()
        guard lstat(path, &info) == 0 else { return nil }
        return FileStatus(info)
    }

    private init(_ info: stat) {
        switch info.st_mode & S_IFMT {
        case S_IFREG: kind = .regular
        case S_IFDIR: kind = .directory
        case S_IFLNK: kind = .symbolicLink
        default: kind = .other
        }
        size = Int(info.st_size)
    }
}
