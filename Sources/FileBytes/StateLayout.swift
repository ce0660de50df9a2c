/// Where the agent keeps its own files under the state directory (`--state-dir`, `/var/lib/consentd` on a kiosk): the
/// one definition of the layout that docs/OPERATIONS.md section 4 describes. Every module that reads or writes
/// there takes its paths from here, so a folder is named once.
public struct StateLayout: Sendable, Hashable {
    /// The state directory itself.
    public let root: String

    public init(root: String) {
        // "state/" and "state" are the same folder; "/" stays "/".
        var root = root
        while root.count > 1, root.hasSuffix("/") { root.removeLast() }
        self.root = root.isEmpty ? "." : root
    }

    /// One folder per completed consent, named by the record id.
    public var records: String { inRoot("records") }
    /// The record `id`'s folder.
    public func record(_ id: String) -> String { "\(records)/\(id)" }
    /// The completion journal: one entry per `flow.complete` in progress.
    public var completing: String { inRoot("completing") }
    /// The hash-chained audit log.
    public var audit: String { inRoot("audit") }
    /// The kiosk's keys.
    public var keys: String { inRoot("keys") }
    /// The kiosk's signing key (its public key beside it, `.pub`).
    public var kioskKey: String { "\(keys)/kiosk-ed25519.key" }
    /// The agent's key sealing the Bundles of encrypted records that wait for upload.
    public var uploadPayloadKey: String { "\(keys)/upload-payload.key" }
    /// The key sealing paused flows (`flow.pause`).
    public var pausedFlowKey: String { "\(keys)/paused-flows.key" }
    /// Paused flows, one sealed file each, until resumed or past their day.
    public var pausedFlows: String { inRoot("paused") }
    /// Records waiting for upload.
    public var queue: String { inRoot("queue") }
    /// Wrong staff PINs and locked staff ids (`StaffLockout`), so a restart neither clears a lock nor the count.
    public var staffLockout: String { inRoot("staff-lockout.json") }
    /// The sealed Bundles of encrypted records, until delivered.
    public var uploadPayloads: String { "\(queue)/payloads" }

    private func inRoot(_ name: String) -> String { root == "/" ? "/\(name)" : "\(root)/\(name)" }
}
