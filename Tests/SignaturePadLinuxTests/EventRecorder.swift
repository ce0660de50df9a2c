import Foundation
import NIOConcurrencyHelpers
import SignaturePad
import SignaturePadLinux

/// Collects a session's events in the background so tests can wait for and inspect them.
final class EventRecorder: Sendable {
    private final class Store: Sendable {
        let events = NIOLockedValueBox<[PadSessionEvent]>([])
    }

    private let store = Store()
    private let task: Task<Void, Never>

    init(_ session: PadCaptureSession) {
        let store = self.store
        let stream = session.events
        task = Task {
            for await event in stream { store.events.withLockedValue { $0.append(event) } }
        }
    }

    deinit { task.cancel() }

    var all: [PadSessionEvent] { store.events.withLockedValue { $0 } }

    var inkBatches: [FrameInk] {
        all.compactMap { if case .ink(let b) = $0 { b } else { nil } }
    }
}

/// Polls `condition` every 10 ms until it holds or `timeout` passes; returns whether it held.
@discardableResult
func waitUntil(timeout: Duration = .seconds(3), _ condition: () -> Bool) async -> Bool {
    let clock = ContinuousClock()
    let deadline = clock.now + timeout
    while clock.now < deadline {
        if condition() { return true }
        try? await Task.sleep(for: .milliseconds(10))
    }
    return condition()
}

/// Waits until the session's capture has some ink and then no new points for `quiet` (the replay has ended).
///
/// Requiring ink first keeps a slow start of the replay (a loaded CI machine) from passing as "quiet".
func waitForQuiet(_ session: PadCaptureSession, quiet: Duration = .milliseconds(300), timeout: Duration = .seconds(5))
    async
{
    await waitUntil(timeout: timeout) { (session.captureStatus?.pointCount ?? 0) > 0 }
    let clock = ContinuousClock()
    let deadline = clock.now + timeout
    var last = -1
    var since = clock.now
    while clock.now < deadline {
        let count = session.captureStatus?.pointCount ?? -1
        if count != last {
            last = count
            since = clock.now
        } else if clock.now - since >= quiet {
            return
        }
        try? await Task.sleep(for: .milliseconds(10))
    }
}
