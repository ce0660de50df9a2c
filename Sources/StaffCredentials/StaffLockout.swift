import FileBytes
import Foundation
import JSON
import NIOConcurrencyHelpers

/// Wrong staff PINs, counted per staff id on a flow, per flow and per kiosk, the same for every staff id whether it
/// exists or not (`AttemptLimiter`; config `staffLockoutSeconds`, docs/OPERATIONS.md "Staff credentials").
///
/// - **Per id on a flow**: `attempts` (5) wrong PINs in a row for one staff id lock that id on that flow for
///   `duration`; another staff member can still unlock the flow, and the same person on another flow.
/// - **Per flow**: `flowAttempts` (10) wrong PINs in a row, whatever ids they name, lock the flow's unlock for
///   `duration`: a page that sprays made-up ids is stopped after ten hashes.
/// - **Per kiosk**: `kioskAttempts` (20) wrong PINs at once from all flows together, then one more every
///   `duration / kioskAttempts` (45 s by default). This bounds guessing across any number of flows: a guesser gets
///   at most 20 PINs per `duration` in the long run, against every id together.
///
/// There is no count per staff id across flows: a lock per id let any kiosk client lock every known staff member
/// out for the whole `duration`, and since only a real id could be locked, the answers told which ids exist. No
/// count asks whether the id exists, so a made-up id and a real one get the same answers after the same tries.
///
/// The kiosk's count is kept in a small file in the agent's state directory (`staff-lockout.json`, `0600`,
/// replaced atomically after every change, `StaffLockoutFile`), so restarting the agent does not hand a guesser a
/// fresh budget; a flow's count dies with the flow, which a restart ends. Times are wall-clock seconds since 1970;
/// read back, no drain starts in the future, so a clock set back cannot hold the budget back.
public struct StaffLockout: Sendable {
    public static let attempts = 5
    public static let flowAttempts = 10
    public static let kioskAttempts = 20
    public static let defaultDuration: TimeInterval = 15 * 60
    public static let fileName = "staff-lockout.json"
    /// The kiosk's key in the file.
    static let kioskKey = "kiosk"

    public let duration: TimeInterval
    /// By flow and staff id (`key(flow:id:)`), in memory: a flow's counts end with it.
    private var ids: AttemptLimiter
    private var flows: AttemptLimiter
    private var kiosk: AttemptLimiter
    /// Counts every change of the kiosk's count, so a save of an older state never replaces a newer one.
    public private(set) var version = 0

    /// What a try gets before its PIN is hashed.
    public enum Admission: Sendable, Hashable {
        /// Hash it. `lockedIfWrong`: wrong, it ends a budget (the flow's or the kiosk's), which is locked until then.
        case counted(lockedIfWrong: Date?)
        /// Hash nothing: the flow's unlock or the kiosk's is locked until then.
        case locked(until: Date)
    }

    /// The state kept at `contents` (a missing or unreadable file is none: `StaffLockoutFile.read`).
    public init(duration: TimeInterval = defaultDuration, kept contents: [UInt8]? = nil, now: Date = Date()) {
        self.duration = duration
        self.ids = AttemptLimiter(limit: Self.attempts, refill: .afterLockout(seconds: duration))
        self.flows = AttemptLimiter(limit: Self.flowAttempts, refill: .afterLockout(seconds: duration))
        var entries: [String: AttemptLimiter.Entry] = [:]
        // Files of the per-id count kept before hold staff ids; only the kiosk's member is read.
        if let contents, let read = try? JSONValueDecoder().decode([String: AttemptLimiter.Entry].self, from: contents),
            let entry = read[Self.kioskKey]
        {
            entries[Self.kioskKey] = entry
        }
        var kiosk = AttemptLimiter(limit: Self.kioskAttempts, refill: .steady(window: duration), entries: entries)
        kiosk.bound(now: now.timeIntervalSince1970)
        self.kiosk = kiosk
    }

