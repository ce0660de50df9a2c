import Foundation

/// One HTTP exchange, behind a protocol so the queue logic is tested with a fake and the real client is swappable.
///
/// Implementations throw `UploadQueueError` with `.timedOut` when no answer came within `request.timeout`, and
/// `.connectionFailed` for every other failure to get an answer; any HTTP status, 4xx and 5xx included, is a
/// response, not an error.
public protocol HTTPTransport: Sendable {
    func send(_ request: HTTPRequest) async throws -> HTTPResponse
}

public struct HTTPRequest: Sendable, Hashable {
    public var method: String
    public var url: URL
    /// In the order they are sent.
    public var headers: [Header]
    public var body: Data
    public var timeout: Duration

    public struct Header: Sendable, Hashable {
        public var name: String
        public var value: String
        public init(_ name: String, _ value: String) {
            self.name = name
            self.value = value
        }
    }

    public init(method: String, url: URL, headers: [Header], body: Data, timeout: Duration) {
        self.method = method
        self.url = url
        self.headers = headers
        self.body = body
        self.timeout = timeout
    }

    public func header(_ name: String) -> String? {
        headers.first { $0.name.lowercased() == name.lowercased() }?.value
    }
}

public struct HTTPResponse: Sendable, Hashable {
    public var status: Int
    /// Header names lowercased.
    public var headers: [String: String]
    public var body: Data

    public init(status: Int, headers: [String: String] = [:], body: Data = Data()) {
        self.status = status
        self.headers = Dictionary(headers.map { ($0.key.lowercased(), $0.value) }, uniquingKeysWith: { first, _ in first })
        self.body = body
    }
}
