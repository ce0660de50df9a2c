import Glibc

/// consentd's UNIX socket as every executable names and reaches it: the default path, and the `sockaddr_un` that
/// `connect(2)` takes and `getsockname(2)` fills, built and read in this one place (consentd, `consentctl walk`,
/// consentweb's default).
public enum LocalSocket {
    /// consentd's default socket: `$XDG_RUNTIME_DIR/consentd.sock`, else `./run/consentd.sock`.
    public static func defaultAgentPath(environment: [String: String]) -> String {
        if let runtime = environment["XDG_RUNTIME_DIR"], !runtime.isEmpty { return runtime + "/consentd.sock" }
        return "./run/consentd.sock"
    }

    /// The longest path a socket address holds, in bytes (107 on Linux: `sun_path` keeps a byte for the NUL).
    public static var maximumPathBytes: Int { MemoryLayout.size(ofValue: sockaddr_un().sun_path) - 1 }

    /// `path` as a NUL-terminated socket address; nil when it is longer than ``maximumPathBytes``.
    public static func address(_ path: String) -> sockaddr_un? {
        let bytes = Array(path.utf8)
        guard bytes.count <= maximumPathBytes else { return nil }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            raw.copyBytes(from: bytes)
            raw[bytes.count] = 0
        }
        return address
    }

    /// Connects `fd` (an `AF_UNIX` stream socket) to `path`: 0, or the errno (`ENAMETOOLONG` for a path no address
    /// holds). Not retried on EINTR: an interrupted `connect` goes on in the kernel, and a UNIX socket's completes
    /// or fails at once.
    public static func connect(_ fd: Int32, to path: String) -> Int32 {
        guard var address = address(path) else { return ENAMETOOLONG }
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                Glibc.connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
            }
        }
        return result == 0 ? 0 : errno
    }

    /// The path `fd` is bound to: nil for other families and unnamed sockets, `@name` for abstract ones.
    public static func boundPath(of fd: Int32) -> String? {
        var address = sockaddr_un()
        var length = socklen_t(MemoryLayout<sockaddr_un>.size)
        let result = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        guard result == 0, address.sun_family == sa_family_t(AF_UNIX) else { return nil }
        let pathLength = min(Int(length) - MemoryLayout<sa_family_t>.size, MemoryLayout.size(ofValue: address.sun_path))
        guard pathLength > 0 else { return nil }
        let bytes = withUnsafeBytes(of: &address.sun_path) { Array($0.prefix(pathLength)) }
        if bytes.first == 0 { return "@" + String(decoding: bytes.dropFirst(), as: UTF8.self) }
        return String(decoding: bytes.prefix { $0 != 0 }, as: UTF8.self)
    }
}
