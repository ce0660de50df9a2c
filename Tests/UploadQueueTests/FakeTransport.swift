import Foundation
import NIOConcurrencyHelpers
import UploadQueue

/// Answers from a script, in order, and records every request; after the script, answers `fallback`.
final class FakeTransport: HTTPTransport {
    enum Answer: Sendable {
        case response(HTTPResponse)
        case failure(UploadQueueError)
    }

    private struct State {
        var script: [Answer]
        var requests: [HTTPRequest] = []
    }

    private let state: NIOLockedValueBox<State>
    private let fallback: Answer

    init(_ script: [Answer] = [], fallback: Answer = .response(TestRecord.transactionResponse)) {
        state = NIOLockedValueBox(State(script: script))
        self.fallback = fallback
    }

    var requests: [HTTPRequest] { state.withLockedValue { $0.requests } }

    /// The `id` of each Bundle sent, in order.
    var sentBundleIDs: [String] { requests.compactMap { TestRecord.bundleID(in: $0.body) } }

    func send(_ request: HTTPRequest) async throws -> HTTPResponse {
        let answer = state.withLockedValue { state -> Answer in
            state.requests.append(request)
            return state.script.isEmpty ? fallback : state.script.removeFirst()
        }
        switch answer {
        case .response(let response): return response
        case .failure(let error): throw error
        }
    }
}
