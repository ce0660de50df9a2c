import FileBytes
import Foundation
import JSON

/// Wrong staff PINs by staff id: after `attempts` in a row the id is locked for `duration` (config
/// `staffLockoutSeconds`).
///
/// Kept in a small file in the agent's state directory (`staff-lockout.json`, `0600`, replaced atomically after
/// every change), so restarting the agent neither clears a lock nor resets the count: otherwise a restart (a power
/// cut, or pulling the plug on purpose) would hand a guesser five more tries. Times are wall-clock seconds since
/// 1970; a lock read back is never longer than `duration` from now, so a clock set back cannot extend one. Only
/// known staff ids are counted, which bounds the file by the staff list.
public struct StaffLockout: Sendable {
    public static let attempts = 5
    public static let defaultDuration: TimeInterval = 15 * 60
    public static let fileName = "staff-lockout.json"

    struct Entry: Sendable, Hashable, Codable {
        var failures: Int
        var lockedUntil: Double?
    }

    public let path: String?
    public let duration: TimeInterval
    private var entries: [String: Entry]

    /// Reads the state kept at `path` (nil: in memory only, for tests); a missing or unreadable file is no lock.
    public init(path: String?, duration: TimeInterval = defaultDuration, now: Date = Date()) {
        self.path = path
        self.duration = duration
        var entries: [String: Entry] = [:]
        if let path, let bytes = try? FileBytes.read(path, limit: 1 << 20),
            let read = try? JSONValueDecoder().decode([String: Entry].self, from: bytes)
        {
            entries = read
        }
        let bound = now.timeIntervalSince1970 + duration
        for (id, entry) in entries {
            if let until = entry.lockedUntil, until > bound { entries[id]?.lockedUntil = bound }
        }
        self.entries = entries
    }

    /// Until when `id` is locked, if it is now.
    public func lockedUntil(_ id: String, now: Date = Date()) -> Date? {
        guard let until = entries[id]?.lockedUntil, until > now.timeIntervalSince1970 else { return nil }
        return Date(timeIntervalSince1970: until)
    }

    /// How many wrong PINs in a row `id` has (since its last lock ended or its last right PIN).
    public func failures(_ id: String) -> Int { entries[id]?.failures ?? 0 }

    /// Counts a wrong PIN; returns whether it locked the id.
    @discardableResult
    public mutating func recordFailure(_ id: String, now: Date = Date()) throws -> Bool {
        var entry = entries[id] ?? Entry(failures: 0, lockedUntil: nil)
        if let until = entry.lockedUntil, until <= now.timeIntervalSince1970 { entry = Entry(failures: 0, lockedUntil: nil) }
        entry.failures += 1
        let locks = entry.failures >= Self.attempts
        if locks { entry.lockedUntil = now.timeIntervalSince1970 + duration }
        entries[id] = entry
        try save()
        return locks
    }

    /// A right PIN: the count starts again.
    public mutating func recordSuccess(_ id: String) throws {
        guard entries.removeValue(forKey: id) != nil else { return }
        try save()
    }

    private func save() throws {
        guard let path else { return }
        do {
            // The JSON module's writer, so the members come sorted by staff id (JSONEncoder wrote them in the
            // dictionary's order, which changed from run to run); the file reads the same either way.
            let bytes = try JSONValueEncoder().encodedBytes(entries, escapingSlashes: true)
            try DurableWrite.replace(path, contents: bytes, mode: 0o600)
        } catch {
            throw StaffCredentialError(.writeFailed, "\(path): cannot keep the staff lock-out state (\(error))")
        }
    }
}
