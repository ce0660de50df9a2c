import Foundation
import SignaturePad
import SignaturePadLinux
import Testing

/// Device tests: real libudev + libevdev code against umockdev devices (no root, no hardware).
///
/// Serialized, because a testbed is process-global (UMOCKDEV_DIR); enabled only under the umockdev preload, which
/// `scripts/run-tests` sets for this suite alone so no other suite (or child process) inherits it.
@Suite(
    .serialized,
    .enabled(
        if: MockEnvironment.isActive,
        "umockdev is not active: run via scripts/run-tests (LD_PRELOAD=libumockdev-preload.so.0)"))
struct PadDeviceTests {
    static let options = PadDiscovery.Options(requireInitialized: false)

    /// Reads a node through libevdev until `quiet` passes without events (the replay has ended).
    static func readAll(node: String, quiet: Duration = .milliseconds(300)) throws -> [InputEvent] {
        var source = try EvdevEventSource(node: node)
        var events: [InputEvent] = []
        while try source.read(into: &events, timeout: quiet) == .events {}
        return events
    }
}
