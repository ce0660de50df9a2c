import Foundation

// How the integration tests end the processes they start. Foundation releases the run-loop source it keeps for a
// child (which holds the Process, its pipes and its arguments) only in `waitUntilExit()`: a child seen to end
// through `isRunning` alone, or terminated and forgotten, stays allocated for the rest of the run, and
// LeakSanitizer reports it at the runner's exit (scripts/sanitize address). So every end goes through here.

extension Process {
    /// Waits at most `timeout` for the child to end; when it has, reaps it and returns true. A bound instead of a
    /// bare `waitUntilExit()`: a child that hangs fails its test instead of stalling the whole run.
    public func waitForExit(within timeout: Duration) -> Bool {
        let deadline = ContinuousClock.now + timeout
        while isRunning, ContinuousClock.now < deadline { usleep(10_000) }
        guard !isRunning else { return false }
        waitUntilExit()
        return true
    }

    /// Ends a child the test has finished with: SIGTERM if it still runs, SIGKILL after `grace`; always reaped.
    public func end(grace: Duration = .seconds(10)) {
        if isRunning { terminate() }
        guard !waitForExit(within: grace) else { return }
        kill(processIdentifier, SIGKILL)
        waitUntilExit()
    }
}