    /// Counts a try of staff id `id` on `flow` before its PIN is hashed, or refuses it while the id on that flow,
    /// the flow or the kiosk is locked. A try a lock refuses spends nothing of any count.
    public mutating func admit(flow: String, id: String, now: Date = Date()) -> Admission {
        let t = now.timeIntervalSince1970, key = Self.key(flow: flow, id: id)
        if let until = [flows.lockedUntil(flow, now: t), ids.lockedUntil(key, now: t)].compactMap({ $0 }).max() {
            return .locked(until: Date(timeIntervalSince1970: until))
        }
        var locks: [Double] = []
        switch kiosk.admit(Self.kioskKey, now: t) {
        case .locked(let until): return .locked(until: Date(timeIntervalSince1970: until))
        case .counted(_, let until): if let until { locks.append(until) }
        }
        version += 1
        if case .counted(_, let until?) = flows.admit(flow, now: t) { locks.append(until) }
        if case .counted(_, let until?) = ids.admit(key, now: t) { locks.append(until) }
        return .counted(lockedIfWrong: locks.max().map(Date.init(timeIntervalSince1970:)))
    }

    /// The PIN of a try of `id` on `flow` was right: the flow's counts start again, and the kiosk gets this one try
    /// back (not what wrong tries spent).
    public mutating func right(flow: String, id: String, now: Date = Date()) {
        flows.reset(flow)
        ids.retain { !$0.hasPrefix(Self.key(flow: flow, id: "")) }
        kiosk.forgive(Self.kioskKey, now: now.timeIntervalSince1970)
        version += 1
    }

    /// Forgets the counts of flows `isRunning` says have ended (they cannot be unlocked any more).
    public mutating func keepFlows(where isRunning: (String) -> Bool) {
        flows.retain(where: isRunning)
        ids.retain { key in isRunning(String(key.prefix { $0 != Self.separator })) }
    }

    /// A flow's id never holds it (the agent makes them of letters, digits and `-`).
    static let separator: Character = "\u{0}"

    static func key(flow: String, id: String) -> String { "\(flow)\(separator)\(id)" }

    /// How many wrong PINs `id` on the flow, the flow and the kiosk count at `now`.
    public func failures(flow: String, id: String = "", now: Date = Date()) -> (id: Int, flow: Int, kiosk: Int) {
        let t = now.timeIntervalSince1970
        return (ids.failures(Self.key(flow: flow, id: id), now: t), flows.failures(flow, now: t), kiosk.failures(Self.kioskKey, now: t))
    }

    /// The kiosk's count as the file keeps it, with the version it is of.
    public var snapshot: StaffLockoutFile.Snapshot {
        StaffLockoutFile.Snapshot(version: version, entries: kiosk.entries)
    }
}

/// The file of the kiosk's count of wrong staff PINs (`StaffLockout`), replaced atomically and durably (`0600`).
///
/// Saves run on a worker thread while the agent's actor counts on; a save writes the snapshot it was given unless a
/// newer one was written already, so the file never goes back to an older count.
public final class StaffLockoutFile: Sendable {
    public struct Snapshot: Sendable, Hashable {
        public var version: Int
        public var entries: [String: AttemptLimiter.Entry]
    }

    public let path: String
    private let written = NIOLockedValueBox(-1)

    public init(path: String) { self.path = path }

    /// The file's bytes, nil when it is missing or unreadable (no lock).
    public func read() -> [UInt8]? { try? FileBytes.read(path, limit: 1 << 20) }

    /// Writes `snapshot` unless a newer one is on disk.
    public func save(_ snapshot: Snapshot) throws {
        try written.withLockedValue { written in
            guard snapshot.version > written else { return }
            do {
                // The JSON module's writer, members sorted: the file reads the same from run to run.
                let bytes = try JSONValueEncoder().encodedBytes(snapshot.entries, escapingSlashes: true)
                try DurableWrite.replace(path, contents: bytes, mode: 0o600)
            } catch {
                throw StaffCredentialError(.writeFailed, "\(path): cannot keep the staff lock-out state (\(error))")
            }
            written = snapshot.version
        }
    }
}
