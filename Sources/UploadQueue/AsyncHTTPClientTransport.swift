import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1

/// The real transport: AsyncHTTPClient (SwiftNIO, with swift-nio-ssl for HTTPS and the system's CA store).
///
/// Why not Foundation's `URLSession`, which ships with the toolchain: on Linux it leaks a few libcurl strings on
/// every request (FoundationNetworking's host check, `CFURLSessionCurlHostIsEqual`, never frees what libcurl's URL
/// parser allocated), which an agent that runs for months should not, and which fails the AddressSanitizer run
/// (docs/RELIABILITY.md).
///
/// Its client is one per process and never shut down (an `HTTPClient` must be shut down before it is freed; a static
/// one never is), so a transport can be dropped at any time. It keeps no cookies and no cache, so nothing about a
/// consent is kept by it. A failed connection fails the request at once (`retryConnectionEstablishment` off): the
/// queue's backoff is the retry, and a refused connection must read as `connectionFailed`, not as a timeout.
///
/// The timeout covers the whole exchange, the body included: AsyncHTTPClient's deadline ends when the head arrives,
/// so a server that drips its body would otherwise never time out. The exchange is raced against the deadline and
/// cancelled when the deadline wins.
public final class AsyncHTTPClientTransport: HTTPTransport {
    /// A FHIR transaction-response for one record is a few KB; anything near this is not an answer we can use.
    static let maxResponseBytes = 8 * 1024 * 1024

    /// The process's client: HTTPS verified against the system's CA store, and no redirect is ever followed.
    ///
    /// Every request is a POST of a consent (PHI): following a redirect would send it to a URL nobody configured
    /// (AsyncHTTPClient follows up to 5 by default, to any host, and a 307/308 keeps the body). A 3xx is handed
    /// back as the answer, and the queue halts on it with "configure the final endpoint URL" (`DeliveryOutcome`).
    public static let sharedClient: HTTPClient = {
        var configuration = HTTPClient.Configuration()
        configuration.connectionPool.retryConnectionEstablishment = false
        configuration.redirectConfiguration = .disallow
        return HTTPClient(eventLoopGroup: HTTPClient.defaultEventLoopGroup, configuration: configuration)
    }()

    private let client: HTTPClient

    public init(client: HTTPClient = AsyncHTTPClientTransport.sharedClient) {
        self.client = client
    }

    public func send(_ request: HTTPRequest) async throws -> HTTPResponse {
        var outgoing = HTTPClientRequest(url: request.url.absoluteString)
        outgoing.method = HTTPMethod(rawValue: request.method)
        for header in request.headers {
            outgoing.headers.add(name: header.name, value: header.value)
        }
        outgoing.body = .bytes(ByteBuffer(bytes: request.body))
        let client = self.client, prepared = outgoing, timeout = request.timeout
        return try await withThrowingTaskGroup(of: HTTPResponse?.self) { group in
            group.addTask { try await Self.exchange(prepared, on: client, timeout: timeout) }
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

    private static func exchange(_ request: HTTPClientRequest, on client: HTTPClient, timeout: Duration) async throws
        -> HTTPResponse
    {
        do {
            // The client's own deadline is only a backstop (the race in `send` decides), one second later.
            let response = try await client.execute(request, timeout: .nanoseconds(nanoseconds(timeout + .seconds(1))))
            let body = try await response.body.collect(upTo: maxResponseBytes)
            var headers: [String: String] = [:]
            for header in response.headers where headers[header.name.lowercased()] == nil {
                headers[header.name.lowercased()] = header.value
            }
            return HTTPResponse(status: Int(response.status.code), headers: headers, body: Data(body.readableBytesView))
        } catch is CancellationError {
            throw CancellationError()
        } catch let error as HTTPClientError where error == .cancelled {
            throw CancellationError()
        } catch let error as HTTPClientError where error == .deadlineExceeded || error == .readTimeout {
            throw timedOut(cause: error)
        } catch let error as NIOTooManyBytesError {
            throw UploadQueueError(
                .connectionFailed, "the answer was larger than \(maxResponseBytes) bytes; check the endpoint URL",
                cause: error)
        } catch {
            throw UploadQueueError(
                .connectionFailed, "cannot reach the upload endpoint (refused, reset, DNS or TLS); it is retried", cause: error)
        }
    }

    private static func nanoseconds(_ duration: Duration) -> Int64 {
        let (seconds, attoseconds) = duration.components
        return seconds * 1_000_000_000 + attoseconds / 1_000_000_000
    }

    private static func timedOut(cause: (any Error)?) -> UploadQueueError {
        UploadQueueError(.timedOut, "the server did not answer within the request timeout; it is retried", cause: cause)
    }
}
