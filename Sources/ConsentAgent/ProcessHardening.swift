import CSystemd

/// Keeps the participant data the agent holds in memory (names, strokes, passcodes until a flow ends) out of reach
/// of anything but the agent itself.
public enum ProcessHardening {
    /// Marks the process non-dumpable (`PR_SET_DUMPABLE` 0): no core dump is written when it crashes, and another
    /// process of the same uid can neither ptrace it nor read `/proc/<pid>/mem` or `environ`; only root can.
    /// Called first thing by consentd, before any study or flow is loaded.
    ///
    /// - Returns: whether the process is now non-dumpable.
    @discardableResult
    public static func makeNonDumpable() -> Bool {
        _ = csystemd_set_dumpable(0)
        return !isDumpable
    }

    /// `PR_GET_DUMPABLE`: whether a crash would dump core and same-uid processes may attach.
    public static var isDumpable: Bool { csystemd_get_dumpable() != 0 }
}
