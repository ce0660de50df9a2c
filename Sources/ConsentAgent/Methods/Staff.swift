import AgentProtocol
import ConsentCore
import Foundation
import NIOConcurrencyHelpers
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
            throw StaffTry.locked(until: until)
        }
        // PBKDF2 takes a good part of a second: off the actor, so other flows go on meanwhile. A known id's try is
        // counted as wrong before the hash runs, and forgiven when the PIN is right: tries at once from several
        // pages each find the count of those before them, so together they get no more than five.
        let id = params.staffId, pin = params.pin, path = staff.file, lockout = staffLockout
        let outcome: StaffTry
        do {
            outcome = try await disk.run { try StaffTry.run(id: id, pin: pin, file: path, lockout: lockout) }
        } catch {
            logger.error("staff file unreadable", metadata: ["error": "\(error)"])
            throw AgentError(.recordFailed, "the staff credential file cannot be read; ask the kiosk's administrator")
        }
        if let error = outcome.unsaved { logger.error("staff lock-out state not kept", metadata: ["error": "\(error)"]) }
        let credential: StaffCredential
        switch outcome.result {
        case .right(let right):
            credential = right
        case .locked(let until):
            throw StaffTry.locked(until: until)
        case .wrong(let known, let locked):
            logger.notice("wrong staff PIN", metadata: ["staff": "\(known ? id : "unknown")", "locked": "\(locked)"])
            if locked {
                throw RPCErrorObject.domain(.staffLocked, "five wrong PINs: this staff id is locked for a while")
            }
            throw AgentError(.wrongStaffPin, "the staff id or PIN is not correct")
        }
        return try apply(.unlockStaff(StaffMember(id: credential.id, name: credential.name)), to: params.flow)
    }

    /// `staff.attestIdentity`: how the person obtaining consent verified the signer's identity.
    func attestIdentity(_ params: StaffAttestParams) throws -> RPCValue {
        try apply(.attestIdentity(params.method, note: params.note), to: params.flow)
    }
}

/// One staff PIN try, run on the disk pool: the staff file read, a known id's try counted, the PIN hashed, the count
/// forgiven when it matches (`StaffLockout`). Only known ids are counted, which bounds the lock-out file.
struct StaffTry: Sendable {
    /// `StaffLocked` for an id locked until `until`, with the time (the actor's check before the try, and the try's).
    static func locked(until: Date) -> RPCErrorObject {
        let time = ISO8601DateFormatter().string(from: until)
        return RPCErrorObject.domain(
            .staffLocked, "too many wrong PINs for this staff id; it is locked until \(time)", details: ["until": .string(time)])
    }

    enum Result: Sendable {
        case right(StaffCredential)
        /// The id was locked when the try came (by tries before it, perhaps at once from another page).
        case locked(until: Date)
        /// `locked`: this try was the fifth wrong one in a row.
        case wrong(known: Bool, locked: Bool)
    }

    var result: Result
    /// Why the count could not be kept on disk (it is kept in memory, and the try goes on).
    var unsaved: String?

    static func run(id: String, pin: String, file path: String, lockout: NIOLockedValueBox<StaffLockout>?) throws -> StaffTry {
        let file = try StaffFile.load(path)
        let known = file.staff.contains { $0.id == id }
        var unsaved: String?
        var locks = false
        if known, let lockout {
            // The check and the count under one lock: a second try at once sees this one counted.
            let until: Date? = lockout.withLockedValue { state in
                if let until = state.lockedUntil(id) { return until }
                do { locks = try state.recordFailure(id) } catch { unsaved = "\(error)" }
                return nil
            }
            if let until { return StaffTry(result: .locked(until: until), unsaved: unsaved) }
        }
        guard let credential = file.check(id: id, pin: pin) else {
            return StaffTry(result: .wrong(known: known, locked: locks), unsaved: unsaved)
        }
        if known, let lockout {
            do { try lockout.withLockedValue { try $0.recordSuccess(id) } } catch { unsaved = "\(error)" }
        }
        return StaffTry(result: .right(credential), unsaved: unsaved)
    }
}
