import Testing

@testable import ConsentAgent

/// The decision of peer authorization, without sockets: who `allowedPeers` lets in.
@Suite struct PeerPolicyTests {
    let ui = PeerCredentials(pid: 4242, uid: 1000, gid: 1000, supplementaryGroups: [24, 990])

    @Test func withoutAllowedPeersEveryoneTheSocketAdmitsIsServed() {
        let policy = PeerPolicy(allowedPeers: nil)
        #expect(!policy.checksPeers)
        #expect(policy.decide(ui) == .allowed)
        #expect(policy.decide(nil) == .allowed, "nothing is read, so nothing can be missing")
    }

    @Test func aListedUIDIsServed() {
        let policy = PeerPolicy(allowedPeers: AllowedPeers(uids: [1000]))
        #expect(policy.checksPeers)
        #expect(policy.decide(ui) == .allowed)
        #expect(policy.decide(PeerCredentials(pid: 1, uid: 1001, gid: 1000)) == .refused(.userNotAllowed))
    }

    @Test func thePrimaryGroupAndSupplementaryGroupsCount() {
        let policy = PeerPolicy(allowedPeers: AllowedPeers(gids: [990]))
        #expect(policy.decide(ui) == .allowed, "990 is a supplementary group")
        #expect(policy.decide(PeerCredentials(pid: 1, uid: 2000, gid: 990)) == .allowed, "990 as the primary group")
        // The same user without the group in its process (setpriv --clear-groups) is not a member.
        let dropped = PeerCredentials(pid: 1, uid: 1000, gid: 1000, supplementaryGroups: [])
        #expect(policy.decide(dropped) == .refused(.groupNotAllowed))
    }

    @Test func rootIsRefusedUnlessListed() {
        let root = PeerCredentials(pid: 1, uid: 0, gid: 0)
        #expect(PeerPolicy(allowedPeers: AllowedPeers(uids: [1000], gids: [990])).decide(root) == .refused(.userNotAllowed))
        #expect(PeerPolicy(allowedPeers: AllowedPeers(uids: [0])).decide(root) == .allowed)
        #expect(PeerPolicy(allowedPeers: AllowedPeers(gids: [0])).decide(root) == .allowed)
    }

    @Test func unreadableCredentialsAreRefused() {
        #expect(PeerPolicy(allowedPeers: AllowedPeers(uids: [0])).decide(nil) == .refused(.unknownPeer))
    }

    @Test func theReasonSaysWhatWasChecked() {
        let stranger = PeerCredentials(pid: 7, uid: 3000, gid: 3000, supplementaryGroups: [3001])
        #expect(PeerPolicy(allowedPeers: AllowedPeers(uids: [1000])).decide(stranger) == .refused(.userNotAllowed))
        #expect(PeerPolicy(allowedPeers: AllowedPeers(gids: [990])).decide(stranger) == .refused(.groupNotAllowed))
        #expect(PeerPolicy(allowedPeers: AllowedPeers(uids: [1000], gids: [990])).decide(stranger) == .refused(.userNotAllowed))
    }

    @Test func groupBufferKeepsTheGidsTheKernelWrote() {
        var buffer = PeerGroupBuffer()
        #expect(buffer.groups.isEmpty)
        buffer.storage[0] = 24
        buffer.storage[1] = 990
        #expect(buffer.groups == [24, 990])
        // Group 0 sorts first; it is kept when a non-zero gid follows.
        buffer.storage[0] = 0
        #expect(buffer.groups == [0, 990])
        buffer.storage[PeerGroupBuffer.capacity - 1] = 65534
        #expect(buffer.groups.count == PeerGroupBuffer.capacity)
        #expect(MemoryLayout<PeerGroupBuffer>.size == PeerGroupBuffer.capacity * 4)
        #expect(MemoryLayout<UCred>.size == 12, "struct ucred is 12 bytes")
    }
}

/// The socket's folder: only its owner (the agent or root) and its group may enter.
@Suite struct SocketFolderTests {
    @Test(arguments: [0o750, 0o700, 0o2750, 0o710] as [UInt32])
    func aPrivateFolderIsAccepted(mode: UInt32) {
        #expect(UnixSocketPath.folderProblem(isDirectory: true, mode: mode, owner: 990, agent: 990) == nil)
        #expect(UnixSocketPath.folderProblem(isDirectory: true, mode: mode, owner: 0, agent: 990) == nil, "root's folder")
    }

    @Test(arguments: [0o755, 0o775, 0o770, 0o1777, 0o751] as [UInt32])
    func aFolderOthersCanEnterOrTheGroupCanWriteIsRefused(mode: UInt32) {
        let problem = UnixSocketPath.folderProblem(isDirectory: true, mode: mode, owner: 990, agent: 990)
        #expect(problem?.contains(String(mode, radix: 8)) == true, "\(problem ?? "accepted")")
    }

    @Test func anotherUsersFolderOrAFileIsRefused() {
        #expect(UnixSocketPath.folderProblem(isDirectory: true, mode: 0o750, owner: 1000, agent: 990)?.contains("uid 1000") == true)
        #expect(UnixSocketPath.folderProblem(isDirectory: false, mode: 0o750, owner: 990, agent: 990) == "is not a directory")
    }
}
