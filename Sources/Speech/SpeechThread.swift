import Foundation
import NIOConcurrencyHelpers

/// One thread that runs jobs one at a time, requests before prefetches: eSpeak NG's global state is only ever
/// touched from here. A plain serial dispatch queue would serialise the calls too, but may run them on any of its
/// pool's threads; one thread of our own keeps the library on the thread that initialised it.
final class SpeechThread: Sendable {
    private struct Jobs {
        var urgent: [@Sendable () -> Void] = []
        var later: [@Sendable () -> Void] = []
        var started = false
    }

    private let jobs = NIOLockedValueBox(Jobs())
    private let waiting = DispatchSemaphore(value: 0)

    /// Queues `job`; `urgent` jobs (a participant waits for them) run before every queued prefetch.
    func run(urgent: Bool, _ job: @escaping @Sendable () -> Void) {
        let start = jobs.withLockedValue { jobs -> Bool in
            if urgent { jobs.urgent.append(job) } else { jobs.later.append(job) }
            defer { jobs.started = true }
            return !jobs.started
        }
        if start {
            let thread = Thread { [self] in loop() }
            thread.name = "consent-kiosk.speech"
            thread.start()
        }
        waiting.signal()
    }

    private func loop() {
        while true {
            waiting.wait()
            let job = jobs.withLockedValue { jobs -> (@Sendable () -> Void)? in
                if !jobs.urgent.isEmpty { return jobs.urgent.removeFirst() }
                if !jobs.later.isEmpty { return jobs.later.removeFirst() }
                return nil
            }
            job?()
        }
    }
}
