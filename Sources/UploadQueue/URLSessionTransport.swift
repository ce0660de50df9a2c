import Foundation
import NIOConcurrencyHelpers

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The real transport: Foundation's `URLSession` (libcurl on Linux).
///
/// Chosen over a NIO HTTP/1 client because it ships with the toolchain (no new package, no build time) and brings
/// HTTPS with the system's CA store, which a FHIR endpoint needs and NIO would only get through swift-nio-ssl.
/// Caching, cookies and credential storage are off (ephemeral session): nothing about a consent is kept by the
/// client.
///
/// The timeout is enforced here, not by URLSession: swift-corelibs-foundation truncates `timeoutInterval` to whole
/// seconds (0.3 s times out at once, 1.5 s after 1 s) and curl applies it as an idle timeout, so a drip-feeding
/// server would never time out. The exchange is raced against a deadline and its data task cancelled when the
/// deadline wins; URLSession's own timeout is only a backstop, rounded up.
public final class URLSessionTransport: HTTPTransport {
    private let session: URLSession

    public init() {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
        configuration.urlCache = nil
        configuration.httpCookieStorage = nil
        configuration.httpShouldSetCookies = false
        configuration.urlCredentialStorage = nil
        session = URLSession(configuration: configuration)
    }

    deinit {
        session.invalidateAndCancel()
    }

    public func send(_ request: HTTPRequest) async throws -> HTTPResponse {
        var urlRequest = URLRequest(url: request.url)
        urlRequest.httpMethod = request.method
        urlRequest.httpBody = request.body
        urlRequest.timeoutInterval = (request.timeout.seconds + 1).rounded(.up)
        for header in request.headers {
            urlRequest.setValue(header.value, forHTTPHeaderField: header.name)
        }
        let session = self.session, prepared = urlRequest, timeout = request.timeout
        return try await withThrowingTaskGroup(of: HTTPResponse?.self) { group in
            group.addTask { try await Self.exchange(prepared, on: session) }
            group.addTask {
                try await Task.sleep(for: timeout)
                return nil
            }
            defer { group.cancelAll() }
            guard let first = try await group.next(), let response = first else {
                throw Self.timedOut(cause: nil)
            }
            return response
        }
    }

    /// One exchange through a data task that is cancelled with the calling task.
    private static func exchange(_ request: URLRequest, on session: URLSession) async throws -> HTTPResponse {
        let running = RunningTask()
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<HTTPResponse, any Error>) in
                let task = session.dataTask(with: request) { body, response, error in
                    continuation.resume(with: Result { try Self.response(body, response, error) })
                }
                running.start(task)
            }
        } onCancel: {
            running.cancel()
        }
    }

    private static func response(_ body: Data?, _ response: URLResponse?, _ error: (any Error)?) throws -> HTTPResponse {
        if let error {
            if let urlError = error as? URLError, urlError.code == .timedOut { throw timedOut(cause: urlError) }
            if let urlError = error as? URLError, urlError.code == .cancelled { throw CancellationError() }
            throw UploadQueueError(
                .connectionFailed, "cannot reach the upload endpoint (refused, reset, DNS or TLS); it is retried", cause: error)
        }
        guard let http = response as? HTTPURLResponse else {
            throw UploadQueueError(.connectionFailed, "the answer was not HTTP; check the endpoint URL")
        }
        var headers: [String: String] = [:]
        for case let (name as String, value as String) in http.allHeaderFields {
            headers[name.lowercased()] = value
        }
        return HTTPResponse(status: http.statusCode, headers: headers, body: body ?? Data())
    }

    private static func timedOut(cause: (any Error)?) -> UploadQueueError {
        UploadQueueError(.timedOut, "the server did not answer within the request timeout; it is retried", cause: cause)
    }
}

/// A data task and whether it was cancelled, so a cancellation that comes before the task starts still stops it.
private final class RunningTask: Sendable {
    private let state = NIOLockedValueBox<(task: URLSessionDataTask?, isCancelled: Bool)>((nil, false))

    func start(_ task: URLSessionDataTask) {
        let isCancelled = state.withLockedValue { state in
            state.task = task
            return state.isCancelled
        }
        task.resume()
        if isCancelled { task.cancel() }
    }

    func cancel() {
        state.withLockedValue { state in
            state.isCancelled = true
            return state.task
        }?.cancel()
    }
}
