import CSignalPipe
import FileBytes
import Foundation

/// SIGTERM and SIGINT through a self-pipe: a handler of our own (CSignalPipe) writes each signal to a pipe, and a
/// thread of its own reads it and stops the server.
///
/// A dispatch signal source lost a SIGTERM that came just after the URL was printed (seen in full test runs on a
/// busy machine: consentweb ran on after its kiosk session stopped it). On Linux, libdispatch installs the handler
/// a signal source needs only when its manager thread next runs, and until then the signal meets the `SIG_IGN` the
/// source requires, which drops it. `sigaction` is in force when it returns. Blocking the signals for `sigwait`
/// would not do either: Swift's async `main` parks the main thread in libdispatch's `sigsuspend` with no signal
/// blocked, and the kernel delivers a signal to any thread that does not block it.
enum StopSignals {
    struct InstallFailed: Error, CustomStringConvertible {
        var errno: Int32
        var description: String { "cannot handle SIGTERM and SIGINT: \(String(cString: strerror(errno)))" }
    }

    /// From its return on, the first SIGTERM or SIGINT calls `stop` (on the pipe's reading thread); later ones are
    /// read and ignored, since the stop is under way. Call it once.
    static func onFirst(_ stop: @escaping @Sendable () -> Void) throws(InstallFailed) {
        let numbers = [SIGTERM, SIGINT]
        let readEnd = consent_signal_pipe_install(numbers, Int32(numbers.count))
        guard readEnd >= 0 else { throw InstallFailed(errno: -readEnd) }
        let thread = Thread {
            var stopped = false
            var byte: UInt8 = 0
            // Interrupted reads are retried; anything else ends the thread (never: the write end stays open for the
            // life of the process).
            while FileBytes.retryingEINTR({ read(readEnd, &byte, 1) }) == 1 {
                if !stopped { stop() }
                stopped = true
            }
        }
        thread.name = "consentweb-signals"
        thread.start()
    }
}
