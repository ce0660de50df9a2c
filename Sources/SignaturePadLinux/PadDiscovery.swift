import SignaturePad

/// One-shot pad listing (for `consentctl pads`); the capture session keeps its own live list.
public enum PadDiscovery {
    /// Options shared by the one-shot listing and the session.
    public struct Options: Sendable, Hashable {
        /// Skip devices udev has not finished processing (their properties and permissions may be wrong).
        /// Tests under umockdev turn this off: umockdev does not write the udev database.
        public var requireInitialized: Bool

        public init(requireInitialized: Bool = true) {
            self.requireInitialized = requireInitialized
        }
    }

    /// All pads now connected, best first (see ``PadPreference``).
    ///
    /// - Throws: `.udevUnavailable` when libudev cannot start.
    public static func pads(options: Options = .init()) throws -> [PadDescription] {
        let udev = try UdevContext()
        let infos = udev.enumeratePadCandidates(requireInitialized: options.requireInitialized)
        return PadPreference.sorted(infos.compactMap(PadProbe.describe))
    }
}
