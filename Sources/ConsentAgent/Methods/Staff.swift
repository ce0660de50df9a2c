import AgentProtocol
import ConsentCore
import Foundation
import StaffCredentials

/// The person obtaining consent's countersignature (`staffCountersignature`, `staffFile`, `staffLockoutSeconds`;
/// docs/CONFIGURATION.md): with it every consent and re-consent has a `staff` step after the participant's part.
public struct StaffSettings: Sendable, Hashable {
    /// The staff credential file (`consentctl staff add`), read on every unlock.
    public var file: String
    /// How long five wrong PINs lock a staff id.
    public var lockoutSeconds: TimeInterval
    /// Where the lock-out state is kept; nil: `<stateDir>/staff-lockout.json`.
    public var lockoutStatePath: String?

    /// Five wrong PINs lock a staff id for 15 minutes unless `staffLockoutSeconds` says otherwise.
    public static let defaultLockoutSeconds: TimeInterval = StaffLockout.defaultDuration

    public init(file: String, lockoutSeconds: TimeInterval = defaultLockoutSeconds, lockoutStatePath: String? = nil) {
        self.file = file
        self.lockoutSeconds = lockoutSeconds
        self.lockoutStatePath = lockoutStatePath
    }
}

/// `staff.unlock {flow, staffId, pin}`.
struct StaffUnlockParams {
    var flow: String
    var staffId: String
    var pin: String

    init(_ params: [String: RPCValue]) throws {
        let reader = try ParamsReader(params, allowed: ["flow", "staffId", "pin"])
        flow = try reader.string("flow")
        staffId = StaffCredential.normalizedID(try reader.string("staffId"))
        pin = try reader.string("pin")
        // Bounded before any hashing: a PIN is at most 12 digits, an id at most 64 characters.
        guard staffId.utf8.count <= 64 else { throw RPCErrorObject.invalidParams(field: "staffId", "a staff id has at most 64 characters") }
        guard pin.utf8.count <= 64 else { throw RPCErrorObject.invalidParams(field: "pin", "a staff PIN is 6 to 12 digits") }
    }
}

/// `staff.attestIdentity {flow, method, note?}`.
struct StaffAttestParams {
    var flow: String
    var method: IdentityVerification
    var note: String?

    init(_ params: [String: RPCValue]) throws {
        let reader = try ParamsReader(params, allowed: ["flow", "method", "note"])
        flow = try reader.string("flow")
        let name = try reader.string("method")
        guard let method = IdentityVerification(rawValue: name) else {
            let names = IdentityVerification.allCases.map(\.rawValue).joined(separator: ", ")
            throw RPCErrorObject.invalidParams(field: "method", "method must be one of \(names)")
        }
        self.method = method
        note = try reader.optionalString("note")
    }
}

extension StaffContext {
    /// `staff.unlock`: checks the staff id and PIN against the staff file, counting wrong PINs per id
    /// (`StaffLockout`), then lets that staff member act on the flow's `staff` step. Reading the staff file, the
    /// PIN's deliberately slow hash and keeping the count run on the disk pool (`DiskWork`); the flow is checked
    /// again when the check returns.
    func unlockStaff(_ params: StaffUnlockParams) async throws -> RPCValue {
        guard let staff else {
            throw ConsentCoreError(.invalidAction, "this kiosk does not ask for the person obtaining consent (staffCountersignature)")
        }
        let entry = try runningEntry(params.flow)
        guard entry.session.step == .staff else {
            throw ConsentCoreError(.stepMismatch, "staff.unlock belongs to step staff, but the flow is at \(entry.session.step.rawValue)")
        }
        if let until = staffLockout?.withLockedValue({ $0.lockedUntil(params.staffId) }) {
            throw RPCErrorObject.domain(
                .staffLocked, "too many wrong PINs for this staff id; it is locked until \(ISO8601DateFormatter().string(from: until))",
                details: ["until": .string(ISO8601DateFormatter().string(from: until))])
        }
        // PBKDF2 takes a good part of a second: off the actor, so other flows go on meanwhile.
        let id = params.staffId, pin = params.pin, path = staff.file
        let (known, credential): (Bool, StaffCredential?)
        do {
            (known, credential) = try await disk.run {
                let file = try StaffFile.load(path)
                return (file.staff.contains { $0.id == id }, file.check(id: id, pin: pin))
            }
        } catch {
            logger.error("staff file unreadable", metadata: ["error": "\(error)"])
            throw AgentError(.recordFailed, "the staff credential file cannot be read; ask the kiosk's administrator")
        }
        guard let credential else {
            var locked = false
            if known, let lockout = staffLockout {
                do { locked = try await disk.run { try lockout.withLockedValue { try $0.recordFailure(id) } } } catch {
                    logger.error("staff lock-out state not kept", metadata: ["error": "\(error)"])
                }
            }
            logger.notice("wrong staff PIN", metadata: ["staff": "\(known ? id : "unknown")", "locked": "\(locked)"])
            if locked {
                throw RPCErrorObject.domain(.staffLocked, "five wrong PINs: this staff id is locked for a while")
            }
            throw AgentError(.wrongStaffPin, "the staff id or PIN is not correct")
        }
        if let lockout = staffLockout {
            _ = try? await disk.run { try lockout.withLockedValue { try $0.recordSuccess(id) } }
        }
        return try apply(.unlockStaff(StaffMember(id: credential.id, name: credential.name)), to: params.flow)
    }

    /// `staff.attestIdentity`: how the person obtaining consent verified the signer's identity.
    func attestIdentity(_ params: StaffAttestParams) throws -> RPCValue {
        try apply(.attestIdentity(params.method, note: params.note), to: params.flow)
    }
}
