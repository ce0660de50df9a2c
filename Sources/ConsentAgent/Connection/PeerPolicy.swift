/// Who may talk to the agent, decided from a connecting peer's credentials: the pure half of peer authorization
/// (`PeerCredentials` reads the credentials, `AgentService` acts on the decision).
///
/// The rules, chosen so the list in the config file is the whole truth:
/// - Without `allowedPeers` nothing is checked: whoever the socket's mode and directory let in is served
///   (the behaviour before the key existed, and what systemd's `SocketGroup=` alone gives).
/// - With it, a peer is served when its uid is listed, or when its primary gid **or one of its supplementary
///   groups** is listed. Groups are the peer process's own at `connect()` (as the kernel recorded them), the same
///   groups the kernel used to let it open the socket file; the user database is never consulted, so a process
///   that dropped a group (`setpriv --clear-groups`) does not count as a member.
/// - No implicit exceptions: root and the agent's own user are refused unless listed. Root could reach the agent
///   by other means, but an unlisted root UI is a misconfiguration worth seeing in the audit trail.
/// - Credentials that cannot be read are refused.
public struct PeerPolicy: Sendable, Hashable {
    public enum Decision: Sendable, Hashable {
        case allowed
        case refused(Refusal)
    }

    /// Why a peer was refused; the audit trail's `peer.refused` reasons.
    public enum Refusal: String, Sendable, Hashable {
        /// Neither the uid nor (when groups are also listed) a group is allowed.
        case userNotAllowed = "user_not_allowed"
        /// Only groups are listed and the peer is in none of them.
        case groupNotAllowed = "group_not_allowed"
        /// The peer's credentials could not be read.
        case unknownPeer = "unknown_peer"
    }

    /// nil: the socket's permissions alone decide.
    public let allowedPeers: AllowedPeers?

    public init(allowedPeers: AllowedPeers?) {
        self.allowedPeers = allowedPeers
    }

    /// Whether connections need their credentials read at all.
    public var checksPeers: Bool { allowedPeers != nil }

    public func decide(_ credentials: PeerCredentials?) -> Decision {
        guard let allowedPeers else { return .allowed }
        guard let credentials else { return .refused(.unknownPeer) }
        if allowedPeers.uids.contains(credentials.uid) { return .allowed }
        let groups = Set(allowedPeers.gids)
        if groups.contains(credentials.gid) || credentials.supplementaryGroups.contains(where: groups.contains) {
            return .allowed
        }
        return .refused(allowedPeers.uids.isEmpty ? .groupNotAllowed : .userNotAllowed)
    }
}

/// A peer process as the kernel saw it when it connected (`SO_PEERCRED`, `SO_PEERGROUPS`). Not PHI: ids only.
public struct PeerCredentials: Sendable, Hashable, CustomStringConvertible {
    public var pid: Int32
    public var uid: UInt32
    public var gid: UInt32
    public var supplementaryGroups: [UInt32]

    public init(pid: Int32, uid: UInt32, gid: UInt32, supplementaryGroups: [UInt32] = []) {
        self.pid = pid
        self.uid = uid
        self.gid = gid
        self.supplementaryGroups = supplementaryGroups
    }

    public var description: String { "pid \(pid) uid \(uid) gid \(gid)" }
}
