import AgentProtocol

/// The `allowedPeers` of the config file: which local users and groups may connect to the socket.
///
/// ```json
/// "allowedPeers": {"uids": [1000], "gids": [990]}
/// ```
/// Enforced per connection from the peer's `SO_PEERCRED`/`SO_PEERGROUPS` credentials; `PeerPolicy` has the rules
/// (docs/CONFIGURATION.md). Both lists empty is refused when the file is read: it would lock every UI out.
public struct AllowedPeers: Sendable, Hashable {
    public var uids: [UInt32]
    public var gids: [UInt32]

    public init(uids: [UInt32] = [], gids: [UInt32] = []) {
        self.uids = uids
        self.gids = gids
    }

    static let knownKeys: Set<String> = ["uids", "gids"]

    /// - Throws: `AgentError(.invalidConfiguration)` naming `allowedPeers.<key>`.
    static func parse(_ raw: RPCValue, file: String) throws -> AllowedPeers {
        func refuse(_ message: String) -> AgentError { AgentError(.invalidConfiguration, "\(file): \(message)") }
        guard case .object(let object) = raw else {
            throw refuse("\"allowedPeers\" must be an object like {\"uids\": [1000], \"gids\": [990]}")
        }
        if let unknown = object.keys.filter({ !knownKeys.contains($0) }).sorted().first {
            throw refuse("unknown key \"allowedPeers.\(unknown)\"; known keys: gids, uids")
        }
        func ids(_ key: String) throws -> [UInt32] {
            guard let value = object[key] else { return [] }
            guard case .array(let items) = value else {
                throw refuse("\"allowedPeers.\(key)\" must be an array of numeric ids")
            }
            return try items.map { item in
                guard case .integer(let n) = item, let id = UInt32(exactly: n), id != UInt32.max else {
                    throw refuse("\"allowedPeers.\(key)\" must hold numeric ids from 0 to 4294967294")
                }
                return id
            }
        }
        let peers = AllowedPeers(uids: try ids("uids"), gids: try ids("gids"))
        guard !peers.uids.isEmpty || !peers.gids.isEmpty else {
            throw refuse("\"allowedPeers\" allows nobody; list at least one uid or gid, or leave the key out to let the socket's permissions decide")
        }
        return peers
    }
}
