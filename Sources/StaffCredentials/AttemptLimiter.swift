/// Tries at a secret that a deliberately slow hash checks (a staff PIN, a withdrawal passcode), counted by key.
///
/// The one rule of every such check: a try is counted as wrong *before* its hash runs (`admit`), and forgiven when
/// the hash says it was right (`forgive`, `reset`). Tries sent at the same moment each find the count of those
/// before them, so together they get no more hashes than `limit`, however many arrive at once; counted after the
/// hash, each would find the count as it was and all would be hashed.
///
/// Two ways the count comes back (`Refill`): after a lock-out (`limit` wrong tries in a row lock the key for a
/// while, then it has `limit` again: a flow's staff unlock, a record's passcode), or steadily (`limit` at once,
/// then one more every `window / limit`: the kiosk-wide budget of staff PINs, which a guesser should not be able to
/// spend at once and so shut everybody out for a whole window). Times are seconds on any one clock the caller
/// keeps to (wall-clock for a state kept on disk, monotonic for one in memory).
public struct AttemptLimiter: Sendable {
    public enum Refill: Sendable, Hashable {
        /// `limit` wrong tries in a row lock the key for this many seconds.
        case afterLockout(seconds: Double)
        /// `limit` tries at once, then one more every `window / limit` seconds.
        case steady(window: Double)
    }

    /// A try of `key`, counted or refused.
    public enum Admission: Sendable, Hashable {
        /// Counted: hash it. `locks`: if it is wrong, the key is locked from now on (it was the last one allowed).
        case counted(locks: Bool, until: Double?)
        /// Not counted and not to be hashed: the key is locked until then.
        case locked(until: Double)
    }

    /// One key's count (`Codable`, so a state kept on disk reads back).
    public struct Entry: Sendable, Hashable, Codable {
        public var failures: Int
        public var lockedUntil: Double?
        /// `steady`: when the oldest failure still counted started to drain.
        public var since: Double?
    }

    public let limit: Int
    public let refill: Refill
    public private(set) var entries: [String: Entry]

    public init(limit: Int, refill: Refill, entries: [String: Entry] = [:]) {
        self.limit = max(1, limit)
        self.refill = refill
        self.entries = entries
    }

    /// How many wrong tries `key` has counted now.
    public func failures(_ key: String, now: Double) -> Int {
        guard var entry = entries[key] else { return 0 }
        settle(&entry, now: now)
        return entry.failures
    }

    /// Until when `key` is locked, if it is at `now`.
    public func lockedUntil(_ key: String, now: Double) -> Double? {
        guard var entry = entries[key] else { return nil }
        settle(&entry, now: now)
        return lock(of: entry, now: now)
    }

    /// Counts a try of `key` before it is checked, or refuses it while `key` is locked.
    public mutating func admit(_ key: String, now: Double) -> Admission {
        var entry = entries[key] ?? Entry(failures: 0)
        settle(&entry, now: now)
        if let until = lock(of: entry, now: now) {
            entries[key] = entry
            return .locked(until: until)
        }
        if entry.failures == 0 { entry.since = now }
        entry.failures += 1
        let locks = entry.failures >= limit
        if locks, case .afterLockout(let seconds) = refill { entry.lockedUntil = now + seconds }
        entries[key] = entry
        return .counted(locks: locks, until: locks ? lock(of: entry, now: now) : nil)
    }

    /// The try was right and only this one try is taken back (the kiosk-wide budget: a right PIN does not hand
    /// back what wrong ones spent).
    public mutating func forgive(_ key: String, now: Double) {
        guard var entry = entries[key] else { return }
        settle(&entry, now: now)
        entry.failures = max(0, entry.failures - 1)
        if entry.failures < limit { entry.lockedUntil = nil }
        entries[key] = entry.failures == 0 ? nil : entry
    }

    /// The try was right and the count starts again (a flow's unlock, a record's passcode).
    public mutating func reset(_ key: String) {
        entries[key] = nil
    }

    /// Forgets every key `keep` says no (flows that ended): bounds what is kept by what can still be tried.
    public mutating func retain(where keep: (String) -> Bool) {
        entries = entries.filter { keep($0.key) }
    }

    /// Read back from disk: no lock longer than a refill from `now`, and no drain starting in the future (a clock
    /// set back can neither extend a lock nor hold back the budget's return).
    public mutating func bound(now: Double) {
        for (key, var entry) in entries {
            switch refill {
            case .afterLockout(let seconds):
                if let until = entry.lockedUntil, until > now + seconds { entry.lockedUntil = now + seconds }
            case .steady:
                if let since = entry.since, since > now { entry.since = now }
                entry.failures = min(entry.failures, limit)
            }
            entries[key] = entry
        }
    }

    /// What time has given back: a lock-out that ended starts the count again; a steady budget drains one failure
    /// per step.
    private func settle(_ entry: inout Entry, now: Double) {
        switch refill {
        case .afterLockout:
            if let until = entry.lockedUntil, until <= now { entry = Entry(failures: 0) }
        case .steady(let window):
            guard entry.failures > 0, let since = entry.since else { return }
            let step = window / Double(limit)
            // At most one window's worth (a count a window old has drained whole): a time far in the past or not a
            // number, from a tampered file, must not overflow the conversion.
            let elapsed = now - since
            let drained = step > 0 && elapsed.isFinite ? Int(min(max(0, elapsed), window) / step) : entry.failures
            guard drained > 0 else { return }
            entry.failures = max(0, entry.failures - drained)
            entry.since = entry.failures == 0 ? nil : since + Double(drained) * step
        }
    }

    private func lock(of entry: Entry, now: Double) -> Double? {
        switch refill {
        case .afterLockout:
            guard let until = entry.lockedUntil, until > now else { return nil }
            return until
        case .steady(let window):
            guard entry.failures >= limit, let since = entry.since else { return nil }
            return since + window / Double(limit)
        }
    }
}
