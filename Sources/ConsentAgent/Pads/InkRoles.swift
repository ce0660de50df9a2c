import ConsentCore
import Synchronization

/// Whose signature each flow's pad capture is taking, so ink events can say so.
///
/// Ink is published off the actor (`AgentCore.pumpPadEvents`), hence a lock rather than actor state. An entry
/// outlives its capture until the next `signature.begin` of the flow replaces it or the flow ends.
final class InkRoles: Sendable {
    private let roles = Mutex<[String: SigningRole]>([:])

    func set(_ role: SigningRole, for flow: String) {
        roles.withLock { $0[flow] = role }
    }

    func remove(_ flow: String) {
        _ = roles.withLock { $0.removeValue(forKey: flow) }
    }

    func role(of flow: String) -> SigningRole? {
        roles.withLock { $0[flow] }
    }
}
