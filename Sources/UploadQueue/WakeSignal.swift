import NIOConcurrencyHelpers

/// Wakes the delivery loop when a record is enqueued, or when its wait (on the injected clock) ends.
///
/// A signal that arrives while nobody waits is kept (once), so an enqueue during a send is never lost: the loop's
/// next wait returns at once and it re-reads the queue. One waiter at a time (the delivery loop).
final class WakeSignal: Sendable {
    private struct State {
        var isPending = false
        var waiter: CheckedContinuation<Void, Never>?
    }

    private let state = NIOLockedValueBox(State())

    func signal() {
        let waiter = state.withLockedValue { state -> CheckedContinuation<Void, Never>? in
            guard let waiter = state.waiter else {
                state.isPending = true
                return nil
            }
            state.waiter = nil
            return waiter
        }
        waiter?.resume()
    }

    /// Returns on a signal, or when the task is cancelled.
    func wait() async {
        await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                let resumeNow = state.withLockedValue { state -> Bool in
                    // Checked under the lock, so a cancellation either happened before (seen here) or runs its
                    // handler after the waiter is stored (and finds it).
                    if state.isPending {
                        state.isPending = false
                        return true
                    }
                    if Task.isCancelled { return true }
                    let previous = state.waiter
                    state.waiter = continuation
                    previous?.resume()
                    return false
                }
                if resumeNow { continuation.resume() }
            }
        } onCancel: {
            let waiter = state.withLockedValue { state -> CheckedContinuation<Void, Never>? in
                defer { state.waiter = nil }
                return state.waiter
            }
            waiter?.resume()
        }
    }

    /// Returns on a signal, when `duration` has passed on `clock`, or when the task is cancelled.
    func wait(for duration: Duration, on clock: any Clock<Duration>) async {
        await withTaskGroup(of: Void.self) { group in
            group.addTask { await self.wait() }
            group.addTask { try? await Self.sleep(on: clock, for: duration) }
            await group.next()
            group.cancelAll()
        }
    }

    /// Opens the existential, so any `Clock<Duration>` (a test's manual clock included) can be slept on.
    private static func sleep<C: Clock>(on clock: C, for duration: Duration) async throws where C.Duration == Duration {
        try await clock.sleep(until: clock.now.advanced(by: duration), tolerance: nil)
    }
}
