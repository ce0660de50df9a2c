import AgentProtocol
import ConsentCore
import Foundation
import StaffCredentials
import UTCTime

/// The person obtaining consent's countersignature (`staffCountersignature`, `staffFile`, `staffLockoutSeconds`;
/// docs/CONFIGURATION.md): with it every consent and re-consent has a `staff` step after the participant's part.
public struct StaffSettings: Sendable, Hashable {
    /// The staff credential file (`consentctl staff add`), read on every unlock.
    public var file: String
    /// How long five wrong PINs lock a flow's unlock; the kiosk's twenty come back over as long (`StaffLockout`).
    public var lockoutSeconds: TimeInterval
    /// Where the lock-out state is kept; nil: `<stateDir>/staff-lockout.json`.
    public var lockoutStatePath: String?

    /// 15 minutes unless `staffLockoutSeconds` says otherwise.
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
    /// `staff.unlock`: checks the staff id and PIN against the staff file, then lets that staff member act on the
    /// flow's `staff` step.
    ///
    /// Every try is counted before its PIN is hashed, per staff id on the flow, per flow and per kiosk
    /// (`StaffLockout`), and the same whether the id exists or not: a made-up id costs a hash of the same length
    /// (`StaffFile.check`), counts the same and gets the same answers, so the answers never tell which ids exist, and
    /// one page locks only its own flow. A
    /// try the counts refuse hashes nothing. The hash, the staff file and the kiosk's count on disk run on the
    /// hashing pool (`HashWork`), never on the disk pool that writes records; the flow is checked again after it.
    func unlockStaff(_ params: StaffUnlockParams) async throws -> RPCValue {
        guard let staff, staffLockout != nil else {
            throw ConsentCoreError(.invalidAction, "this kiosk does not ask for the person obtaining consent (staffCountersignature)")
        }
        let entry = try runningEntry(params.flow)
        guard entry.session.step == .staff else {
            throw ConsentCoreError(.stepMismatch, "staff.unlock belongs to step staff, but the flow is at \(entry.session.step.rawValue)")
        }
        let table = self.table
        staffLockout?.keepFlows { table[$0].map { !$0.session.step.isFinished } ?? false }
        let lockedIfWrong: Date?
        switch staffLockout?.admit(flow: params.flow, id: params.staffId) {
        case .locked(let until)?: throw StaffTry.locked(until: until)
        case .counted(let until)?: lockedIfWrong = until
        case nil: lockedIfWrong = nil
        }
        let id = params.staffId, pin = params.pin, path = staff.file, file = staffLockoutFile
        let counted = staffLockout?.snapshot
        let outcome: StaffTry
        do {
            outcome = try await hashing.run { try StaffTry.run(id: id, pin: pin, file: path, keeping: counted, in: file) }
        } catch {
            logger.error("staff file unreadable", metadata: ["error": "\(error)"])
            throw AgentError(.recordFailed, "the staff credential file cannot be read; ask the kiosk's administrator")
        }
        if let error = outcome.unsaved { logger.error("staff lock-out state not kept", metadata: ["error": "\(error)"]) }
        guard case .right(let credential) = outcome.result else {
            // One line per try that was hashed: the counts bound those (ten a flow, twenty a quarter hour a kiosk),
            // and a refused try logs nothing. Only a known id is named: a made-up one is the client's text.
            let known: Bool = if case .wrong(known: true) = outcome.result { true } else { false }
            logger.notice("wrong staff PIN", metadata: [
                "staff": "\(known ? id : "unknown")", "flow": "\(params.flow)", "locked": "\(lockedIfWrong != nil)",
            ])
            if let until = lockedIfWrong { throw StaffTry.locked(until: until) }
            throw AgentError(.wrongStaffPin, "the staff id or PIN is not correct")
        }
        staffLockout?.right(flow: params.flow, id: params.staffId)
        if let forgiven = staffLockout?.snapshot, let file {
            do { try await hashing.run { try file.save(forgiven) } } catch {
                logger.error("staff lock-out state not kept", metadata: ["error": "\(error)"])
            }
        }
        return try apply(.unlockStaff(StaffMember(id: credential.id, name: credential.name)), to: params.flow)
    }

    /// `staff.attestIdentity`: how the person obtaining consent verified the signer's identity.
    func attestIdentity(_ params: StaffAttestParams) throws -> RPCValue {
        try apply(.attestIdentity(params.method, note: params.note), to: params.flow)
    }
}

/// One staff PIN try, run on the hashing pool (`HashWork`) after the counts admitted it (`StaffLockout`): the count
/// saved, the staff file read, the PIN hashed against the id's credential, or against a decoy of the same cost
/// when no credential has the id.
struct StaffTry: Sendable {
    /// `StaffLocked` until `until`, with the time: the one answer of a locked flow or kiosk, whatever the id.
    static func locked(until: Date) -> RPCErrorObject {
        let time = UTCTime(nearestMillisecondTo: until).rfc3339Seconds
        return RPCErrorObject.domain(
            .staffLocked, "too many wrong staff PINs; unlocking is paused until \(time)", details: ["until": .string(time)])
    }

    enum Result: Sendable {
        case right(StaffCredential)
        /// `known`: an id of the staff file (for the log only; the answer is the same).
        case wrong(known: Bool)
    }

    var result: Result
    /// Why the count could not be kept on disk (it is kept in memory, and the try goes on).
    var unsaved: String?

    /// - Parameters:
    ///   - counted: the kiosk's count with this try in it, saved to `lockoutFile` before the hash.
    /// - Throws: `StaffCredentialError` when the staff file cannot be read.
    static func run(
        id: String, pin: String, file path: String, keeping counted: StaffLockoutFile.Snapshot? = nil,
        in lockoutFile: StaffLockoutFile? = nil
    ) throws -> StaffTry {
        var unsaved: String?
        if let counted, let lockoutFile {
            do { try lockoutFile.save(counted) } catch { unsaved = "\(error)" }
        }
        let file = try StaffFile.load(path)
        let known = file.staff.contains { $0.id == id }
        guard let credential = file.check(id: id, pin: pin) else {
            return StaffTry(result: .wrong(known: known), unsaved: unsaved)
        }
        return StaffTry(result: .right(credential), unsaved: unsaved)
    }
}
