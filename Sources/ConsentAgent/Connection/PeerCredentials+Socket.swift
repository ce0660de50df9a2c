import NIOCore

#if canImport(Glibc)
import Glibc
#endif

extension PeerCredentials {
    /// Reads a connected UNIX socket's peer credentials: `SO_PEERCRED` (pid, uid, primary gid) and `SO_PEERGROUPS`
    /// (supplementary groups), both as the kernel recorded them at `connect()`; nil when they cannot be read.
    ///
    /// Through NIO's `unsafeGetSocketOption`, which reads a fixed-size value into zeroed memory and does not
    /// return the length the kernel wrote: hence the mirrored `ucred` (Glibc hides it without `_GNU_SOURCE`)
    /// and a group buffer of `PeerGroupBuffer.capacity` entries. A peer with more groups than
    /// that (ERANGE), or a kernel without `SO_PEERGROUPS`, counts with its primary gid only: refusing too much,
    /// never too little.
    static func read(from channel: any Channel) -> EventLoopFuture<PeerCredentials?> {
        guard let provider = channel as? any SocketOptionProvider else {
            return channel.eventLoop.makeSucceededFuture(nil)
        }
        let credentials: EventLoopFuture<UCred> = provider.unsafeGetSocketOption(
            level: SocketOptionLevel(SOL_SOCKET), name: SocketOptionName(SO_PEERCRED))
        let groups: EventLoopFuture<PeerGroupBuffer?> = provider.unsafeGetSocketOption(
            level: SocketOptionLevel(SOL_SOCKET), name: SocketOptionName(Self.soPeerGroups)
        ).map { (buffer: PeerGroupBuffer) in Optional(buffer) }.recover { _ in nil }
        return credentials.and(groups).map { pair in
            let (credentials, groups) = pair
            // pid 0 with uid 0: the zeroed memory the kernel did not fill (no peer), never a real client.
            guard credentials.pid > 0 else { return nil }
            return PeerCredentials(
                pid: credentials.pid, uid: credentials.uid, gid: credentials.gid,
                supplementaryGroups: groups?.groups ?? [])
        }.recover { _ in nil }
    }

    /// `SO_PEERGROUPS` (Linux 4.13); Glibc's module does not export it.
    static let soPeerGroups: Int32 = 59
}

/// `struct ucred { pid_t pid; uid_t uid; gid_t gid; }`, 12 bytes.
struct UCred: Sendable {
    var pid: Int32 = 0
    var uid: UInt32 = 0
    var gid: UInt32 = 0
}

/// Room for the peer's supplementary groups, as `SO_PEERGROUPS` writes them: ascending gids, the rest zero.
struct PeerGroupBuffer: Sendable {
    static let capacity = 64
    var storage: InlineArray<64, UInt32> = .init(repeating: 0)

    /// The groups written. The kernel keeps a process's groups sorted, so the zeros after the last non-zero gid
    /// are unused room; a lone group 0 (root's group) cannot be told from an empty list and is left out.
    var groups: [UInt32] {
        var last = -1
        for i in storage.indices where storage[i] != 0 { last = i }
        return last < 0 ? [] : (0...last).map { storage[$0] }
    }
}
