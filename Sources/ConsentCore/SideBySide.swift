import Foundation

/// Runs independent pieces of work on the machine's cores and hands back their results in order: the one home for
/// it. A study's translations load this way; a record's signature images are drawn while its PDF is laid out.
public enum SideBySide {
    /// `work(0)` … `work(count - 1)` on up to as many threads (the calling one among them), each result or error
    /// in its index's place.
    public static func results<T>(count: Int, _ work: @Sendable (Int) throws -> T) -> [Result<T, any Error>] {
        let slots = (0..<count).map { _ in Slot<T>() }
        DispatchQueue.concurrentPerform(iterations: count) { index in
            slots[index].fill(Result { try work(index) })
        }
        return slots.map { slot in Result { try slot.get() } }
    }

    /// `first` and `second` at the same time; the first's error when both fail, as if they had run in turn.
    public static func both<A, B>(_ first: @Sendable () throws -> A, _ second: @Sendable () throws -> B) throws -> (A, B) {
        let a = Slot<A>(), b = Slot<B>()
        DispatchQueue.concurrentPerform(iterations: 2) { index in
            if index == 0 { a.fill(Result { try first() }) } else { b.fill(Result { try second() }) }
        }
        return (try a.get(), try b.get())
    }

    /// One result, filled from one of `concurrentPerform`'s threads and read on the caller's. Behind an `NSLock`, a
    /// pthread mutex, which ThreadSanitizer follows; Synchronization's `Mutex` is a futex on Linux, and
    /// ThreadSanitizer reported its writes from those threads as races.
    private final class Slot<T>: @unchecked Sendable {
        private let lock = NSLock()
        private var result: Result<T, any Error>?

        func fill(_ result: Result<T, any Error>) { lock.withLock { self.result = result } }

        func get() throws -> T {
            // concurrentPerform returns once every iteration has; an empty slot would be a bug in Dispatch.
            guard let result = lock.withLock({ result }) else { throw NotRun() }
            return try result.get()
        }
    }

    private struct NotRun: Error {}
}
