#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The process's open-file limit (`RLIMIT_NOFILE`), which bounds connections and record writes together.
///
/// With systemd's default of 1,024 and no cap, idle connections once took every descriptor and a participant's
/// record failed. consentd raises its soft limit to the hard one at start (the unit sets
/// `LimitNOFILE`) and keeps its connection cap below it with room for records.
enum DescriptorLimit {
    /// Raises the soft limit to the hard limit.
    ///
    /// - Returns: the soft limit now in force, nil when it cannot be read (then the configured cap applies alone).
    static func raiseSoftLimit() -> Int? {
        var limit = rlimit()
        guard getrlimit(resource, &limit) == 0 else { return nil }
        if limit.rlim_cur < limit.rlim_max {
            var raised = limit
            raised.rlim_cur = limit.rlim_max
            if setrlimit(resource, &raised) == 0 { limit = raised }
        }
        // RLIM_INFINITY is all ones; Int(clamping:) makes it Int.max.
        return Int(clamping: limit.rlim_cur)
    }

    /// The connection cap to enforce: the configured one, lowered so that `reserved` descriptors stay free.
    static func connectionCap(configured: Int, softLimit: Int?, reserved: Int) -> Int {
        guard let softLimit else { return configured }
        return max(1, min(configured, softLimit - reserved))
    }

    #if canImport(Glibc)
    private static let resource = __rlimit_resource_t(RLIMIT_NOFILE.rawValue)
    #else
    private static let resource = RLIMIT_NOFILE
    #endif
}
