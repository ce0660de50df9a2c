import Foundation
import NIOConcurrencyHelpers

/// Lines read from a child's stdout by a reader thread, for the test to wait on.
final class LineBuffer: Sendable {
    private struct State {
        var partial = Data()
        var lines: [String] = []
        var isFinished = false
    }

    private let state = NIOLockedValueBox(State())

    func append(_ data: Data) {
        state.withLockedValue { s in
            s.partial.append(data)
            while let newline = s.partial.firstIndex(of: UInt8(ascii: "\n")) {
                let line = s.partial[s.partial.startIndex..<newline]
                s.lines.append(String(decoding: line, as: UTF8.self))
                s.partial.removeSubrange(s.partial.startIndex...newline)
            }
        }
    }

    func finish() {
        state.withLockedValue { $0.isFinished = true }
    }

    /// Removes and returns the oldest line, waiting up to `timeout`; nil at EOF or timeout.
    func next(timeout: Duration) -> String? {
        let deadline = ContinuousClock.now + timeout
        while true {
            let (line, finished): (String?, Bool) = state.withLockedValue { s in
                s.lines.isEmpty ? (nil, s.isFinished) : (s.lines.removeFirst(), false)
            }
            if let line { return line }
            if finished || ContinuousClock.now >= deadline { return nil }
            usleep(1000)
        }
    }

    var isFinished: Bool { state.withLockedValue { $0.isFinished && $0.lines.isEmpty } }
}
