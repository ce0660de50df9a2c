import Testing

@testable import ConsentAgent

/// The count a graceful stop waits on: the last completion to end hands back every parked waiter, once.
@Suite struct CompletionDrainTests {
    @Test func theLastCompletionToEndReleasesEveryWaiterOnce() async {
        var drain = CompletionDrain()
        drain.begin()
        drain.begin()
        let first = drain.newWaiter()
        let second = drain.newWaiter()
        #expect(first != second)
        // Continuations need a task to park; the drain only stores and hands them back.
        await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
            drain.park(first, done)
            #expect(drain.end().isEmpty, "one completion is still running")
            #expect(drain.inFlight == 1)
            let released = drain.end()
            #expect(released.count == 1)
            #expect(drain.release(first) == nil, "a resumed waiter is gone; its timeout finds nothing")
            for waiter in released { waiter.resume() }
        }
        #expect(drain.release(second) == nil, "never parked")
    }

    @Test func aWaiterWhoseTimeoutPassedIsTakenOutAlone() async {
        var drain = CompletionDrain()
        drain.begin()
        let waiter = drain.newWaiter()
        await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
            drain.park(waiter, done)
            let timedOut = drain.release(waiter)
            #expect(timedOut != nil)
            #expect(drain.end().isEmpty, "the timed-out waiter was already resumed by its timeout")
            timedOut?.resume()
        }
        #expect(drain.inFlight == 0)
    }

    @Test func stoppingIsOneWay() {
        var drain = CompletionDrain()
        #expect(!drain.isStopping)
        drain.stop()
        drain.stop()
        #expect(drain.isStopping)
    }
}
