import ConsentCore
import NIOConcurrencyHelpers

/// Whose signature each flow's pad capture is taking, so ink events can say so.
///
/// Ink is published off the actor (`AgentCore.pumpPadEvents`), hence a lock rather than actor state. An entry
/// outlives its capture until the next `signature.begin` of the flow replaces it or the flow ends.
/// `NIOLockedValueBox` rather than `Mutex`, like the rest of the agent: ThreadSanitizer understands its lock.
final class InkRoles: Sendable {
    private let roles = NIOLockedValueBox<[String: SigningRole]>([:])

    func set(_ role: SigningRole, for flow: String) {
        roles.withLockedValue { $0[flow] = role }
    }

    func remove(_ flow: String) {
        _ = roles.withLockedValue { $0.removeValue(forKey: flow) }
    }

    func role(of flow: String) -> SigningRole? {
        roles.withLockedValue { $0[flow] }
    }
}
